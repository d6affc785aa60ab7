// One case by its human number (docs/decisions/007):
// GET  /api/cases/:caseId                 -> { case, vitalSigns, addenda } (owner, or casesLogged
//                                            view; audited as case.view; refusals audited)
// POST /api/cases/:caseId/unlock { reason } -> { case } (administrators; completed cases only)
// GET  /api/cases/:caseId/access-history?limit=&cursor= -> CaseAccessHistory (administrators)
// The list and search, GET /api/cases, live in cases.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  caseAccessHistoryQuerySchema,
  caseRecordParamsSchema,
  caseUnlockSchema,
} from '@rescuelog/sync-protocol/cases/api';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { ApiError, parseInput, unauthenticated } from '../../lib/api-error';
import {
  CASE_NOT_FOUND_MESSAGE,
  readAccessHistory,
  readCaseRecord,
  unlockCase,
} from '../../services/case-record-service';
import type { RequestOrigin } from '../../services/sync/sync-audit';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { CASE_ACCESS } from '@rescuelog/sync-protocol/cases/case';

export const CASE_VIEW_FORBIDDEN_MESSAGE = 'You do not have permission to view this case.';

function origin(request: FastifyRequest): RequestOrigin {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}

export async function caseRecordRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/cases/:caseId', async (request) => {
    const user = request.user;
    if (!user) throw unauthenticated();
    const { caseId } = parseInput(caseRecordParamsSchema, request.params);
    const record = await readCaseRecord(fastify.db, caseId);
    if (!record) throw new ApiError(404, ErrorCode.NOT_FOUND, CASE_NOT_FOUND_MESSAGE);
    const id = record.case.id;
    if (record.case.userId !== user.id && !canSeeAll(user, CASE_ACCESS)) {
      throw await fastify.deny(request, ErrorCode.FORBIDDEN, CASE_VIEW_FORBIDDEN_MESSAGE, {
        caseId: id,
        humanId: caseId,
      });
    }
    await fastify.audit.record(request, {
      action: 'case.view',
      outcome: 'success',
      entityType: 'case',
      entityId: id,
      details: { caseId: id, humanId: caseId, source: 'server', detail: 'api' },
    });
    return record;
  });

  fastify.post('/cases/:caseId/unlock', { preHandler: fastify.requireAdmin }, async (request) => {
    const user = request.user;
    if (!user) throw unauthenticated();
    const { caseId } = parseInput(caseRecordParamsSchema, request.params);
    const { reason } = parseInput(caseUnlockSchema, request.body);
    return { case: await unlockCase(fastify.db, user.id, caseId, reason, origin(request)) };
  });

  fastify.get(
    '/cases/:caseId/access-history',
    { preHandler: fastify.requireAdmin },
    async (request) => {
      const { caseId } = parseInput(caseRecordParamsSchema, request.params);
      const page = parseInput(caseAccessHistoryQuerySchema, request.query);
      return readAccessHistory(fastify.db, caseId, page);
    },
  );
}
