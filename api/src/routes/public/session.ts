// GET /api/session: who this browser is signed in as, `{ user }` with `user: null` when no one
// is (decision 059). Being signed out is an ordinary answer here, not an error: the app asks
// this at every start, also on the sign-in screen, where a 401 would be logged by the browser
// as a failed request. An expired session or a suspended account is signed out as
// `authenticate` does it (the session ends, the cookie is cleared) and answers `user: null`.
// GET /api/user keeps its meaning for every other caller: the signed-in user, 401 without one.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error';

export async function sessionRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/session', async (request, reply) => {
    try {
      return { user: await fastify.authenticate(request, reply) };
    } catch (error) {
      if (error instanceof ApiError && (error.statusCode === 401 || error.statusCode === 403))
        return { user: null };
      throw error;
    }
  });
}
