// Who is calling: `fastify.authenticate(request)` resolves the session to a current User
// and stores it as `request.user`. The user comes from the session and user cache
// (lib/auth-cache.ts, decision 026), which drops it on any committed change to the user or
// the roles, so an approval, role change or suspension applies at once on this instance and
// as soon as the notification arrives on another (within 2 s if one is ever missed). routes/api/hooks.ts calls it for every
// protected route.
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { ApiError, unauthenticated } from '../../lib/api-error';
import { clearSessionCookie } from '../external/session';
import { findUserWithRolePermissionsAndEpoch } from '../../repositories/users-repository';
import type { CachedUser } from '../external/session';
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

/** The cached User is shared by every request of that user: nothing may change it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export const authenticationPlugin = fp(
  async (fastify) => {
    fastify.decorateRequest('user', null);

    async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      // Outside /api there is no session (the cookie's path).
      const current = request.session as typeof request.session | null;
      if (current) await current.destroy();
      clearSessionCookie(reply);
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
      let entry: CachedUser | undefined = fastify.authCache.user(userId);
      if (!entry) {
        const found = await findUserWithRolePermissionsAndEpoch(fastify.db, userId);
        if (!found) {
          await endSession(request, reply);
          throw unauthenticated();
        }
        entry = {
          status: found.user.status,
          user: deepFreeze(toPublicUser(found.user, found.rolePermissions, found.roleName)),
        };
        fastify.authCache.putUser(userId, entry, found.epoch);
      }
      if (entry.status === 'suspended') {
        await endSession(request, reply);
        throw new ApiError(403, ErrorCode.ACCOUNT_SUSPENDED, SUSPENDED_MESSAGE);
      }
      request.user = entry.user;
      return entry.user;
    });
  },
  { name: 'authentication', dependencies: ['database', 'session'] },
);
