// GET /api/stats -> Stats (spec §3): the dashboard's Quick Stats, for approved users, counting
// the cases the user may see (the lists' rule, decision 024).
import type { FastifyInstance } from 'fastify';
import { unauthenticated } from '../../lib/api-error';
import { getStats } from '../../services/stats-service';

export async function statsRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/stats', async (request) => {
    if (!request.user) throw unauthenticated();
    return getStats(fastify.db, undefined, undefined, request.user);
  });
}
