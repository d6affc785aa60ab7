// GET /api/health: the process is up. GET /api/ready: and the database answers (503 if not),
// for a load balancer deciding where to send traffic.
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/health', async () => ({ status: 'ok' }));

  fastify.get('/ready', async (_request, reply) => {
    if (await fastify.databaseReachable()) return { status: 'ready' };
    return reply
      .code(503)
      .send({ error: 'Database unreachable', code: ErrorCode.SERVICE_UNAVAILABLE });
  });
}
