// The current user's notifications (spec §7): unread count, unread and read lists (newest
// first, at most 100), and mark-all-read (the dialog calls it when it closes).
import type { FastifyInstance } from 'fastify';
import { unauthenticated } from '../../../lib/api-error';
import { expectNoBody } from '../../../lib/no-body';
import { inbox, markAllRead, unreadCount } from '../../../services/notifications-service';

export async function userNotificationRoutes(fastify: FastifyInstance): Promise<void> {
  const userId = (request: { user: { id: number } | null }) => {
    if (!request.user) throw unauthenticated();
    return request.user.id;
  };

  fastify.get('/user/notifications/unread-count', async (request) => ({
    count: await unreadCount(fastify.db, userId(request)),
  }));
  fastify.get('/user/notifications/unread', async (request) =>
    inbox(fastify.db, userId(request), 'unread'),
  );
  fastify.get('/user/notifications/read', async (request) =>
    inbox(fastify.db, userId(request), 'read'),
  );
  fastify.post('/user/notifications/mark-all-read', async (request) => {
    expectNoBody(request.body);
    return { updated: await markAllRead(fastify.db, userId(request)) };
  });
}
