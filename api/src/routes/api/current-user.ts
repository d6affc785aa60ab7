// GET /api/user: the signed-in user ({ user }), pending users included; 401 without a session.
import type { FastifyInstance } from 'fastify';

export async function currentUserRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/user', { config: { allowPending: true } }, async (request) => {
    return { user: request.user };
  });
}
