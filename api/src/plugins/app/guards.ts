// Reusable route guards (preHandler hooks). Every denial is written to the audit log.
//   { preHandler: fastify.requireAdmin }
//   { preHandler: fastify.requirePermission('casesLogged', 'view') }
// Routes under routes/api already require a session and an approved account (hooks.ts);
// these add the role and permission checks. The permission rule is sync-protocol's
// `hasPermission`, the one implementation of spec §6.
import fp from 'fastify-plugin';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  hasPermission,
  type PermissionAction,
  type PermissionModule,
} from '@rescuelog/sync-protocol/permissions';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { ApiError, unauthenticated } from '../../lib/api-error';

declare module 'fastify' {
  interface FastifyInstance {
    requireApproved: preHandlerAsyncHookHandler;
    requireAdmin: preHandlerAsyncHookHandler;
    requirePermission(
      module: PermissionModule,
      action: PermissionAction,
    ): preHandlerAsyncHookHandler;
    /** Audits and returns (for `throw`) a 403 for a signed-in user. */
    deny(
      request: FastifyRequest,
      code: ErrorCode,
      message: string,
      details?: Record<string, string>,
    ): Promise<ApiError>;
  }
}

export const PENDING_MESSAGE = 'Your account is pending approval from an administrator.';
export const ADMIN_REQUIRED_MESSAGE = 'This action requires administrator privileges.';
export const FORBIDDEN_MESSAGE = 'You do not have permission to do this.';

export const guardsPlugin = fp(
  async (fastify) => {
    async function deny(
      request: FastifyRequest,
      code: ErrorCode,
      message: string,
      details: Record<string, string> = {},
    ): Promise<ApiError> {
      await fastify.audit.record(request, {
        action: 'access.denied',
        outcome: 'denied',
        details: {
          code,
          method: request.method,
          route: request.routeOptions.url ?? request.url,
          ...details,
        },
      });
      return new ApiError(403, code, message);
    }
    fastify.decorate('deny', deny);

    function signedIn(request: FastifyRequest): User {
      if (!request.user) throw unauthenticated();
      return request.user;
    }

    fastify.decorate('requireApproved', async function requireApproved(request: FastifyRequest) {
      const user = signedIn(request);
      if (user.status !== 'approved')
        throw await deny(request, ErrorCode.ACCOUNT_PENDING, PENDING_MESSAGE);
    });

    fastify.decorate('requireAdmin', async function requireAdmin(request: FastifyRequest) {
      const user = signedIn(request);
      if (user.status !== 'approved')
        throw await deny(request, ErrorCode.ACCOUNT_PENDING, PENDING_MESSAGE);
      if (user.role !== 'administrator')
        throw await deny(request, ErrorCode.ADMIN_REQUIRED, ADMIN_REQUIRED_MESSAGE);
    });

    fastify.decorate(
      'requirePermission',
      (module: PermissionModule, action: PermissionAction) =>
        async function requirePermission(request: FastifyRequest) {
          const user = signedIn(request);
          if (user.status !== 'approved')
            throw await deny(request, ErrorCode.ACCOUNT_PENDING, PENDING_MESSAGE);
          if (!hasPermission(user, module, action)) {
            throw await deny(request, ErrorCode.FORBIDDEN, FORBIDDEN_MESSAGE, { module, action });
          }
        },
    );
  },
  { name: 'guards', dependencies: ['audit', 'authentication'] },
);
