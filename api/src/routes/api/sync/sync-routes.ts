// POST /api/sync/push and POST /api/sync/pull (docs/architecture.md "Sync protocol").
// A client older than MIN_PROTOCOL_VERSION gets 426 UPDATE_REQUIRED and nothing else.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { pullRequestSchema, pushRequestSchema } from '@rescuelog/sync-protocol/platform/push-pull';
import { MIN_PROTOCOL_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { ApiError, parseInput, unauthenticated } from '../../../lib/api-error';
import { Gate } from '../../../lib/gate';
import { pullChanges } from '../../../services/sync/pull-service';
import { pushBatch } from '../../../services/sync/push-service';
import type { RequestOrigin } from '../../../services/sync/sync-audit';

export const UPDATE_REQUIRED_MESSAGE =
  'This version of the app is out of date. Update it to keep syncing.';
/** 200 mutations with long free-text fields can pass the default 1 MiB. */
export const PUSH_BODY_LIMIT = 16 * 1024 * 1024;

const versionProbe = z.object({ protocolVersion: z.number() });

function requireSupportedProtocol(body: unknown): void {
  const probe = versionProbe.safeParse(body);
  if (probe.success && probe.data.protocolVersion < MIN_PROTOCOL_VERSION) {
    throw new ApiError(426, ErrorCode.UPDATE_REQUIRED, UPDATE_REQUIRED_MESSAGE);
  }
}

function origin(request: FastifyRequest): RequestOrigin {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}

export async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  // Pushes of this instance that run at once (SYNC_PUSHES_AT_ONCE, default 4), each on a
  // connection of the pushes' own pool (`fastify.pushDb`); the others wait here. So under load
  // pushes neither take the screens' connections nor wait behind their reads (decisions 030,
  // 033 and 042).
  const pushes = new Gate(fastify.config.syncPushesAtOnce);
  // Both routes write no user, role or session (synced tables are records: the registry's), so
  // after them there is no auth change to wait for (`authUnchanged`, plugins/external/session.ts):
  // without it each one read the auth epoch again after its answer, one more wait for a
  // pooled connection per request (decision 039).
  fastify.post(
    '/sync/push',
    { bodyLimit: PUSH_BODY_LIMIT, config: { authUnchanged: true } },
    async (request) => {
      const user = request.user;
      if (!user) throw unauthenticated();
      requireSupportedProtocol(request.body);
      const body = parseInput(pushRequestSchema, request.body);
      return pushes.run(() =>
        pushBatch(
          fastify.pushDb,
          fastify.records,
          user,
          origin(request),
          { deviceId: body.deviceId, mutations: body.mutations },
          // A fault of the server's own: logged whole here, the device hears only that it failed.
          (error, mutation) => {
            request.log.error({ err: error, mutation }, 'sync push: storing a mutation failed');
          },
        ),
      );
    },
  );

  fastify.post('/sync/pull', { config: { authUnchanged: true } }, async (request, reply) => {
    if (!request.user) throw unauthenticated();
    requireSupportedProtocol(request.body);
    const body = parseInput(pullRequestSchema, request.body);
    // Downloading patient records to a device is a view of them (POPIA): which ones, by whom.
    // The page's statement writes the entry (pull-service.ts, decision 041).
    const page = await pullChanges(
      fastify.db,
      fastify.records,
      request.user,
      {
        cursor: body.cursor,
        limit: body.limit,
        schemaVersion: body.schemaVersion,
        protocolVersion: body.protocolVersion,
      },
      { origin: origin(request), deviceId: body.deviceId, cursor: body.cursor },
    );
    // The database built the answer's JSON (pull-service.ts): sent as it is.
    return reply.type('application/json; charset=utf-8').send(page.body);
  });
}
