// The notification job with several API instances (docs/decisions/028): two apps on one
// database (PostgreSQL with DATABASE_URL, else one shared PGlite) race for the same scheduled
// notification, and an instance that dies after claiming work leaves nothing unsent. Checked
// at the stand-in push service: exactly one push per device, and every device reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminNotification } from '@rescuelog/sync-protocol/notifications';
import { generateVapidKeys } from '@rescuelog/sync-protocol/server/vapid-keys';
import {
  claimDueNotification,
  claimPushes,
  fanOut,
} from '../src/repositories/notification-queue-repository';
import { startPushService, type StandInDevice, type StandInPushService } from './push-service';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

const DEVICES = 60;

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('two API instances, one database', () => {
  let a: TestApp;
  let b: TestApp;
  let push: StandInPushService;
  let adminClient: TestClient;
  const devices: StandInDevice[] = [];
  const userIds: number[] = [];

  beforeAll(async () => {
    push = await startPushService();
    // One deployment: the instances share the VAPID key, as the environment makes them.
    const keys = generateVapidKeys();
    const env = {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@rescue.example.org',
    };
    const job = { pollMs: 20, batchSize: 8, concurrency: 4, leaseSeconds: 2 };
    // Every crew member signs in from 127.0.0.1.
    const rateLimits = { loginPerIp: { max: 10_000, windowSeconds: 60 } };
    a = await build({ env, rateLimits, pushTesting: true, notificationJob: job });
    b = await build({
      env,
      rateLimits,
      pushTesting: true,
      notificationJob: job,
      database: { db: a.db, close: async () => {} },
    });
    const admin = await a.createUser({ role: 'administrator' });
    adminClient = await loginAs(a, admin);
    for (let i = 0; i < DEVICES; i += 1) {
      const user = await a.createUser({ fullName: `Crew ${String(i)}` });
      const client = await loginAs(i % 2 === 0 ? a : b, user);
      const device = await push.subscribe(keys.publicKey);
      const res = await client.post('/api/user/push-subscriptions', {
        endpoint: device.endpoint,
        p256dh: device.p256dh,
        auth: device.auth,
      });
      expect(res.status).toBe(201);
      devices.push(device);
      userIds.push(user.row.id);
    }
  }, 120_000);
  afterAll(async () => {
    await b.close();
    await a.close();
    await push.close();
  });

  const status = async (id: number) =>
    (
      await a.db
        .selectFrom('notifications')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  it('both race for one scheduled notification: exactly one push per device', async () => {
    const res = await adminClient.post('/api/admin/notifications', {
      title: 'Shift change',
      message: 'Handover at 19:00',
      targetUserIds: userIds,
      scheduledFor: new Date(Date.now() + 800).toISOString(),
    });
    expect(res.status).toBe(201);
    const { notification } = (await res.json()) as { notification: AdminNotification };
    await waitFor(
      'the notification to be sent',
      async () => (await status(notification.id)) === 'sent',
    );
    for (const device of devices) {
      expect(push.messages(device.id), device.id).toHaveLength(1);
      expect(push.requests(device.id), device.id).toHaveLength(1);
    }
    const deliveries = await a.db
      .selectFrom('notificationDeliveries')
      .select(['userId', 'status'])
      .where('notificationId', '=', notification.id)
      .execute();
    expect(deliveries).toHaveLength(DEVICES);
    expect(deliveries.every((d) => d.status === 'sent')).toBe(true);
    const pushes = await a.db
      .selectFrom('notificationPushes')
      .select(['state', 'attempts'])
      .where('notificationId', '=', notification.id)
      .execute();
    expect(pushes).toHaveLength(DEVICES);
    expect(pushes.every((p) => p.state === 'sent' && p.attempts === 1)).toBe(true);
    // Between them the two instances made exactly one push per device.
    const sent = [a, b].map((x) => x.app.push.dispatcher.stats.pushesAttempted);
    expect((sent[0] ?? 0) + (sent[1] ?? 0)).toBe(DEVICES);
  });

  it('an instance that dies after claiming leaves nothing unsent: its leases run out and the other sends', async () => {
    await a.app.push.dispatcher.stop();
    await b.app.push.dispatcher.stop();
    const res = await adminClient.post('/api/admin/notifications', {
      title: 'After the crash',
      message: 'Still arrives',
      targetUserIds: userIds,
    });
    const { notification } = (await res.json()) as { notification: AdminNotification };
    // With the job stopped on the instance that took the request, it waits as 'pending'.
    expect(notification.status).toBe('pending');
    // "Instance A" claims the notification and dies before fanning it out.
    expect(await claimDueNotification(a.db, 1)).toEqual({ id: notification.id });
    expect(await status(notification.id)).toBe('sending');
    // A second claim while the lease holds finds nothing to do.
    expect(await claimDueNotification(a.db, 1)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // "Instance A'" takes it over, fans it out, claims a batch of pushes, and dies too.
    expect(await claimDueNotification(a.db, 1)).toEqual({ id: notification.id });
    expect(await fanOut(a.db, notification.id)).toBe(true);
    expect(await fanOut(a.db, notification.id)).toBe(false);
    const abandoned = await claimPushes(a.db, 10, 1);
    expect(abandoned).toHaveLength(10);
    await new Promise((resolve) => setTimeout(resolve, 1100));

    b.app.push.dispatcher.start();
    await waitFor(
      'the notification to be sent',
      async () => (await status(notification.id)) === 'sent',
    );
    for (const device of devices) expect(push.messages(device.id), device.id).toHaveLength(2);
    const pushes = await a.db
      .selectFrom('notificationPushes')
      .select(['id', 'state', 'attempts'])
      .where('notificationId', '=', notification.id)
      .execute();
    expect(pushes.every((p) => p.state === 'sent')).toBe(true);
    const retaken = new Set(abandoned.map((j) => j.id));
    // The abandoned claims count as attempts; the rest went out on the first.
    for (const p of pushes) expect(p.attempts).toBe(retaken.has(p.id) ? 2 : 1);
    a.app.push.dispatcher.start();
  });
});
