// A notification's link (issue 37): a path of this app or an https address, nothing else, so a
// tapped notification can never run script (javascript:, data:) or open a plain-http or
// scheme-relative address. Refused with the §5-style message at the field and nothing
// stored; an accepted link is stored as sent. Also: a scheduled time that is not a real day.
// Runs on whichever database the suite runs on (PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_MESSAGES,
  SCHEDULE_MESSAGES,
  type AdminNotification,
} from '@rescuelog/sync-protocol/notifications';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await build();
  admin = await loginAs(t, await t.createUser({ role: 'administrator', status: 'approved' }));
});
afterAll(() => t.close());

const send = (extra: Record<string, unknown>) =>
  admin.post('/api/admin/notifications', { title: 'Link check', message: 'Tap me', ...extra });

const notificationCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a notification link', () => {
  it.each([
    '/cases',
    '/case-search?status=in_progress#top',
    '/',
    'https://example.org/x',
    'HTTPS://example.org/closure?road=N2',
  ])('accepts %j and stores it as sent', async (url) => {
    const res = await send({ url });
    expect(res.status, await res.clone().text()).toBe(201);
    const { notification } = (await res.json()) as { notification: AdminNotification };
    const row = await t.db
      .selectFrom('notifications')
      .select('url')
      .where('id', '=', notification.id)
      .executeTakeFirstOrThrow();
    expect(row.url).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' /x',
    '/x ',
    '\n/x',
    '/x\u0000',
    '/.//evil.example',
    '/a/..//evil.example',
    '\u00a0/x',
    'https:evil.example',
    'https:/evil.example',
    'https://',
    'https://app.example@evil.example/x',
    'https://user:secret@example.org/',
    'ftp://example.org/x',
    'cases',
    'example.org/x',
    '',
  ])('refuses %j with the message at the field, and stores nothing', async (url) => {
    const before = await notificationCount();
    const res = await send({ url });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: NOTIFICATION_MESSAGES.urlInvalid,
      code: 'VALIDATION_FAILED',
      fieldErrors: { url: [NOTIFICATION_MESSAGES.urlInvalid] },
    });
    expect(await notificationCount()).toBe(before);
  });

  it('refuses a link over 2048 characters as too long', async () => {
    const res = await send({ url: `https://example.org/${'x'.repeat(2048)}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      fieldErrors: { url: [NOTIFICATION_MESSAGES.urlTooLong] },
    });
  });

  it('refuses a link that is not text', async () => {
    const res = await send({ url: ['/cases'] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      fieldErrors: { url: [NOTIFICATION_MESSAGES.urlInvalid] },
    });
  });
});

describe('a scheduled time that is not a real day', () => {
  it('is refused (where Date would have read the 31st as the 1st of the next month)', async () => {
    // The 31st of the first short month at least a month ahead: in the future, within a year.
    const start = new Date(Date.now() + 40 * 24 * 3600_000);
    let [year, month] = [start.getUTCFullYear(), start.getUTCMonth() + 1];
    while (new Date(Date.UTC(year, month, 0)).getUTCDate() === 31) {
      month += 1;
      if (month > 12) [year, month] = [year + 1, 1];
    }
    const scheduledFor = `${String(year)}-${String(month).padStart(2, '0')}-31T10:00:00Z`;
    const before = await notificationCount();
    const res = await send({ scheduledFor });
    expect(res.status, scheduledFor).toBe(400);
    expect(await res.json()).toMatchObject({
      error: SCHEDULE_MESSAGES.format,
      fieldErrors: { scheduledFor: [SCHEDULE_MESSAGES.format] },
    });
    expect(await notificationCount()).toBe(before);
  });
});
