// Notifications over real HTTP: an administrator sends (spec §5 validation, targeting by
// user, by role, or everyone approved), and each user's own view (spec §7): unread count,
// unread and read lists, mark-all-read. Scheduled notifications stay hidden until due. The
// notification job sends them (docs/decisions/028); push-lifecycle.test.ts covers web push.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_MESSAGES,
  SCHEDULE_MESSAGES,
  type AdminNotification,
  type NotificationItem,
} from '@rescuelog/sync-protocol/notifications';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

describe('notifications', () => {
  let t: TestApp;
  let admin: TestUser;
  let adminClient: TestClient;
  let alice: TestUser;
  let aliceClient: TestClient;
  let bob: TestUser;
  let bobClient: TestClient;
  let pending: TestUser;

  beforeAll(async () => {
    t = await build({ notificationJob: { pollMs: 50 } });
    admin = await t.createUser({ role: 'administrator', status: 'approved' });
    adminClient = await loginAs(t, admin);
    alice = await t.createUser({ status: 'approved', fullName: 'Alice' });
    aliceClient = await loginAs(t, alice);
    bob = await t.createUser({ status: 'approved', fullName: 'Bob' });
    bobClient = await loginAs(t, bob);
    pending = await t.createUser({ status: 'pending' });
  });
  afterAll(() => t.close());

  async function create(body: Record<string, unknown>): Promise<AdminNotification> {
    const res = await adminClient.post('/api/admin/notifications', body);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { notification: AdminNotification }).notification;
  }
  async function detail(id: number): Promise<AdminNotification> {
    const res = await adminClient.get(`/api/admin/notifications/${String(id)}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { notification: AdminNotification }).notification;
  }
  /** Creates a notification and waits until the job has sent it. */
  async function send(body: Record<string, unknown>): Promise<AdminNotification> {
    const created = await create(body);
    // In every inbox before the answer; nobody here has a device, so nothing is left to push.
    expect(created.status).toBe('sent');
    expect(created.sentAt).not.toBeNull();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await detail(created.id);
      if (now.status === 'sent') return now;
      if (Date.now() > deadline) throw new Error(`still ${now.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const count = async (client: TestClient) =>
    ((await (await client.get('/api/user/notifications/unread-count')).json()) as { count: number })
      .count;
  const list = async (client: TestClient, which: 'unread' | 'read') =>
    (await (await client.get(`/api/user/notifications/${which}`)).json()) as NotificationItem[];

  it('validates with the spec messages and defaults', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ message: 'm' }, NOTIFICATION_MESSAGES.titleRequired],
      [{ title: '', message: 'm' }, NOTIFICATION_MESSAGES.titleRequired],
      [{ title: 'x'.repeat(101), message: 'm' }, NOTIFICATION_MESSAGES.titleTooLong],
      [{ title: 't' }, NOTIFICATION_MESSAGES.messageRequired],
      [{ title: 't', message: 'x'.repeat(501) }, NOTIFICATION_MESSAGES.messageTooLong],
      [{ title: 't', message: 'm', type: 'gossip' }, 'Invalid enum value'],
      [{ title: 't', message: 'm', url: 'not a url' }, NOTIFICATION_MESSAGES.urlInvalid],
      [{ title: 't', message: 'm', targetUserIds: ['1'] }, 'Invalid input'],
      [{ title: 't', message: 'm', scheduledFor: 'tomorrow' }, SCHEDULE_MESSAGES.format],
      [{ title: 't', message: 'm', scheduledFor: '2030-01-01T10:00:00' }, SCHEDULE_MESSAGES.format],
      [{ title: 't', message: 'm', scheduledFor: '2020-01-01T00:00:00Z' }, SCHEDULE_MESSAGES.past],
      [
        { title: 't', message: 'm', scheduledFor: new Date(Date.now() - 1000).toISOString() },
        SCHEDULE_MESSAGES.past,
      ],
      [
        {
          title: 't',
          message: 'm',
          scheduledFor: new Date(Date.now() + 367 * 24 * 3600_000).toISOString(),
        },
        SCHEDULE_MESSAGES.tooFar,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await adminClient.post('/api/admin/notifications', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()) as ErrorBody;
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.error).toBe(message);
      if (body.scheduledFor !== undefined)
        expect(error.fieldErrors?.scheduledFor).toEqual([message]);
    }
    expect(await t.db.selectFrom('notifications').select('id').execute()).toHaveLength(0);

    const member = await aliceClient.post('/api/admin/notifications', { title: 't', message: 'm' });
    expect(member.status).toBe(403);
  });

  it('sends to every approved user when no target is given, with the defaults', async () => {
    const n = await send({ title: 'Station briefing', message: 'Briefing at 18:00 in the bay.' });
    expect(n).toMatchObject({
      type: 'general',
      priority: 'normal',
      status: 'sent',
      createdBy: admin.row.id,
      createdByName: admin.row.fullName,
    });
    // Nobody has a device subscribed: each gets the inbox entry, nothing is pushed or failed.
    expect(n.figures).toEqual({
      recipients: 3,
      pushed: 0,
      delivered: 0,
      clicked: 0,
      read: 0,
      failed: 0,
    });
    expect(n.sentAt).not.toBeNull();
    const deliveries = await t.db
      .selectFrom('notificationDeliveries')
      .select('userId')
      .where('notificationId', '=', n.id)
      .execute();
    expect(deliveries.map((d) => d.userId).sort((a, b) => a - b)).toEqual(
      [admin.row.id, alice.row.id, bob.row.id].sort((a, b) => a - b),
    );
    expect(deliveries.some((d) => d.userId === pending.row.id)).toBe(false);
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'notification.send')
      .where('entityId', '=', String(n.id))
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('targets users by id and by role', async () => {
    const toAlice = await send({
      title: 'For Alice',
      message: 'Only you',
      targetUserIds: [alice.row.id, pending.row.id],
    });
    expect(toAlice.figures.recipients).toBe(1);
    const toAdmins = await send({
      title: 'Admins',
      message: 'Admin meeting',
      targetRoles: ['administrator'],
      priority: 'high',
      type: 'system',
    });
    expect(toAdmins.figures.recipients).toBe(1);
    expect((await list(bobClient, 'unread')).map((n) => n.title)).not.toContain('For Alice');
    expect((await list(bobClient, 'unread')).map((n) => n.title)).not.toContain('Admins');
    expect((await list(aliceClient, 'unread')).map((n) => n.title)).toContain('For Alice');
    expect((await list(adminClient, 'unread')).find((n) => n.title === 'Admins')).toMatchObject({
      priority: 'high',
      type: 'system',
    });
  });

  it('shows each user their own unread notifications newest first, then marks them read', async () => {
    await send({
      title: 'Urgent',
      message: 'Road closed on the N2',
      type: 'emergency',
      priority: 'critical',
      url: 'https://example.org/closure',
    });
    const unread = await list(bobClient, 'unread');
    expect(unread.map((n) => n.title)).toEqual(['Urgent', 'Station briefing']);
    expect(unread[0]).toMatchObject({
      type: 'emergency',
      priority: 'critical',
      url: 'https://example.org/closure',
      readAt: null,
    });
    expect(unread[0]?.icon).toBeTruthy();
    expect(await count(bobClient)).toBe(2);
    expect(await list(bobClient, 'read')).toEqual([]);

    const mark = await bobClient.post('/api/user/notifications/mark-all-read');
    expect(mark.status).toBe(200);
    expect(await mark.json()).toEqual({ updated: 2 });
    expect(await count(bobClient)).toBe(0);
    expect(await list(bobClient, 'unread')).toEqual([]);
    const read = await list(bobClient, 'read');
    expect(read.map((n) => n.title)).toEqual(['Urgent', 'Station briefing']);
    expect(read.every((n) => n.readAt !== null)).toBe(true);

    // Nothing left to mark; Alice's are untouched.
    expect(await (await bobClient.post('/api/user/notifications/mark-all-read')).json()).toEqual({
      updated: 0,
    });
    expect(await count(aliceClient)).toBe(3);

    const sent = (await (await adminClient.get('/api/admin/notifications')).json()) as {
      notifications: AdminNotification[];
    };
    expect(sent.notifications[0]?.title).toBe('Urgent');
    // Bob fetched and then read it; Alice fetched nothing yet.
    expect(sent.notifications.find((n) => n.title === 'Urgent')?.figures).toMatchObject({
      recipients: 3,
      delivered: 1,
      read: 1,
    });
  });

  it('keeps a notification scheduled for later out of inboxes until it is due', async () => {
    const later = await create({
      title: 'Later',
      message: 'Not yet',
      scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(later).toMatchObject({ status: 'scheduled', sentAt: null });
    // Any zone is the same instant (Johannesburg is UTC+2, no daylight saving).
    const at = new Date(Date.now() + 2 * 3600_000);
    const local = new Date(at.getTime() + 2 * 3600_000).toISOString().slice(0, 19);
    const zoned = await create({ title: 'Zoned', message: 'm', scheduledFor: `${local}+02:00` });
    expect(Date.parse(zoned.scheduledFor ?? '')).toBe(Math.floor(at.getTime() / 1000) * 1000);
    expect(
      (await adminClient.post(`/api/admin/notifications/${String(zoned.id)}/cancel`)).status,
    ).toBe(200);
    // Recipients are chosen when it is sent.
    expect(later.figures.recipients).toBe(0);
    expect((await list(bobClient, 'unread')).map((n) => n.title)).not.toContain('Later');
    expect(await count(bobClient)).toBe(0);
    expect(await (await bobClient.post('/api/user/notifications/mark-all-read')).json()).toEqual({
      updated: 0,
    });

    // Once due, the job sends it.
    await t.db
      .updateTable('notifications')
      .set({ scheduledFor: new Date(Date.now() - 1000) })
      .where('id', '=', later.id)
      .execute();
    const deadline = Date.now() + 10_000;
    while ((await detail(later.id)).status !== 'sent' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const sent = await detail(later.id);
    expect(sent.status).toBe('sent');
    expect(sent.sentAt).not.toBeNull();
    expect(sent.figures.recipients).toBe(3);
    expect((await list(bobClient, 'unread')).map((n) => n.title)).toEqual(['Later']);
  });

  it('keeps the lists for approved, signed-in users', async () => {
    expect((await t.client().get('/api/user/notifications/unread-count')).status).toBe(401);
    const pendingClient = await loginAs(t, pending);
    const res = await pendingClient.get('/api/user/notifications/unread');
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe('ACCOUNT_PENDING');
  });

  it('returns at most 100 items', async () => {
    const before = await count(bobClient);
    const ids = await t.db
      .insertInto('notifications')
      .values(
        Array.from({ length: 105 }, (_, i) => ({
          title: `Bulk ${String(i)}`,
          message: 'm',
          status: 'sent',
          sentAt: new Date(),
        })),
      )
      .returning('id')
      .execute();
    await t.db
      .insertInto('notificationDeliveries')
      .values(ids.map(({ id }) => ({ notificationId: id, userId: bob.row.id })))
      .execute();
    expect(await list(bobClient, 'unread')).toHaveLength(100);
    expect(await count(bobClient)).toBe(before + 105);
  });
});
