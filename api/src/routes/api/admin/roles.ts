// Roles CRUD: GET/POST /api/admin/roles, PATCH/DELETE /api/admin/roles/:id (spec §3, §5).
import type { FastifyInstance } from 'fastify';
import { idParamSchema, roleCreateSchema, roleUpdateSchema } from '@rescuelog/sync-protocol/roles';
import { parseInput } from '../../../lib/api-error';
import { toJsonValue } from '../../../lib/json-value';
import { expectNoBody } from '../../../lib/no-body';
import { createRole, deleteRole, listRoles, updateRole } from '../../../services/roles-service';

export async function adminRoleRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/admin/roles', async () => ({ roles: await listRoles(fastify.db) }));

  fastify.post('/admin/roles', async (request, reply) => {
    const input = parseInput(roleCreateSchema, request.body);
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
    const input = parseInput(roleUpdateSchema, request.body);
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
    expectNoBody(request.body);
    const role = await deleteRole(fastify.db, id);
    await fastify.audit.record(request, {
      action: 'role.delete',
      outcome: 'success',
      entityType: 'role',
      entityId: id,
      details: { before: toJsonValue(role) },
    });
    return { message: 'Role deleted', role };
  });
}
