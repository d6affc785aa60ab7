// Web push end to end (issue 16), on a server of its own that may push to the stand-in push
// service (support/push-server.ts). What is real: the administrator's screen and the API,
// the server's encryption and VAPID signature (checked and decrypted by web-push-testing's
// model), the delivery figures, the built service worker in Chromium with its push and
// notificationclick handlers, the notification it shows, the receipts it posts and the page's
// reaction. What stands in: the member's push subscription is made by the stand-in, not by
// Chromium (a Playwright context is incognito-like, where Chrome has no Push API), so the
// payload the server pushed is read back from the stand-in and handed to the real worker with
// the DevTools Protocol (ServiceWorker.deliverPushMessage), as the push service would; and
// the click is a NotificationEvent the test dispatches in the worker with the notification
// the worker showed (no protocol command clicks a notification), so the browser does not
// treat it as a user's gesture: it may not focus the window (the worker then goes on without
// focusing it). The app's open window goes to the address with its router (OPEN_URL).
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import { pushPayloadSchema, vapidPublicKeySchema } from '@rescuelog/sync-protocol/notifications';
import { apiApprove, apiRegister, newPerson, writeHeaders } from './support/accounts';
import {
  expect,
  guardConsole,
  scanAtEachViewport,
  test,
  type ConsoleGuard,
} from './support/fixtures';
import { startPushServers, type PushServers } from './support/push-server';

test.describe.configure({ mode: 'serial' });

/** Chrome says this when a page in an incognito-like profile asks for a subscription. */
const NO_PUSH_IN_INCOGNITO = {
  text: /Chrome currently does not support the Push API in incognito mode/,
};

let servers: PushServers;
const contexts: BrowserContext[] = [];
const guards: ConsoleGuard[] = [];
let admin: Page;
let member: Page;
let memberName: string;
let deviceId: string;

async function open(browser: Browser, origin: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: origin,
    locale: 'en-GB',
    timezoneId: 'Africa/Johannesburg',
    serviceWorkers: 'allow',
  });
  contexts.push(context);
  const page = await context.newPage();
  guards.push(guardConsole(page, [NO_PUSH_IN_INCOGNITO]));
  return page;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  servers = await startPushServers();
  admin = await open(browser, servers.origin);
  member = await open(browser, servers.origin);
  await member.context().grantPermissions(['notifications'], { origin: servers.origin });
  // The first account of this server is its administrator.
  const chief = await apiRegister(admin.request, newPerson('Push Chief'), servers.origin);
  expect(chief.role).toBe('administrator');
  const person = newPerson('Pushed Member');
  memberName = person.fullName;
  const crew = await apiRegister(member.request, person, servers.origin);
  await apiApprove(admin.request, crew.id, servers.origin);
});

test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await servers?.stop();
  expect(
    guards.flatMap((g) => g.errors),
    'unexpected console errors',
  ).toEqual([]);
});

/** The member's service worker registration, as the DevTools Protocol names it. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

interface AdminFigures {
  pushed: number;
  delivered: number;
  clicked: number;
}

async function figuresOf(title: string): Promise<AdminFigures | undefined> {
  const response = await admin.request.get('/api/admin/notifications');
  const body = (await response.json()) as {
    notifications: Array<{ title: string; figures: AdminFigures }>;
  };
  return body.notifications.find((n) => n.title === title)?.figures;
}

test('a notification pushed to the member arrives at their service worker, shows, and a click opens its address and counts as clicked', async () => {
  test.setTimeout(120_000);
  await member.goto('/');
  await member.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // The offer after sign-in: Chromium here (incognito-like) cannot subscribe, and says so.
  const offer = member.getByRole('region', { name: 'Get notifications on this device' });
  await offer.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(
    offer.getByText(
      /^Notifications could not be turned on: The browser's push service did not register this device/,
    ),
  ).toBeVisible();

  // The member's device: a stand-in subscription, registered through the API (§5).
  const { publicKey } = vapidPublicKeySchema.parse(
    await (await member.request.get('/api/push/vapid-public-key')).json(),
  );
  const device = await servers.subscribeDevice(publicKey);
  deviceId = device.id;
  const registered = await member.request.post('/api/user/push-subscriptions', {
    headers: writeHeaders(servers.origin),
    data: {
      endpoint: device.endpoint,
      p256dh: device.p256dh,
      auth: device.auth,
      userAgent: 'stand-in device',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);

  // The administrator sends a critical emergency to the member, linking a screen of the app.
  const title = 'Flooding on the N2';
  await admin.goto('/admin/notifications');
  const compose = admin.getByRole('region', { name: 'New notification' });
  await compose.getByLabel(/^Title/).fill(title);
  await compose.getByLabel(/^Message/).fill('All crews: avoid the N2 between exits 12 and 14.');
  await compose.getByLabel('Type').selectOption('emergency');
  await compose.getByLabel('Priority').selectOption('critical');
  await compose.getByLabel('Link (optional)').fill('/profile');
  await compose.getByRole('radio', { name: 'Chosen people' }).check({ force: true });
  await compose.getByRole('searchbox', { name: 'Find people' }).fill('Pushed');
  await compose.getByRole('checkbox', { name: new RegExp(memberName) }).check();
  await compose.getByRole('button', { name: 'Send notification' }).click();
  await expect(admin.getByText('Notification sent', { exact: true })).toBeVisible();

  // What the push service received, decrypted: the §3 payload for the member.
  await expect.poll(async () => (await servers.messages(device.id)).length).toBe(1);
  const [message] = await servers.messages(device.id);
  const payload = pushPayloadSchema.parse(JSON.parse(String(message)));
  expect(payload).toMatchObject({
    title,
    priority: 'critical',
    type: 'emergency',
    url: '/profile',
  });
  await expect.poll(async () => (await figuresOf(title))?.pushed).toBe(1);

  // The push reaches the member's real service worker, which shows it and tells the page.
  await expect(member.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName(
    'Notifications',
  );
  const cdp = await member.context().newCDPSession(member);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: servers.origin,
    registrationId: await registrationId(cdp),
    data: String(message),
  });
  // Nothing reads the worker's notifications until it has finished showing this one: Chromium's
  // getNotifications() keeps a stored notification only when the platform already reports it
  // displayed or it was created after the read began, and deletes every other one from its
  // database (platform_notification_context_impl.cc,
  // DoReadAllNotificationDataForServiceWorkerRegistration). A read that lands after the worker
  // stored it but before it is on display loses it for good (still on screen, never listed
  // again), which is how this test, polling during the show, once saw no notification within
  // 10 s. The worker posts the delivered receipt only after showNotification() has resolved, so
  // the receipt is the moment to read, once.
  await expect.poll(async () => (await figuresOf(title))?.delivered).toBe(1);
  // The bell follows at once (NOTIFICATION_RECEIVED), well before its 30 s poll.
  await expect(member.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName(
    'Notifications, 1 unread',
    { timeout: 5000 },
  );
  expect(
    await member.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        requireInteraction: n.requireInteraction,
        url: (n.data as { url?: unknown }).url,
      }));
    }),
  ).toEqual([
    {
      title,
      body: 'All crews: avoid the N2 between exits 12 and 14.',
      tag: String(payload.notificationId),
      requireInteraction: true,
      url: '/profile',
    },
  ]);

  // A click on it: the worker's real notificationclick handler, run with the notification it
  // showed; the open app goes to the notification's address and the click is counted.
  // The open app goes there with its router (OPEN_URL), not by reloading: this mark survives.
  await member.evaluate(() => {
    (window as unknown as { beforeClick?: boolean }).beforeClick = true;
  });
  const worker = member.context().serviceWorkers()[0];
  if (!worker) throw new Error('the member has no service worker');
  await worker.evaluate(async (tag) => {
    // Runs in the worker (the tests' TypeScript knows only the window's names).
    const scope = self as unknown as EventTarget & { registration: ServiceWorkerRegistration };
    const NotificationEventOfWorker = (
      globalThis as unknown as {
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      }
    ).NotificationEvent;
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification with tag ${tag}`);
    scope.dispatchEvent(new NotificationEventOfWorker('notificationclick', { notification }));
  }, String(payload.notificationId));
  await expect(member).toHaveURL(`${servers.origin}/profile`);
  expect(
    await member.evaluate(() => (window as unknown as { beforeClick?: boolean }).beforeClick),
  ).toBe(true);
  await expect
    .poll(() =>
      member.evaluate(async () => (await navigator.serviceWorker.ready).getNotifications()),
    )
    .toEqual([]);
  await expect.poll(async () => (await figuresOf(title))?.clicked).toBe(1);
});

test('the profile says what this device receives, sends a test to the member’s device, and is axe clean at 360 and 1024 px', async () => {
  await member.goto('/profile');
  const section = member.getByRole('region', { name: 'Notifications on this device' });
  const fact = (term: string) =>
    section.getByText(term, { exact: true }).locator('xpath=following-sibling::dd[1]');
  await expect(fact('This browser')).toHaveText('Can receive push notifications');
  await expect(fact('Permission')).toHaveText('Allowed');
  // The member's registered device is the stand-in, not this browser.
  await expect(fact('This device')).toHaveText('Does not receive notifications');
  await scanAtEachViewport(member, 'profile, notifications on this device');

  await section.getByRole('button', { name: 'Send me a test' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Test sent to 1 device. It should appear within a few seconds.',
  );
  await expect.poll(async () => (await servers.messages(deviceId)).length).toBe(2);
  const test = pushPayloadSchema.parse(JSON.parse(String((await servers.messages(deviceId))[1])));
  expect(test.test).toBe(true);
});
