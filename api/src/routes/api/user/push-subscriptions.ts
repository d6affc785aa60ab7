// The signed-in user's devices for web push (spec §3, §5; docs/decisions/028):
//   GET    /api/push/vapid-public-key             the key to subscribe with
//   GET    /api/user/push-subscriptions           this user's devices
//   POST   /api/user/push-subscriptions           register this device (upsert by endpoint)
//   DELETE /api/user/push-subscriptions           forget a device of this user ({endpoint})
//   POST   /api/user/push-subscriptions/test      a test push to this user's devices
// The user is always the signed-in one: a body naming a user is refused by the schema.
import type { FastifyInstance } from 'fastify';
import {
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '@rescuelog/sync-protocol/notifications';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import { expectNoBody } from '../../../lib/no-body';
import {
  listUserSubscriptions,
  registerSubscription,
  removeSubscription,
  sendTestPush,
} from '../../../services/push-subscriptions-service';

export async function pushSubscriptionRoutes(fastify: FastifyInstance): Promise<void> {
  const userId = (request: { user: { id: number } | null }) => {
    if (!request.user) throw unauthenticated();
    return request.user.id;
  };

  fastify.get('/push/vapid-public-key', async () => ({ publicKey: fastify.push.publicKey }));

  fastify.get('/user/push-subscriptions', async (request) => ({
    subscriptions: await listUserSubscriptions(fastify.db, userId(request)),
  }));

  fastify.post('/user/push-subscriptions', async (request, reply) => {
    const me = userId(request);
    const input = parseInput(pushSubscriptionSchema, request.body);
    const { subscription, movedFromUserId } = await registerSubscription(
      fastify.db,
      me,
      input,
      fastify.push.policy,
      request.headers['user-agent'],
    );
    await fastify.audit.record(request, {
      action: 'push_subscription.register',
      outcome: 'success',
      entityType: 'push_subscription',
      entityId: subscription.id,
      details: { movedFromUserId, origin: new URL(subscription.endpoint).origin },
    });
    return reply.code(201).send({ subscription });
  });

  fastify.delete('/user/push-subscriptions', async (request, reply) => {
    const me = userId(request);
    const { endpoint } = parseInput(pushUnsubscribeSchema, request.body);
    const removed = await removeSubscription(fastify.db, me, endpoint);
    if (removed > 0)
      await fastify.audit.record(request, {
        action: 'push_subscription.remove',
        outcome: 'success',
        entityType: 'push_subscription',
        details: { removed },
      });
    return reply.code(204).send();
  });

  fastify.post('/user/push-subscriptions/test', async (request) => {
    const me = userId(request);
    expectNoBody(request.body);
    await fastify.rateLimiter.consume('pushTestPerUser', String(me));
    return { devices: await sendTestPush(fastify.db, fastify.push.sender, me) };
  });
}
