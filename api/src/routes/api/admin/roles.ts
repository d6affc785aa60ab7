// Roles CRUD: GET/POST /api/admin/roles, PATCH /api/admin/roles/:id,
// DELETE /api/admin/roles/:id?reassignTo=<role id> (spec §3, §5; issue 11). An unknown
// permission module or flag is 400 PERMISSION_UNKNOWN. Every change is audited.
import type { FastifyInstance } from 'fastify';
import {
  idParamSchema,
  roleCreateSchema,
  roleDeleteQuerySchema,
  roleUpdateSchema,
} from '@rescuelog/sync-protocol/accounts/roles';
import { parseInput, permissionAwareCode } from '../../../lib/api-error';
import { toJsonValue } from '../../../lib/json-value';
import { expectNoBody } from '../../../lib/no-body';
import { createRole, deleteRole, listRoles, updateRole } from '../../../services/roles-service';
import { approvalRoleId } from '../../../services/users-admin-service';

export async function adminRoleRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/admin/roles', async () => ({
    roles: await listRoles(fastify.db),
    // What the approve dialog preselects and names (decision 059).
    approvalRoleId: await approvalRoleId(fastify.db, (await fastify.settings.get()).defaultRoleId),
  }));

  fastify.post('/admin/roles', async (request, reply) => {
    const input = parseInput(roleCreateSchema, request.body, permissionAwareCode);
    const role = await createRole(fastify.db, input);
    await fastify.audit.record(request, {
      action: 'role.create',
      outcome: 'success',
      entityType: 'role',
      entityId: role.id,
      details: { after: toJsonValue(role) },
    });
    return reply.code(201).send({ role });
  });

  fastify.patch('/admin/roles/:id', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const input = parseInput(roleUpdateSchema, request.body, permissionAwareCode);
    const { before, after } = await updateRole(fastify.db, id, input);
    await fastify.audit.record(request, {
      action: 'role.update',
      outcome: 'success',
      entityType: 'role',
      entityId: id,
      details: { before: toJsonValue(before), after: toJsonValue(after) },
    });
    return { role: after };
  });

  fastify.delete('/admin/roles/:id', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const { reassignTo } = parseInput(roleDeleteQuerySchema, request.query);
    expectNoBody(request.body);
    // Read now, not from the cache: the default may have changed on another instance.
    const { defaultRoleId } = (await fastify.settings.read()).settings;
    const deletion = await deleteRole(fastify.db, id, { reassignTo, defaultRoleId });
    await fastify.audit.record(request, {
      action: 'role.delete',
      outcome: 'success',
      entityType: 'role',
      entityId: id,
      details: {
        before: toJsonValue(deletion.role),
        reassignedTo: deletion.reassignedTo?.id ?? null,
        reassignedUserIds: deletion.reassignedUserIds,
      },
    });
    return {
      message: 'Role deleted',
      role: deletion.role,
      reassigned: deletion.reassignedUserIds.length,
    };
  });
}
