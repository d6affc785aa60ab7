// Everything under /api/admin: administrators only, enforced here by location (an onRequest
// hook, so a non-administrator is refused before any body is read, and the denial audited).
import type { FastifyInstance } from 'fastify';
import { adminConflictRoutes } from './conflicts';
import { adminNotificationRoutes } from './notifications';
import { adminRoleRoutes } from './roles';
import { adminSettingsRoutes } from './settings';
import { adminUserRoutes } from './users';

export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', async function requireAdministrator(request, reply) {
    await fastify.requireAdmin.call(fastify, request, reply);
  });
  await fastify.register(adminUserRoutes);
  await fastify.register(adminRoleRoutes);
  await fastify.register(adminNotificationRoutes);
  await fastify.register(adminConflictRoutes);
  await fastify.register(adminSettingsRoutes);
}
