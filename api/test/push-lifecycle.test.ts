// Web push end to end (issue 16, docs/decisions/028): the real app and database, a real push
// service stand-in (push-service.ts: web-push-testing's model verifies the VAPID signature and
// decrypts every aes128gcm body with the device's private key). Each transition of the
// lifecycle is checked where a user or an administrator would notice it:
//   notification pending -> sending -> sent; scheduled -> ... ; cancelled
//   delivery pending -> sent -> delivered -> clicked / read; failed (410, retries used up);
//   failed -> pending -> sent (resend-failed)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminNotificationDetailSchema,
  adminNotificationListSchema,
  adminNotificationResponseSchema,
  pushPayloadSchema,
  pushSubscriptionListSchema,
  pushSubscriptionResponseSchema,
  pushTestResponseSchema,
  resendFailedResponseSchema,
  vapidPublicKeySchema,
  type AdminNotification,
  type AdminNotificationDetail,
  type PushPayload,
} from '@rescuelog/sync-protocol/notifications';
import { startPushService, type StandInDevice, type StandInPushService } from './push-service';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

const RETRY_DELAYS = [150, 300, 450];

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('web push lifecycle', () => {
  let t: TestApp;
  let push: StandInPushService;
  let vapidKey: string;
  let admin: TestUser;
  let adminClient: TestClient;

  beforeAll(async () => {
    push = await startPushService();
    t = await build({
      pushTesting: true,
      notificationJob: { pollMs: 40, retryDelaysMs: RETRY_DELAYS, leaseSeconds: 5 },
    });
    admin = await t.createUser({ role: 'administrator', fullName: 'Station Chief' });
    adminClient = await loginAs(t, admin);
    const res = await adminClient.get('/api/push/vapid-public-key');
    expect(res.status).toBe(200);
    vapidKey = vapidPublicKeySchema.parse(await res.json()).publicKey;
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  async function member(fullName: string) {
    const user = await t.createUser({ fullName });
    return { user, client: await loginAs(t, user) };
  }

  async function subscribe(client: TestClient): Promise<StandInDevice> {
    const device = await push.subscribe(vapidKey);
    const res = await client.post('/api/user/push-subscriptions', {
      endpoint: device.endpoint,
      p256dh: device.p256dh,
      auth: device.auth,
      userAgent: 'Test tablet',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(pushSubscriptionResponseSchema.parse(await res.json()).subscription).toMatchObject({
      endpoint: device.endpoint,
      userAgent: 'Test tablet',
    });
    return device;
  }

  async function create(body: Record<string, unknown>): Promise<AdminNotification> {
    const res = await adminClient.post('/api/admin/notifications', body);
    expect(res.status, await res.clone().text()).toBe(201);
    return adminNotificationResponseSchema.parse(await res.json()).notification;
  }

  // Every answer is read through the contract's schemas, as the web app reads it.
  async function detail(id: number): Promise<AdminNotificationDetail> {
    const res = await adminClient.get(`/api/admin/notifications/${String(id)}`);
    expect(res.status).toBe(200);
    const body = adminNotificationDetailSchema.parse(await res.json());
    const listed = adminNotificationListSchema.parse(
      await (await adminClient.get('/api/admin/notifications')).json(),
    );
    expect(listed.notifications.find((n) => n.id === id)).toBeDefined();
    return body;
  }

  const untilSent = (id: number) =>
    waitFor(
      'the notification to be sent',
      () => detail(id),
      (d) => d.notification.status === 'sent',
    );

  function payloads(device: StandInDevice): PushPayload[] {
    return push.messages(device.id).map((text) => pushPayloadSchema.parse(JSON.parse(text)));
  }

  async function delivery(notificationId: number, userId: number) {
    return t.db
      .selectFrom('notificationDeliveries')
      .selectAll()
      .where('notificationId', '=', notificationId)
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
  }

  const receipt = (body: unknown) => t.client().post('/api/notifications/receipts', body);

  it('keeps the VAPID key in the data folder, readable only by the server', async () => {
    const file = path.join(t.dataDir, 'vapid-keys.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as { publicKey: string };
    expect(stored.publicKey).toBe(vapidKey);
    expect((await t.client().get('/api/push/vapid-public-key')).status).toBe(401);
  });

  it('sends now: every device gets one encrypted push; inbox fetch, receipts and read move the deliveries', async () => {
    const alice = await member('Alice Medic');
    const bob = await member('Bob Rescue');
    const carol = await member('Carol NoDevice');
    const aliceTablet = await subscribe(alice.client);
    const alicePhone = await subscribe(alice.client);
    const bobPhone = await subscribe(bob.client);

    const created = await create({
      title: 'MCI declared',
      message: 'All crews report to the N2 staging area',
      type: 'emergency',
      priority: 'critical',
      url: 'https://rescue.example.org/multi-patient',
      targetUserIds: [alice.user.row.id, bob.user.row.id, carol.user.row.id],
    });
    // In the inboxes before the answer (pending -> sending at once); the pushes follow.
    expect(['sending', 'sent']).toContain(created.status);
    expect(created.figures.recipients).toBe(3);
    const sent = await untilSent(created.id);
    expect(sent.notification.sentAt).not.toBeNull();
    expect(sent.notification.figures).toMatchObject({ recipients: 3, pushed: 2, failed: 0 });

    for (const device of [aliceTablet, alicePhone, bobPhone]) {
      const [payload, ...more] = payloads(device);
      expect(more).toEqual([]);
      expect(payload).toMatchObject({
        v: 1,
        notificationId: created.id,
        title: 'MCI declared',
        message: 'All crews report to the N2 staging area',
        type: 'emergency',
        priority: 'critical',
        url: 'https://rescue.example.org/multi-patient',
      });
      expect(payload?.icon).toBeTruthy();
      const [request] = push.requests(device.id);
      expect(request).toMatchObject({
        status: 201,
        encoding: 'aes128gcm',
        urgency: 'high',
        ttl: String(24 * 3600),
        topic: `rescuelog-n${String(created.id)}`,
      });
    }

    // Pushed to both of Alice's devices and Bob's; Carol has the inbox entry only.
    expect((await delivery(created.id, alice.user.row.id)).status).toBe('sent');
    expect((await delivery(created.id, bob.user.row.id)).status).toBe('sent');
    const carolsDelivery = await delivery(created.id, carol.user.row.id);
    expect(carolsDelivery).toMatchObject({ status: 'pending', pushedAt: null });

    // The worker on Alice's tablet reports it shown, then opened.
    const aliceReceipt = payloads(aliceTablet)[0]?.receipt ?? '';
    expect((await receipt({ receipt: aliceReceipt, event: 'delivered' })).status).toBe(204);
    expect((await delivery(created.id, alice.user.row.id)).status).toBe('delivered');
    expect((await receipt({ receipt: aliceReceipt, event: 'clicked' })).status).toBe(204);
    const aliceClicked = await delivery(created.id, alice.user.row.id);
    expect(aliceClicked.status).toBe('clicked');
    expect(aliceClicked.clickedAt).not.toBeNull();
    // Reported again (the other device): nothing moves back.
    expect((await receipt({ receipt: aliceReceipt, event: 'delivered' })).status).toBe(204);
    expect((await delivery(created.id, alice.user.row.id)).status).toBe('clicked');

    // Bob's and Carol's apps fetch their lists: that counts as delivered.
    await bob.client.get('/api/user/notifications/unread');
    expect((await delivery(created.id, bob.user.row.id)).status).toBe('delivered');
    await carol.client.get('/api/user/notifications/unread');
    expect((await delivery(created.id, carol.user.row.id)).status).toBe('delivered');
    // Carol closes the dialog: read.
    await carol.client.post('/api/user/notifications/mark-all-read');
    const carolRead = await delivery(created.id, carol.user.row.id);
    expect(carolRead.status).toBe('read');
    expect(carolRead.readAt).not.toBeNull();

    expect((await detail(created.id)).notification.figures).toEqual({
      recipients: 3,
      pushed: 2,
      delivered: 3,
      clicked: 1,
      read: 1,
      failed: 0,
    });
  });

  it('refuses a forged or malformed receipt with a code and changes nothing', async () => {
    const dan = await member('Dan Driver');
    const phone = await subscribe(dan.client);
    const n = await create({
      title: 'Receipt check',
      message: 'm',
      targetUserIds: [dan.user.row.id],
    });
    await untilSent(n.id);
    const real = payloads(phone)[0]?.receipt ?? '';
    const before = await delivery(n.id, dan.user.row.id);
    expect(before.status).toBe('sent');

    // Another delivery's id under this one's signature, and a signature changed by one character.
    const [, id, signature = ''] = real.split('.');
    const forged = [
      `r1.${String(Number(id) + 1)}.${signature}`,
      `r1.${String(id)}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const value of forged) {
      const res = await receipt({ receipt: value, event: 'clicked' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
    }
    for (const body of [
      { receipt: 'not-a-receipt', event: 'clicked' },
      { receipt: real, event: 'read' },
      { receipt: real },
      { receipt: real, event: 'clicked', deliveryId: 1 },
    ]) {
      const res = await receipt(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    // Signed by this server, but for a delivery that does not exist.
    const stale = await receipt({
      receipt: t.app.push.receipts.sign(2_000_000_000),
      event: 'delivered',
    });
    expect(stale.status).toBe(404);
    expect(await delivery(n.id, dan.user.row.id)).toEqual(before);
  });

  it('a 410 or 404 removes the subscription; a user whose only device is gone is failed, with the reason', async () => {
    const erin = await member('Erin Gone');
    const frank = await member('Frank TwoDevices');
    const erinPhone = await subscribe(erin.client);
    const frankOld = await subscribe(frank.client);
    const frankNew = await subscribe(frank.client);
    push.expire(erinPhone.id);
    push.forget(frankOld.id);

    const n = await create({
      title: 'Roster',
      message: 'New roster is out',
      priority: 'low',
      targetUserIds: [erin.user.row.id, frank.user.row.id],
    });
    const done = await untilSent(n.id);
    expect(push.requests(erinPhone.id).map((r) => r.status)).toEqual([410]);
    expect(push.requests(frankOld.id).map((r) => r.status)).toEqual([404]);
    expect(push.requests(frankNew.id)[0]).toMatchObject({
      urgency: 'low',
      ttl: String(7 * 24 * 3600),
    });

    // Erin's only device is gone: failed. Frank's other device took it: sent.
    const erinDelivery = await delivery(n.id, erin.user.row.id);
    expect(erinDelivery.status).toBe('failed');
    expect(erinDelivery.errorMessage).toMatch(/410/);
    expect((await delivery(n.id, frank.user.row.id)).status).toBe('sent');
    const endpoints = await t.db.selectFrom('pushSubscriptions').select('endpoint').execute();
    expect(endpoints.map((e) => e.endpoint)).not.toContain(erinPhone.endpoint);
    expect(endpoints.map((e) => e.endpoint)).not.toContain(frankOld.endpoint);
    expect(endpoints.map((e) => e.endpoint)).toContain(frankNew.endpoint);
    const list = pushSubscriptionListSchema.parse(
      await (await erin.client.get('/api/user/push-subscriptions')).json(),
    );
    expect(list.subscriptions).toEqual([]);

    expect(done.notification.figures).toMatchObject({ recipients: 2, pushed: 1, failed: 1 });
    expect(done.failures).toEqual([
      expect.objectContaining({
        userId: erin.user.row.id,
        fullName: 'Erin Gone',
        email: erin.user.email,
        errorMessage: expect.stringMatching(/410/),
      }),
    ]);
  });

  it('retries a failing push service with growing waits, honours Retry-After, then succeeds', async () => {
    const gina = await member('Gina Retry');
    const phone = await subscribe(gina.client);
    push.failNext(phone.id, 503, 2);
    const n = await create({ title: 'Retry me', message: 'm', targetUserIds: [gina.user.row.id] });
    await untilSent(n.id);
    const requests = push.requests(phone.id);
    expect(requests.map((r) => r.status)).toEqual([503, 503, 201]);
    const [first, second, third] = requests.map((r) => r.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(RETRY_DELAYS[0] ?? 0);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(RETRY_DELAYS[1] ?? 0);
    expect(payloads(phone)).toHaveLength(1);
    expect((await delivery(n.id, gina.user.row.id)).status).toBe('sent');

    // A 429 with Retry-After: 1 waits a second, longer than the planned 150 ms.
    const hank = await member('Hank Throttled');
    const hanksPhone = await subscribe(hank.client);
    push.failNext(hanksPhone.id, 429, 1, 1);
    const throttled = await create({
      title: 'Slow down',
      message: 'm',
      targetUserIds: [hank.user.row.id],
    });
    await untilSent(throttled.id);
    const [a, b] = push.requests(hanksPhone.id).map((r) => r.at);
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('records a delivery failed when the retries run out; resend-failed sends it again', async () => {
    const ivan = await member('Ivan Unlucky');
    const phone = await subscribe(ivan.client);
    push.failNext(phone.id, 500, 100);
    const n = await create({ title: 'Will fail', message: 'm', targetUserIds: [ivan.user.row.id] });
    const failed = await untilSent(n.id);
    // 1 + one attempt per retry delay.
    expect(push.requests(phone.id)).toHaveLength(RETRY_DELAYS.length + 1);
    expect(failed.notification.figures).toMatchObject({ recipients: 1, pushed: 0, failed: 1 });
    expect(failed.failures[0]?.errorMessage).toBe(
      `Push service answered 500: scripted failure (after ${String(RETRY_DELAYS.length + 1)} attempts)`,
    );

    push.failNext(phone.id, 500, 0);
    const res = await adminClient.post(`/api/admin/notifications/${String(n.id)}/resend-failed`);
    expect(res.status).toBe(200);
    expect(resendFailedResponseSchema.parse(await res.json())).toEqual({ requeued: 1 });
    const again = await waitFor(
      'the resent push',
      () => detail(n.id),
      (d) => d.notification.status === 'sent' && d.notification.figures.pushed === 1,
    );
    expect(again.failures).toEqual([]);
    expect(payloads(phone)).toHaveLength(1);
    expect(await delivery(n.id, ivan.user.row.id)).toMatchObject({
      status: 'sent',
      errorMessage: null,
    });

    // Nothing failed now: nothing to requeue.
    const none = await adminClient.post(`/api/admin/notifications/${String(n.id)}/resend-failed`);
    expect(await none.json()).toEqual({ requeued: 0 });
    const audit = await t.db
      .selectFrom('auditLog')
      .select('action')
      .where('entityType', '=', 'notification')
      .where('entityId', '=', String(n.id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'notification.send',
        'notification.resend_failed',
        'notification.view',
      ]),
    );
  });

  it('cancels a scheduled notification, which then never goes out; refuses to cancel a sent one', async () => {
    const judy = await member('Judy Scheduled');
    const phone = await subscribe(judy.client);
    const n = await create({
      title: 'Tomorrow',
      message: 'Drill',
      targetUserIds: [judy.user.row.id],
      scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(n.status).toBe('scheduled');
    const cancel = await adminClient.post(`/api/admin/notifications/${String(n.id)}/cancel`);
    expect(cancel.status).toBe(200);
    expect(((await cancel.json()) as { notification: AdminNotification }).notification.status).toBe(
      'cancelled',
    );
    // Even once its time has passed, the job leaves it alone.
    await t.db
      .updateTable('notifications')
      .set({ scheduledFor: new Date(Date.now() - 1000) })
      .where('id', '=', n.id)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.push.dispatcher.idle();
    expect((await detail(n.id)).notification).toMatchObject({ status: 'cancelled', sentAt: null });
    expect(push.requests(phone.id)).toEqual([]);
    expect(await (await judy.client.get('/api/user/notifications/unread-count')).json()).toEqual({
      count: 0,
    });

    const again = await adminClient.post(`/api/admin/notifications/${String(n.id)}/cancel`);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: 'CONFLICT',
      error: expect.stringMatching(/scheduled or pending/),
    });
    const resend = await adminClient.post(`/api/admin/notifications/${String(n.id)}/resend-failed`);
    expect(resend.status).toBe(409);

    const sent = await create({ title: 'Now', message: 'm', targetUserIds: [judy.user.row.id] });
    await untilSent(sent.id);
    const late = await adminClient.post(`/api/admin/notifications/${String(sent.id)}/cancel`);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { code: string }).code).toBe('CONFLICT');
    expect((await adminClient.post('/api/admin/notifications/99999999/cancel')).status).toBe(404);
    expect((await adminClient.get('/api/admin/notifications/99999999')).status).toBe(404);
    const audit = await t.db
      .selectFrom('auditLog')
      .select('action')
      .where('entityType', '=', 'notification')
      .where('entityId', '=', String(n.id))
      .where('action', 'in', ['notification.schedule', 'notification.cancel'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['notification.schedule', 'notification.cancel']);
  });

  it('sends a scheduled notification when its time comes: scheduled -> sending -> sent', async () => {
    const kim = await member('Kim Later');
    const phone = await subscribe(kim.client);
    const n = await create({
      title: 'In a moment',
      message: 'Scheduled',
      targetUserIds: [kim.user.row.id],
      scheduledFor: new Date(Date.now() + 1500).toISOString(),
    });
    expect(n.status).toBe('scheduled');
    expect((await detail(n.id)).notification.status).toBe('scheduled');
    const sent = await untilSent(n.id);
    expect(Date.parse(sent.notification.sentAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(n.scheduledFor ?? ''),
    );
    expect(payloads(phone).map((p) => p.title)).toEqual(['In a moment']);
  });

  it('keeps the encrypted push under 4 KB when title, message, URL and sound are long', async () => {
    const lee = await member('Lee Long');
    const phone = await subscribe(lee.client);
    const longUrl = `https://rescue.example.org/${'a'.repeat(2000)}`;
    // Control characters: each is six bytes in JSON, the most any character can take.
    const title = '\u0001'.repeat(100);
    const message = '\u0001'.repeat(500);
    const n = await create({
      title,
      message,
      url: longUrl,
      sound: '\u0001'.repeat(200),
      targetUserIds: [lee.user.row.id],
    });
    await untilSent(n.id);
    const [request] = push.requests(phone.id);
    expect(request?.status).toBe(201);
    expect(request?.bytes).toBeLessThanOrEqual(4096);
    // The sound and the URL give way; the words stay whole.
    const [payload] = payloads(phone);
    expect(payload).toMatchObject({ title, message, url: null, sound: null });
    // The inbox keeps all of it.
    const [item] = (await (
      await lee.client.get('/api/user/notifications/unread')
    ).json()) as Array<{
      url: string;
      message: string;
    }>;
    expect(item).toMatchObject({ url: longUrl, message });
  });

  it("sends a test push to the signed-in user's devices only", async () => {
    const mia = await member('Mia Tester');
    const other = await member('Other Person');
    const phone = await subscribe(mia.client);
    const othersPhone = await subscribe(other.client);
    const res = await mia.client.post('/api/user/push-subscriptions/test');
    expect(res.status).toBe(200);
    expect(pushTestResponseSchema.parse(await res.json())).toEqual({ devices: 1 });
    expect(payloads(phone)).toEqual([
      expect.objectContaining({ test: true, title: 'Test notification', receipt: '' }),
    ]);
    expect(push.messages(othersPhone.id)).toEqual([]);
  });
});

describe('a shared tablet', () => {
  let t: TestApp;
  let push: StandInPushService;

  beforeAll(async () => {
    push = await startPushService();
    t = await build({ pushTesting: true, notificationJob: { pollMs: 40, leaseSeconds: 5 } });
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  it('moves its endpoint to whoever subscribes now; what was queued for the previous user never reaches the new one', async () => {
    const admin = await t.createUser({ role: 'administrator' });
    const adminClient = await loginAs(t, admin);
    const alice = await t.createUser({ fullName: 'Alice Day Shift' });
    const bob = await t.createUser({ fullName: 'Bob Night Shift' });
    const aliceClient = await loginAs(t, alice);
    const bobClient = await loginAs(t, bob);
    const key = (
      (await (await aliceClient.get('/api/push/vapid-public-key')).json()) as {
        publicKey: string;
      }
    ).publicKey;
    const tablet = await push.subscribe(key);
    const body = { endpoint: tablet.endpoint, p256dh: tablet.p256dh, auth: tablet.auth };
    expect((await aliceClient.post('/api/user/push-subscriptions', body)).status).toBe(201);

    // The job is paused while Alice's notification is queued for the tablet.
    await t.app.push.dispatcher.stop();
    const created = await adminClient.post('/api/admin/notifications', {
      title: 'For Alice only',
      message: 'Private',
      targetUserIds: [alice.row.id],
    });
    const { notification } = (await created.json()) as { notification: AdminNotification };
    const { claimDueNotification, fanOut } =
      await import('../src/repositories/notification-queue-repository');
    expect(await claimDueNotification(t.db, 5)).toEqual({ id: notification.id });
    expect(await fanOut(t.db, notification.id)).toBe(true);

    // Bob signs in on the tablet and turns notifications on.
    expect((await bobClient.post('/api/user/push-subscriptions', body)).status).toBe(201);
    const list = async (client: TestClient) =>
      (
        (await (await client.get('/api/user/push-subscriptions')).json()) as {
          subscriptions: Array<{ endpoint: string }>;
        }
      ).subscriptions.map((s) => s.endpoint);
    expect(await list(aliceClient)).toEqual([]);
    expect(await list(bobClient)).toEqual([tablet.endpoint]);

    t.app.push.dispatcher.start();
    await waitFor(
      'the queue to settle',
      async () =>
        (
          await t.db
            .selectFrom('notifications')
            .select('status')
            .where('id', '=', notification.id)
            .executeTakeFirstOrThrow()
        ).status,
      (status) => status === 'sent',
    );
    expect(push.requests(tablet.id)).toEqual([]);
    const d = await t.db
      .selectFrom('notificationDeliveries')
      .selectAll()
      .where('notificationId', '=', notification.id)
      .executeTakeFirstOrThrow();
    expect(d).toMatchObject({ userId: alice.row.id, status: 'failed' });
    // Alice still has it in her inbox.
    const inbox = (await (
      await aliceClient.get('/api/user/notifications/unread')
    ).json()) as Array<{
      title: string;
    }>;
    expect(inbox.map((i) => i.title)).toEqual(['For Alice only']);

    // Forgetting a device: only one's own.
    const del = await aliceClient.delete('/api/user/push-subscriptions', {
      endpoint: tablet.endpoint,
    });
    expect(del.status).toBe(204);
    expect(await list(bobClient)).toEqual([tablet.endpoint]);
    expect(
      (await bobClient.delete('/api/user/push-subscriptions', { endpoint: tablet.endpoint }))
        .status,
    ).toBe(204);
    expect(await list(bobClient)).toEqual([]);
  });
});
