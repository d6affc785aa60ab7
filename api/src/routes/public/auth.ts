// POST /api/register, POST /api/login, POST /api/logout (spec §4, §5, §7, §8).
// Sign-in regenerates the session id (the old session row is destroyed) so a session id
// planted before login is worthless afterwards. Registration signs nobody in (decision 027).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  INVALID_CREDENTIALS_MESSAGE,
  REGISTRATION_MESSAGE,
  REGISTRATION_MESSAGE_FIRST_ADMIN,
  loginSchema,
} from '@rescuelog/sync-protocol/accounts/users';
import { serverRegisterSchema } from '@rescuelog/sync-protocol/accounts/password-policy';
import { ApiError, parseInput } from '../../lib/api-error';
import { SUSPENDED_MESSAGE } from '../../plugins/app/authentication';
import type { SignInCounter } from '../../plugins/external/sign-in-throttle';
import { registerUser, toPublicUser, verifyCredentials } from '../../services/users-service';
import { findUserByEmail, findUserWithRolePermissions } from '../../repositories/users-repository';

export const LOGOUT_MESSAGE = 'You have been logged out successfully';

let warnedInsecure = false;

async function signIn(request: FastifyRequest, userId: number): Promise<void> {
  if (
    request.server.config.cookieSecure === true &&
    request.protocol !== 'https' &&
    !warnedInsecure
  ) {
    // The session plugin sets no Secure cookie on a plain-http request (nothing is stored).
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
  // The same answer whether the email is new or already holds an account (decision 027):
  // the same status and body, no session either way, and the same work (the password is
  // hashed, one transaction writes a user or the owner's notice, one audit entry).
  fastify.post('/register', async (request, reply) => {
    await fastify.rateLimiter.consume('registerPerIp', request.ip);
    const input = parseInput(serverRegisterSchema, request.body);
    const passwordHash = await fastify.passwords.hash(input.password);
    const result = await registerUser(fastify.db, input, passwordHash, {
      // System Settings decide once an administrator has set it; FIRST_USER_ADMIN until then.
      firstUserAdmin:
        (await fastify.settings.get()).firstUserAdmin ?? fastify.config.firstUserAdmin,
    });
    if (result.kind === 'taken') {
      await fastify.audit.record(request, {
        action: 'auth.register',
        outcome: 'failure',
        actorUserId: null,
        entityType: 'user',
        entityId: result.existing.id,
        details: { email: input.email, reason: 'email_taken', ownerNotified: true },
      });
      return reply.code(201).send({ message: REGISTRATION_MESSAGE });
    }
    const { user, firstAdministrator } = result;
    await fastify.audit.record(request, {
      action: 'auth.register',
      outcome: 'success',
      actorUserId: user.id,
      entityType: 'user',
      entityId: user.id,
      details: { role: user.role, status: user.status, firstAdministrator },
    });
    // Only possible on a system with no account at all, so it tells nothing about an email.
    return reply.code(201).send({
      message: firstAdministrator ? REGISTRATION_MESSAGE_FIRST_ADMIN : REGISTRATION_MESSAGE,
    });
  });

  // Throttled, never locked (decision 022): a known device has its own counter; any other
  // sign-in counts against its (email, address) pair, the account's unknown devices and the
  // address's fixed window.
  fastify.post('/login', async (request, reply) => {
    const input = parseInput(loginSchema, request.body);
    const found = await findUserByEmail(fastify.db, input.email);
    const deviceId = found ? fastify.knownDevices.deviceIdFor(request, found.id) : undefined;
    let counters: SignInCounter[];
    if (found && deviceId !== undefined) {
      counters = await fastify.signInThrottle.knownDevice(found.id, deviceId);
    } else {
      await fastify.rateLimiter.consume('loginPerIp', request.ip);
      counters = await fastify.signInThrottle.unknownDevice(input.email, request.ip);
    }
    await fastify.signInThrottle.attempt(counters);
    const check = await verifyCredentials(fastify.passwords, found, input.password);
    if (!check.ok) {
      await fastify.audit.record(request, {
        action: 'auth.login_failed',
        outcome: 'failure',
        actorUserId: check.user?.id ?? null,
        details: { email: input.email, reason: check.reason },
      });
      throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, INVALID_CREDENTIALS_MESSAGE);
    }
    await fastify.signInThrottle.succeeded(counters);
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
    fastify.knownDevices.remember(request, reply, check.user.id);
    await fastify.audit.record(request, {
      action: 'auth.login',
      outcome: 'success',
      actorUserId: check.user.id,
      details: { knownDevice: deviceId !== undefined },
    });
    const withRole = await findUserWithRolePermissions(fastify.db, check.user.id);
    return {
      user: toPublicUser(
        withRole?.user ?? check.user,
        withRole?.rolePermissions,
        withRole?.roleName,
      ),
    };
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
