// Protection by location: every route registered in protected-routes.ts (under /api) needs a
// signed-in user whose account is approved. A route a pending user may call says so itself
// with `config: { allowPending: true }` (spec: /api/user, the uploads, /api/user/documents).
// Runs in onRequest, before any body is read, so nothing is uploaded without a session.
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Lets a signed-in but not yet approved (pending) user call this route. */
    allowPending?: boolean;
  }
}

export const protectedHooks = fp(
  async (fastify) => {
    fastify.addHook('onRequest', async (request, reply) => {
      await fastify.authenticate(request, reply);
      if (request.routeOptions.config.allowPending !== true)
        await fastify.requireApproved(request, reply);
    });
  },
  { name: 'protected-hooks', dependencies: ['authentication', 'guards'], encapsulate: false },
);
