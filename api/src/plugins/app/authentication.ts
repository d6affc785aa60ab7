// Who is calling: `fastify.authenticate(request)` resolves the session to a current User
// (loaded fresh from the database each request, so an approval, role change or suspension
// applies at once) and stores it as `request.user`. routes/api/hooks.ts calls it for every
// protected route.
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { User } from '@rescuelog/sync-protocol/users';
import { ApiError, unauthenticated } from '../../lib/api-error';
import { SESSION_COOKIE } from '../external/session';
import { findUserWithRolePermissions } from '../../repositories/users-repository';
import { toPublicUser } from '../../services/users-service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user on protected routes (set by `fastify.authenticate`), else null. */
    user: User | null;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<User>;
    /** Destroys the request's session (if any) and clears the cookie. */
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export const SUSPENDED_MESSAGE = 'Your account has been suspended. Contact your administrator.';

export const authenticationPlugin = fp(
  async (fastify) => {
    fastify.decorateRequest('user', null);

    async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      // @fastify/session sets request.session to null once destroyed.
      const current = request.session as typeof request.session | null;
      if (current) await current.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/api' });
    }
    fastify.decorate('endSession', endSession);

    fastify.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const current = request.session as typeof request.session | null;
      if (current?.get('expired') === true) {
        await endSession(request, reply);
        throw new ApiError(
          401,
          ErrorCode.SESSION_EXPIRED,
          'Your session has expired. Please sign in again.',
        );
      }
      const userId = current?.get('userId');
      if (typeof userId !== 'number') throw unauthenticated();
      const found = await findUserWithRolePermissions(fastify.db, userId);
      if (!found) {
        await endSession(request, reply);
        throw unauthenticated();
      }
      if (found.user.status === 'suspended') {
        await endSession(request, reply);
        throw new ApiError(403, ErrorCode.ACCOUNT_SUSPENDED, SUSPENDED_MESSAGE);
      }
      const user = toPublicUser(found.user, found.rolePermissions);
      request.user = user;
      return user;
    });
  },
  { name: 'authentication', dependencies: ['database', 'session'] },
);
