// Sending notifications: POST /api/admin/notifications (spec §5 notification validation) and
// GET /api/admin/notifications (what was sent, with recipient and read counts).
import type { FastifyInstance } from 'fastify';
import { notificationCreateSchema } from '@rescuelog/sync-protocol/notifications';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import { listSentNotifications, sendNotification } from '../../../services/notifications-service';

export async function adminNotificationRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/admin/notifications', async () => ({
    notifications: await listSentNotifications(fastify.db),
  }));

  fastify.post('/admin/notifications', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    const input = parseInput(notificationCreateSchema, request.body);
    const notification = await sendNotification(fastify.db, request.user.id, input);
    await fastify.audit.record(request, {
      action: 'notification.send',
      outcome: 'success',
      entityType: 'notification',
      entityId: notification.id,
      details: {
        title: notification.title,
        status: notification.status,
        recipientCount: notification.recipientCount,
      },
    });
    return reply.code(201).send({ notification });
  });
}
