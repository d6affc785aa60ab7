// Administrator user management: GET /api/admin/users?status=, POST …/:id/approve {roleId?}
// (default: the configured default role), POST …/:id/suspend (ends the user's sessions),
// PATCH …/:id {role?, roleId?, permissions?}, GET …/:id/permissions (each module's effective
// flags and where they come from), GET …/:id/documents. Every change is audited with its
// before and after.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { approveUserSchema, idParamSchema } from '@rescuelog/sync-protocol/accounts/roles';
import { explainPermissions } from '@rescuelog/sync-protocol/permissions';
import { adminUserPatchSchema, userListQuerySchema } from '@rescuelog/sync-protocol/accounts/users';
import type { User as UserRow } from '@rescuelog/db/schema';
import { ApiError, parseInput, permissionAwareCode, unauthenticated } from '../../../lib/api-error';
import { findRoleById } from '../../../repositories/roles-repository';
import { toJsonValue } from '../../../lib/json-value';
import { expectNoBody } from '../../../lib/no-body';
import { findUserById } from '../../../repositories/users-repository';
import { parsePermissions, toPublicUser } from '../../../services/users-service';
import {
  approveUser,
  listUsers,
  patchUser,
  suspendUser,
} from '../../../services/users-admin-service';
import { listUserDocuments } from '../../../services/user-documents-service';

/** What an audit entry records of a user's access: status, role, custom role and own permissions. */
function accessView(row: UserRow) {
  return toJsonValue({
    status: row.status,
    role: row.role,
    roleId: row.roleId,
    permissions: parsePermissions(row.permissions),
  });
}

export async function adminUserRoutes(fastify: FastifyInstance): Promise<void> {
  const actorId = (request: { user: { id: number } | null }) => {
    if (!request.user) throw unauthenticated();
    return request.user.id;
  };

  /** Audits one change of a user's access with its before and after, and answers with the user. */
  async function changed(
    request: FastifyRequest,
    action: 'user.approve' | 'user.suspend' | 'user.role_change',
    id: number,
    change: { before: UserRow; after: UserRow },
    extra: Record<string, number> = {},
  ) {
    await fastify.audit.record(request, {
      action,
      outcome: 'success',
      entityType: 'user',
      entityId: id,
      details: { before: accessView(change.before), after: accessView(change.after), ...extra },
    });
    const role =
      change.after.roleId === null
        ? undefined
        : await findRoleById(fastify.db, change.after.roleId);
    return { user: toPublicUser(change.after, null, role?.displayName ?? null) };
  }

  fastify.get('/admin/users', async (request) => {
    const { status } = parseInput(userListQuerySchema, request.query);
    // The administrator edits a user's own permissions, so the list shows those, not merged with a role.
    const rows = await listUsers(fastify.db, status);
    return { users: rows.map(({ roleName, ...row }) => toPublicUser(row, null, roleName)) };
  });

  fastify.post('/admin/users/:id/approve', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const body = parseInput(approveUserSchema, request.body);
    const { defaultRoleId } = await fastify.settings.get();
    return changed(
      request,
      'user.approve',
      id,
      await approveUser(fastify.db, id, {
        roleId: body?.roleId,
        configuredDefaultRoleId: defaultRoleId,
      }),
    );
  });

  fastify.post('/admin/users/:id/suspend', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    expectNoBody(request.body);
    const change = await suspendUser(fastify.db, actorId(request), id);
    // Suspension takes effect at once: every session of the user ends now (and the
    // authentication hook refuses a suspended account on any request that races this).
    const endedSessions = await fastify.sessionService.endSessionsForUser(id);
    return changed(request, 'user.suspend', id, change, { endedSessions });
  });

  fastify.patch('/admin/users/:id', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const patch = parseInput(adminUserPatchSchema, request.body, permissionAwareCode);
    return changed(request, 'user.role_change', id, await patchUser(fastify.db, id, patch));
  });

  fastify.get('/admin/users/:id/permissions', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const user = await findUserById(fastify.db, id);
    if (user === undefined) throw new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
    const role = user.roleId === null ? undefined : await findRoleById(fastify.db, user.roleId);
    return {
      role: user.role,
      assignedRole: role ? { id: role.id, name: role.name, displayName: role.displayName } : null,
      modules: explainPermissions(
        user.role,
        role ? parsePermissions(role.permissions) : {},
        parsePermissions(user.permissions),
      ),
    };
  });

  fastify.get('/admin/users/:id/documents', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const documents = await listUserDocuments(fastify.db, id);
    if (documents === undefined) throw new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
    return { documents };
  });
}
