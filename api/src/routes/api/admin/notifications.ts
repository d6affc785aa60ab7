// Notifications administration (spec §2 /admin/notifications, §5; docs/decisions/028):
//   GET  /api/admin/notifications                    newest first, each with delivery figures
//   GET  /api/admin/notifications/:id                one, with its failed deliveries
//   POST /api/admin/notifications                    send now (in the inboxes before it answers,
//                                                    pushes follow), or schedule (scheduledFor)
//   POST /api/admin/notifications/:id/cancel         a pending or scheduled one (else 409)
//   POST /api/admin/notifications/:id/resend-failed  queue the failed deliveries again
// Every action, and every look at who failed to receive one, is audited.
import type { FastifyInstance } from 'fastify';
import { idParamSchema } from '@rescuelog/sync-protocol/accounts/roles';
import { notificationCreateSchema } from '@rescuelog/sync-protocol/notifications';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import { expectNoBody } from '../../../lib/no-body';
import {
  adminNotificationDetail,
  cancelNotification,
  createNotification,
  listAdminNotifications,
  resendFailed,
} from '../../../services/notifications-service';

export async function adminNotificationRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/admin/notifications', async () => ({
    notifications: await listAdminNotifications(fastify.db),
  }));

  fastify.get('/admin/notifications/:id', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    const detail = await adminNotificationDetail(fastify.db, id);
    await fastify.audit.record(request, {
      action: 'notification.view',
      outcome: 'success',
      entityType: 'notification',
      entityId: id,
      details: { failures: detail.failures.length },
    });
    return detail;
  });

  fastify.post('/admin/notifications', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    const input = parseInput(notificationCreateSchema, request.body);
    const created = await createNotification(fastify.db, request.user.id, input);
    await fastify.audit.record(request, {
      action: created.status === 'scheduled' ? 'notification.schedule' : 'notification.send',
      outcome: 'success',
      entityType: 'notification',
      entityId: created.id,
      details: {
        title: created.title,
        priority: created.priority,
        status: created.status,
        scheduledFor: created.scheduledFor,
        targetUserIds: created.targetUserIds,
        targetRoles: created.targetRoles,
      },
    });
    if (created.status !== 'pending') return reply.code(201).send({ notification: created });
    // Send now: in the inboxes before this answer; the pushes follow.
    await fastify.push.dispatcher.fanOutNow(created.id);
    const { notification } = await adminNotificationDetail(fastify.db, created.id);
    return reply.code(201).send({ notification });
  });

  fastify.post('/admin/notifications/:id/cancel', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    expectNoBody(request.body);
    const notification = await cancelNotification(fastify.db, id);
    await fastify.audit.record(request, {
      action: 'notification.cancel',
      outcome: 'success',
      entityType: 'notification',
      entityId: id,
      details: { title: notification.title },
    });
    return { notification };
  });

  fastify.post('/admin/notifications/:id/resend-failed', async (request) => {
    const { id } = parseInput(idParamSchema, request.params);
    expectNoBody(request.body);
    const requeued = await resendFailed(fastify.db, id);
    await fastify.audit.record(request, {
      action: 'notification.resend_failed',
      outcome: 'success',
      entityType: 'notification',
      entityId: id,
      details: { requeued },
    });
    if (requeued > 0) fastify.push.dispatcher.kick();
    return { requeued };
  });
}
