// GET /api/incident-reports -> IncidentReportRecord[] (the list screen online), newest first,
// filtered by incidentReportListQuerySchema; the next page's cursor in X-Next-Cursor.
// Which reports a user sees: services/incident-reports-service.ts.
import type { FastifyInstance } from 'fastify';
import { incidentReportListQuerySchema } from '@rescuelog/sync-protocol/incidents/api';
import { parseInput, unauthenticated } from '../../lib/api-error';
import { listIncidentReports } from '../../services/incident-reports-service';
import { NEXT_CURSOR_HEADER } from './cases';

export async function incidentReportRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/incident-reports', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    const query = parseInput(incidentReportListQuerySchema, request.query);
    const page = await listIncidentReports(fastify.db, request.user, query);
    if (page.nextCursor !== null) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.reports;
  });
}
