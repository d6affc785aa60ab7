// Uploads and stored files (issue 2, spec §7):
//   POST /api/objects/upload        -> { uploadURL, expiresAt } (pending users too)
//   PUT  /api/objects/upload/:token    raw file body -> { url }  (pending users too)
//   GET  /api/objects/:name            the file, to its owner or an administrator
// The PUT scope replaces every body parser with one that hands the raw request stream to the
// handler: the bytes are checked and counted as they arrive, never buffered whole.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { MAX_UPLOAD_BYTES } from '@rescuelog/sync-protocol/accounts/uploads';
import { unauthenticated } from '../../../lib/api-error';
import { expectNoBody } from '../../../lib/no-body';
import { createDiskStorage, type ObjectStorage } from '../../../services/object-storage';
import { assertRoomForNewUpload, type Uploader } from '../../../services/upload-quota';
import {
  cleanupUploads,
  createUploadUrl,
  openObject,
  storeUpload,
} from '../../../services/uploads-service';

export interface ObjectRoutesOptions {
  /** Defaults to files under `<DATA_DIR>/uploads`. */
  storage?: ObjectStorage;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

const emptyBody: AsyncIterable<Uint8Array> = {
  async *[Symbol.asyncIterator]() {
    // An absent body is an empty file: its type cannot be recognised, so it is refused.
  },
};

function uploaderOf(user: { id: number; status: Uploader['status'] }, ip: string): Uploader {
  return { userId: user.id, status: user.status, ip };
}

export async function objectRoutes(
  fastify: FastifyInstance,
  options: ObjectRoutesOptions = {},
): Promise<void> {
  const storage =
    options.storage ?? createDiskStorage(path.join(fastify.config.dataDir, 'uploads'));

  const limits = fastify.config.uploads;
  // Lapsed upload URLs and files no account refers to are removed at start and then every
  // UPLOAD_CLEANUP_MINUTES, by every instance: each run deletes rows in one statement that
  // skips rows another instance holds, so two runs never fight over one file.
  let cleanup: Promise<unknown> = Promise.resolve();
  const runCleanup = (): void => {
    cleanup = cleanup
      .then(() =>
        cleanupUploads(fastify.db, storage, {
          orphanGraceMs: limits.orphanGraceHours * 60 * 60 * 1000,
        }),
      )
      .then(
        (removed) => {
          if (removed.objects > 0 || removed.tokens > 0)
            fastify.log.info(removed, 'upload cleanup removed lapsed URLs and unused files');
        },
        (error: unknown) => fastify.log.warn({ err: error }, 'upload cleanup failed'),
      );
  };
  let timer: NodeJS.Timeout | undefined;
  fastify.addHook('onReady', async () => {
    runCleanup();
    timer = setInterval(runCleanup, limits.cleanupIntervalMinutes * 60 * 1000);
    timer.unref();
  });
  fastify.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await cleanup;
  });

  fastify.post('/objects/upload', { config: { allowPending: true } }, async (request) => {
    if (!request.user) throw unauthenticated();
    expectNoBody(request.body);
    await assertRoomForNewUpload(fastify.db, uploaderOf(request.user, request.ip), limits);
    return createUploadUrl(fastify.db, request.user.id);
  });

  await fastify.register(async function uploadTarget(scope) {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });

    scope.put<{ Params: { token: string } }>(
      '/objects/upload/:token',
      { config: { allowPending: true } },
      async (request, reply) => {
        if (!request.user) throw unauthenticated();
        const length = request.headers['content-length'];
        const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
        const maxBytes = Math.min(
          MAX_UPLOAD_BYTES,
          (await fastify.settings.get()).uploadMaxFileMiB * 1_048_576,
        );
        try {
          const body = isAsyncIterable(request.body) ? request.body : emptyBody;
          const stored = await storeUpload(fastify.db, storage, {
            token: request.params.token,
            uploader: uploaderOf(request.user, request.ip),
            body,
            declaredBytes: declared,
            maxBytes,
            quota: limits,
          });
          await fastify.audit.record(request, {
            action: 'upload.store',
            outcome: 'success',
            entityType: 'upload',
            entityId: stored.name,
            details: { contentType: stored.contentType, sizeBytes: stored.size },
          });
          return { url: stored.url };
        } catch (error) {
          // The client may still be sending: answer, then close the connection rather than
          // read the rest of an oversized or refused body.
          if (!request.raw.readableEnded) reply.header('connection', 'close');
          throw error;
        }
      },
    );
  });

  fastify.get<{ Params: { name: string } }>('/objects/:name', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    const result = await openObject(fastify.db, storage, request.params.name, request.user);
    if (!result.allowed) {
      throw await fastify.deny(
        request,
        ErrorCode.FORBIDDEN,
        'You do not have access to this file',
        { object: request.params.name, owner: String(result.ownerId) },
      );
    }
    const { object } = result;
    if (object.ownerId !== request.user.id) {
      // An administrator reading someone's identity documents leaves a trace.
      await fastify.audit.record(request, {
        action: 'upload.read',
        outcome: 'success',
        entityType: 'upload',
        entityId: object.name,
        details: { owner: object.ownerId },
      });
    }
    return reply
      .type(object.contentType)
      .header('content-length', String(object.size))
      .header('content-disposition', `attachment; filename="${object.name}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(object.stream);
  });
}
