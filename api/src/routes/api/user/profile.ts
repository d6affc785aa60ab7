// The signed-in user's own account (issue 11, /profile):
//   PATCH /api/user/profile {profile fields, email?, currentPassword?} -> {user}
//   POST /api/user/password {currentPassword, newPassword} -> ends every other session and
//     gives this one a new id (a session id seen before the change is worthless after it)
//   GET /api/user/sessions, DELETE /api/user/sessions/:id, POST /api/user/sessions/end-others
// A wrong current password counts against the account's sign-in throttle for this address,
// like a failed sign-in (decision 022).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { profileUpdateSchema, sessionIdParamSchema } from '@rescuelog/sync-protocol/accounts/users';
import { serverPasswordChangeSchema } from '@rescuelog/sync-protocol/accounts/password-policy';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { ApiError, parseInput, unauthenticated } from '../../../lib/api-error';
import { toJsonValue } from '../../../lib/json-value';
import { expectNoBody } from '../../../lib/no-body';
import { findUserWithRolePermissions } from '../../../repositories/users-repository';
import {
  changePassword,
  endSessions,
  listSessions,
  sessionPublicId,
  updateProfile,
} from '../../../services/profile-service';
import { toPublicUser } from '../../../services/users-service';

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed';

export async function userProfileRoutes(fastify: FastifyInstance): Promise<void> {
  function signedIn(request: FastifyRequest) {
    if (!request.user) throw unauthenticated();
    return request.user;
  }

  async function currentUser(userId: number) {
    const found = await findUserWithRolePermissions(fastify.db, userId);
    if (!found) throw unauthenticated();
    return toPublicUser(found.user, found.rolePermissions, found.roleName);
  }

  fastify.patch('/user/profile', async (request) => {
    const user = signedIn(request);
    const input = parseInput(profileUpdateSchema, request.body);
    const confirming =
      input.email !== undefined && input.email !== user.email
        ? await fastify.signInThrottle.confirmation(user.email, request.ip)
        : [];
    await fastify.signInThrottle.attempt(confirming);
    const { before, after, changed } = await updateProfile(
      fastify.db,
      fastify.passwords,
      user.id,
      input,
    );
    await fastify.signInThrottle.succeeded(confirming);
    if (changed.length > 0) {
      await fastify.audit.record(request, {
        action: 'user.profile_update',
        outcome: 'success',
        entityType: 'user',
        entityId: user.id,
        details: {
          fields: changed,
          before: toJsonValue(Object.fromEntries(changed.map((k) => [k, before[k]]))),
          after: toJsonValue(Object.fromEntries(changed.map((k) => [k, after[k]]))),
        },
      });
    }
    return { user: await currentUser(user.id) };
  });

  fastify.post('/user/password', async (request) => {
    const user = signedIn(request);
    const input = parseInput(serverPasswordChangeSchema, request.body);
    const confirming = await fastify.signInThrottle.confirmation(user.email, request.ip);
    await fastify.signInThrottle.attempt(confirming);
    try {
      await changePassword(fastify.db, fastify.passwords, user.id, input);
      await fastify.signInThrottle.succeeded(confirming);
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.CURRENT_PASSWORD_INVALID) {
        await fastify.audit.record(request, {
          action: 'user.password_change',
          outcome: 'failure',
          entityType: 'user',
          entityId: user.id,
          details: { reason: 'current_password_invalid' },
        });
      }
      throw error;
    }
    const endedSessions = await endSessions(fastify.db, user.id, {
      exceptSid: request.session.sessionId,
    });
    // This device stays signed in, under a new session id.
    await request.session.regenerate();
    request.session.set('userId', user.id);
    request.session.set('userAgent', request.headers['user-agent']?.slice(0, 512));
    request.session.set('ip', request.ip);
    await fastify.audit.record(request, {
      action: 'user.password_change',
      outcome: 'success',
      entityType: 'user',
      entityId: user.id,
      details: { endedSessions },
    });
    return { message: PASSWORD_CHANGED_MESSAGE, endedSessions };
  });

  fastify.get('/user/sessions', async (request) => {
    const user = signedIn(request);
    return { sessions: await listSessions(fastify.db, user.id, request.session.sessionId) };
  });

  fastify.post('/user/sessions/end-others', async (request) => {
    const user = signedIn(request);
    expectNoBody(request.body);
    const endedSessions = await endSessions(fastify.db, user.id, {
      exceptSid: request.session.sessionId,
    });
    await fastify.audit.record(request, {
      action: 'user.sessions_end',
      outcome: 'success',
      entityType: 'user',
      entityId: user.id,
      details: { endedSessions, which: 'others' },
    });
    return { message: 'Signed out everywhere else', endedSessions };
  });

  fastify.delete('/user/sessions/:id', async (request, reply) => {
    const user = signedIn(request);
    const { id } = parseInput(sessionIdParamSchema, request.params);
    expectNoBody(request.body);
    const isCurrent = sessionPublicId(request.session.sessionId) === id;
    const endedSessions = await endSessions(fastify.db, user.id, { publicId: id });
    if (endedSessions === 0) throw new ApiError(404, ErrorCode.NOT_FOUND, 'Session not found');
    await fastify.audit.record(request, {
      action: 'user.sessions_end',
      outcome: 'success',
      entityType: 'user',
      entityId: user.id,
      details: { endedSessions, which: isCurrent ? 'current' : 'one' },
    });
    if (isCurrent) await fastify.endSession(request, reply);
    return { message: 'Signed out', endedSessions };
  });
}
