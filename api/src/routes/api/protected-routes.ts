// Everything under /api that needs a session. Register a new route module here; it inherits
// the hooks (signed in + approved) by living here. See routes/README.md.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { protectedHooks } from './hooks';
import { currentUserRoutes } from './current-user';
import { adminRoutes } from './admin/admin-routes';
import { caseRoutes } from './cases';
import { caseRecordRoutes } from './case-record';
import { caseExportRoutes } from './case-export';
import { incidentReportRoutes } from './incident-reports';
import { objectRoutes } from './objects/objects-routes';
import { settingsRoutes } from './settings';
import { statsRoutes } from './stats';
import { syncRoutes } from './sync/sync-routes';
import { userDocumentRoutes } from './user/documents';
import { userNotificationRoutes } from './user/notifications';
import { userProfileRoutes } from './user/profile';
import { pushSubscriptionRoutes } from './user/push-subscriptions';

export async function protectedRoutes(
  fastify: FastifyInstance,
  options: { extra?: FastifyPluginAsync | undefined },
): Promise<void> {
  await fastify.register(protectedHooks);
  await fastify.register(currentUserRoutes);
  await fastify.register(userDocumentRoutes);
  await fastify.register(userNotificationRoutes);
  await fastify.register(userProfileRoutes);
  await fastify.register(pushSubscriptionRoutes);
  await fastify.register(objectRoutes);
  await fastify.register(settingsRoutes);
  await fastify.register(statsRoutes);
  await fastify.register(caseRoutes);
  await fastify.register(caseRecordRoutes);
  await fastify.register(caseExportRoutes);
  await fastify.register(incidentReportRoutes);
  await fastify.register(syncRoutes);
  await fastify.register(adminRoutes);

  // Test-only routes (AppOptions.extraProtectedRoutes), protected like the ones above.
  if (options.extra) await fastify.register(options.extra);
}
