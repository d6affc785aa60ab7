// GET /api/cases -> CaseSummary[] (spec §7 "List of cases"), newest first, filtered by the
// case search query (caseSearchQuerySchema: case number, patient name, incident type, date
// range, status, responder, only mine) and paged by keyset: the body stays a JSON array and
// the next page's cursor travels in the X-Next-Cursor header (absent on the last page).
// Which cases a user sees is decided in services/cases-service.ts (canSeeAllCases).
import type { FastifyInstance } from 'fastify';
import { caseSearchQuerySchema } from '@rescuelog/sync-protocol/cases/api';
import { parseInput, unauthenticated } from '../../lib/api-error';
import { searchCases } from '../../services/cases-service';

export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

export async function caseRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/cases', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    const query = parseInput(caseSearchQuerySchema, request.query);
    const page = await searchCases(fastify.db, request.user, query);
    if (page.nextCursor !== null) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.cases;
  });
}
