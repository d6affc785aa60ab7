// GET /api/stats -> Stats (spec §3): the dashboard's Quick Stats, for approved users.
import type { FastifyInstance } from 'fastify';
import { getStats } from '../../services/stats-service';

export async function statsRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/stats', async () => getStats(fastify.db));
}
