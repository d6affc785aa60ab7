// GET /api/cases?limit= -> CaseSummary[], newest first (default 50, at most 200). Which
// cases a user sees is decided in services/cases-service.ts (canSeeAllCases).
import type { FastifyInstance } from 'fastify';
import { caseListQuerySchema } from '@rescuelog/sync-protocol/cases';
import { parseInput, unauthenticated } from '../../lib/api-error';
import { listCaseSummaries } from '../../services/cases-service';

export async function caseRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/cases', async (request) => {
    if (!request.user) throw unauthenticated();
    const { limit } = parseInput(caseListQuerySchema, request.query);
    return listCaseSummaries(fastify.db, request.user, limit);
  });
}
