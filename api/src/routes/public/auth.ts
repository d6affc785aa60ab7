// POST /api/register, POST /api/login, POST /api/logout (spec §4, §5, §7, §8).
// Both sign-ins regenerate the session id (the old session row is destroyed) so a session id
// planted before login is worthless afterwards.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  INVALID_CREDENTIALS_MESSAGE,
  REGISTRATION_MESSAGE,
  REGISTRATION_MESSAGE_FIRST_ADMIN,
  loginSchema,
  registerSchema,
} from '@rescuelog/sync-protocol/users';
import { ApiError, parseInput } from '../../lib/api-error';
import { SUSPENDED_MESSAGE } from '../../plugins/app/authentication';
import { checkCredentials, registerUser, toPublicUser } from '../../services/users-service';
import { findUserWithRolePermissions } from '../../repositories/users-repository';

export const LOGOUT_MESSAGE = 'You have been logged out successfully';

let warnedInsecure = false;

async function signIn(request: FastifyRequest, userId: number): Promise<void> {
  if (
    request.server.config.cookieSecure === true &&
    request.protocol !== 'https' &&
    !warnedInsecure
  ) {
    // @fastify/session silently drops a Secure cookie on a plain-http request.
    warnedInsecure = true;
    request.log.warn(
      'PUBLIC_ORIGIN is https but this sign-in arrived over http: the session cookie cannot be set. Behind a TLS proxy, send X-Forwarded-Proto from an address TRUST_PROXY names.',
    );
  }
  await request.session.regenerate();
  request.session.set('userId', userId);
  // Shown in the user's own list of sessions (profile), so they can tell their devices apart.
  request.session.set('userAgent', request.headers['user-agent']?.slice(0, 512));
  request.session.set('ip', request.ip);
}

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.post('/register', async (request, reply) => {
    await fastify.rateLimiter.consume('registerPerIp', request.ip);
    const input = parseInput(registerSchema, request.body);
    const passwordHash = await fastify.passwords.hash(input.password);
    let result;
    try {
      result = await registerUser(fastify.db, input, passwordHash, {
        // System Settings decide once an administrator has set it; FIRST_USER_ADMIN until then.
        firstUserAdmin:
          (await fastify.settings.get()).firstUserAdmin ?? fastify.config.firstUserAdmin,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.EMAIL_TAKEN) {
        await fastify.audit.record(request, {
          action: 'auth.register',
          outcome: 'failure',
          actorUserId: null,
          details: { email: input.email, reason: 'email_taken' },
        });
      }
      throw error;
    }
    const { user, firstAdministrator } = result;
    await signIn(request, user.id);
    await fastify.audit.record(request, {
      action: 'auth.register',
      outcome: 'success',
      actorUserId: user.id,
      entityType: 'user',
      entityId: user.id,
      details: { role: user.role, status: user.status, firstAdministrator },
    });
    return reply.code(201).send({
      message: firstAdministrator ? REGISTRATION_MESSAGE_FIRST_ADMIN : REGISTRATION_MESSAGE,
      user: toPublicUser(user),
    });
  });

  fastify.post('/login', async (request) => {
    const input = parseInput(loginSchema, request.body);
    await fastify.rateLimiter.consume('loginPerIp', request.ip);
    await fastify.rateLimiter.consume('loginPerEmail', input.email);
    const check = await checkCredentials(
      fastify.db,
      fastify.passwords,
      input.email,
      input.password,
    );
    if (!check.ok) {
      await fastify.audit.record(request, {
        action: 'auth.login_failed',
        outcome: 'failure',
        actorUserId: check.user?.id ?? null,
        details: { email: input.email, reason: check.reason },
      });
      throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, INVALID_CREDENTIALS_MESSAGE);
    }
    // Told only after the right password, so it reveals nothing to a guesser.
    if (check.user.status === 'suspended') {
      await fastify.audit.record(request, {
        action: 'auth.login_failed',
        outcome: 'denied',
        actorUserId: check.user.id,
        details: { email: input.email, reason: 'suspended' },
      });
      throw new ApiError(403, ErrorCode.ACCOUNT_SUSPENDED, SUSPENDED_MESSAGE);
    }
    await signIn(request, check.user.id);
    await fastify.audit.record(request, {
      action: 'auth.login',
      outcome: 'success',
      actorUserId: check.user.id,
    });
    const found = await findUserWithRolePermissions(fastify.db, check.user.id);
    return { user: toPublicUser(found?.user ?? check.user, found?.rolePermissions) };
  });

  // Works without a session too: logging out twice is not an error.
  fastify.post('/logout', async (request, reply) => {
    const current = request.session as typeof request.session | null;
    const userId = current?.get('userId');
    await fastify.endSession(request, reply);
    if (typeof userId === 'number') {
      await fastify.audit.record(request, {
        action: 'auth.logout',
        outcome: 'success',
        actorUserId: userId,
      });
    }
    return { message: LOGOUT_MESSAGE };
  });
}
