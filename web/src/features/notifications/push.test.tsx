// Push on this device: the offer after sign-in, the profile's section, the start-up check,
// logout, and the bell refreshing when the worker says a push arrived. The browser's Push API
// is a stand-in (test/fake-push.ts; jsdom has none); every request goes to MSW.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { PUSH_SUBSCRIPTION_MESSAGES } from '@rescuelog/sync-protocol/notifications';
import { DEVICE_PUSH_KEY } from '@/lib/push-device';
import { axeViolations } from '@/test/axe';
import { fakeSubscription, installFakePush, TEST_VAPID_KEY, type FakePush } from '@/test/fake-push';
import { makeUser } from '@/test/fixtures';
import { dashboardData, expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { PERMISSION_MESSAGES, UNAVAILABLE_MESSAGES } from './api/device-push';

const me = makeUser({ id: 7 });
let fake: FakePush | null = null;

afterEach(() => {
  cleanup();
  fake?.uninstall();
  fake = null;
});

function push(initial: Parameters<typeof installFakePush>[0] = {}): FakePush {
  fake = installFakePush(initial);
  return fake;
}

/** The push API of the contract; returns what was POSTed and DELETEd, in order. */
function pushApi({ known = [] as string[] } = {}) {
  const calls: Array<{ method: string; body: unknown }> = [];
  server.use(
    http.get('/api/push/vapid-public-key', () => HttpResponse.json({ publicKey: TEST_VAPID_KEY })),
    http.get('/api/user/push-subscriptions', () =>
      HttpResponse.json({
        subscriptions: known.map((endpoint, i) => ({
          id: i + 1,
          endpoint,
          userAgent: null,
          createdAt: '2026-11-20T08:00:00.000Z',
        })),
      }),
    ),
    http.post('/api/user/push-subscriptions', async ({ request }) => {
      expect(request.headers.get('X-Requested-With')).toBe('rescuelog');
      const body = (await request.json()) as { endpoint: string };
      calls.push({ method: 'POST', body });
      return HttpResponse.json(
        {
          subscription: {
            id: 50,
            endpoint: body.endpoint,
            userAgent: null,
            createdAt: '2026-11-20T08:00:00.000Z',
          },
        },
        { status: 201 },
      );
    }),
    http.delete('/api/user/push-subscriptions', async ({ request }) => {
      expect(request.headers.get('X-Requested-With')).toBe('rescuelog');
      calls.push({ method: 'DELETE', body: await request.json() });
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return calls;
}

function remember(userId: number, endpoint: string) {
  localStorage.setItem(DEVICE_PUSH_KEY, JSON.stringify({ userId, endpoint }));
}

async function findOffer() {
  return screen.findByRole('region', { name: /notifications on this device/i });
}

describe('the offer to turn on notifications', () => {
  it('never prompts on load; on "Turn on" asks, subscribes with the VAPID key and registers the subscription', async () => {
    const browser = push({ permission: 'default', answer: 'granted' });
    const calls = pushApi();
    signedInAs(me);
    dashboardData();
    const { user } = renderApp('/');
    const offer = await screen.findByRole('region', { name: 'Get notifications on this device' });
    expect(browser.prompts).toBe(0);
    expect(await axeViolations()).toEqual([]);

    await user.click(within(offer).getByRole('button', { name: 'Turn on notifications' }));
    await expectToast('Notifications on', 'This device now receives RescueLog notifications.');
    expect(browser.prompts).toBe(1);
    expect(browser.made).toHaveLength(1);
    const made = browser.made[0];
    expect(Buffer.from(made?.options.applicationServerKey ?? new ArrayBuffer(0))).toEqual(
      Buffer.from(TEST_VAPID_KEY, 'base64url'),
    );
    expect(calls).toEqual([
      {
        method: 'POST',
        body: {
          endpoint: made?.endpoint,
          p256dh: `p256dh-of-${String(made?.endpoint)}`,
          auth: `auth-of-${String(made?.endpoint)}`,
          userAgent: navigator.userAgent,
        },
      },
    ]);
    expect(JSON.parse(localStorage.getItem(DEVICE_PUSH_KEY) ?? 'null')).toEqual({
      userId: 7,
      endpoint: made?.endpoint,
    });
    await waitFor(() =>
      expect(
        screen.queryByRole('region', { name: 'Get notifications on this device' }),
      ).not.toBeInTheDocument(),
    );
  });

  it('"Not now" is remembered for this user on this device, not for another', async () => {
    const browser = push({ permission: 'default' });
    signedInAs(me);
    dashboardData();
    const first = renderApp('/');
    const offer = await findOffer();
    await first.user.click(within(offer).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: /notifications on this device/i })).toBeNull();
    first.unmount();

    const again = renderApp('/');
    await screen.findByRole('heading', { name: 'Quick Stats' });
    // Give the offer every chance to appear (it loads after the first screen).
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('region', { name: /notifications on this device/i })).toBeNull();
    again.unmount();

    signedInAs(makeUser({ id: 8, email: 'sipho@example.org' }));
    renderApp('/');
    expect(await findOffer()).toBeVisible();
    expect(browser.prompts).toBe(0);
  });

  it('says plainly when notifications are blocked, or the browser has no Push API', async () => {
    push({ permission: 'denied' });
    signedInAs(me);
    dashboardData();
    const blocked = renderApp('/');
    const offer = await findOffer();
    expect(offer).toHaveTextContent(PERMISSION_MESSAGES.denied);
    expect(within(offer).queryByRole('button', { name: /Turn on/ })).toBeNull();
    await blocked.user.click(within(offer).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('region', { name: /notifications on this device/i })).toBeNull();
    blocked.unmount();
    fake?.uninstall();
    fake = null;

    localStorage.clear();
    renderApp('/');
    expect(await findOffer()).toHaveTextContent(UNAVAILABLE_MESSAGES['no-push-api']);
  });

  it('when the browser question is turned down, nothing is registered and it says why', async () => {
    const browser = push({ permission: 'default', answer: 'denied' });
    const calls = pushApi();
    signedInAs(me);
    dashboardData();
    const { user } = renderApp('/');
    const offer = await findOffer();
    await user.click(within(offer).getByRole('button', { name: 'Turn on notifications' }));
    expect(await within(await findOffer()).findByText(PERMISSION_MESSAGES.denied)).toBeVisible();
    expect(browser.prompts).toBe(1);
    expect(browser.made).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('a subscription the server refuses (§5) is dropped again and the reason shown', async () => {
    const browser = push({ permission: 'default', answer: 'granted' });
    pushApi();
    server.use(
      http.post('/api/user/push-subscriptions', () =>
        HttpResponse.json(
          {
            error: PUSH_SUBSCRIPTION_MESSAGES.endpointPrivate,
            code: 'VALIDATION_FAILED',
            fieldErrors: { endpoint: [PUSH_SUBSCRIPTION_MESSAGES.endpointPrivate] },
          },
          { status: 400 },
        ),
      ),
    );
    signedInAs(me);
    dashboardData();
    const { user } = renderApp('/');
    const offer = await findOffer();
    await user.click(within(offer).getByRole('button', { name: 'Turn on notifications' }));
    expect(
      await within(offer).findByText(
        `Notifications could not be turned on: ${PUSH_SUBSCRIPTION_MESSAGES.endpointPrivate}`,
      ),
    ).toBeVisible();
    expect(browser.made[0]?.unsubscribed).toBe(true);
    expect(localStorage.getItem(DEVICE_PUSH_KEY)).toBeNull();
    expect(within(offer).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('says what failed when the browser cannot reach its push service', async () => {
    const browser = push({ permission: 'default', answer: 'granted' });
    const calls = pushApi();
    browser.failSubscribe = new Error('Registration failed - push service error');
    signedInAs(me);
    dashboardData();
    const { user } = renderApp('/');
    const offer = await findOffer();
    await user.click(within(offer).getByRole('button', { name: 'Turn on notifications' }));
    expect(
      await within(offer).findByText(
        /The browser's push service did not register this device \(Registration failed - push service error\)/,
      ),
    ).toBeVisible();
    expect(calls).toEqual([]);
  });
});

describe('keeping the subscription current', () => {
  it("registers this user's subscription again when the server no longer has it", async () => {
    const sub = fakeSubscription();
    push({ permission: 'granted', subscription: sub });
    remember(7, sub.endpoint);
    const calls = pushApi({ known: [] });
    signedInAs(me);
    dashboardData();
    renderApp('/');
    await waitFor(() =>
      expect(calls).toEqual([
        { method: 'POST', body: expect.objectContaining({ endpoint: sub.endpoint }) },
      ]),
    );
  });

  it('changes nothing when the server has it', async () => {
    const sub = fakeSubscription();
    push({ permission: 'granted', subscription: sub });
    remember(7, sub.endpoint);
    let listed = 0;
    const calls = pushApi({ known: [sub.endpoint] });
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/api/user/push-subscriptions') && request.method === 'GET')
        listed += 1;
    });
    signedInAs(me);
    dashboardData();
    renderApp('/');
    await waitFor(() => expect(listed).toBe(1));
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toEqual([]);
    expect(sub.unsubscribed).toBe(false);
    server.events.removeAllListeners();
  });

  it('re-subscribes with the new key when the server changed its VAPID key', async () => {
    const old = fakeSubscription(
      'BPc9rvQhLcqHXbXHNqJYdHCRDLsY3JAbYD0HkzrqjyUUufD1Bq9s2Ot20dTvqdrnuNa4DLcGGEBVMgB5mmd3dbA',
    );
    const browser = push({ permission: 'granted', subscription: old });
    remember(7, old.endpoint);
    const calls = pushApi({ known: [old.endpoint] });
    signedInAs(me);
    dashboardData();
    renderApp('/');
    await waitFor(() => expect(calls).toHaveLength(2));
    const made = browser.made[0];
    expect(old.unsubscribed).toBe(true);
    expect(calls).toEqual([
      { method: 'POST', body: expect.objectContaining({ endpoint: made?.endpoint }) },
      { method: 'DELETE', body: { endpoint: old.endpoint } },
    ]);
  });

  it('drops a subscription left by someone else on this device instead of adopting it', async () => {
    const theirs = fakeSubscription();
    push({ permission: 'granted', subscription: theirs });
    remember(99, theirs.endpoint);
    const calls = pushApi();
    signedInAs(me);
    dashboardData();
    renderApp('/');
    await waitFor(() => expect(theirs.unsubscribed).toBe(true));
    expect(calls).toEqual([]);
    expect(localStorage.getItem(DEVICE_PUSH_KEY)).toBeNull();
  });

  it('logout tells the server to forget this device, then unsubscribes, before signing out', async () => {
    const sub = fakeSubscription();
    push({ permission: 'granted', subscription: sub });
    remember(7, sub.endpoint);
    const order: string[] = [];
    pushApi({ known: [sub.endpoint] });
    server.use(
      http.delete('/api/user/push-subscriptions', async ({ request }) => {
        order.push(`DELETE ${JSON.stringify(await request.json())}`);
        order.push(`unsubscribed before DELETE answered: ${String(sub.unsubscribed)}`);
        return new HttpResponse(null, { status: 204 });
      }),
      http.post('/api/logout', () => {
        order.push(`logout (unsubscribed: ${String(sub.unsubscribed)})`);
        signedInAs(null);
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    signedInAs(me);
    dashboardData();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await expectToast('Logged out');
    expect(order).toEqual([
      `DELETE {"endpoint":"${sub.endpoint}"}`,
      'unsubscribed before DELETE answered: false',
      'logout (unsubscribed: true)',
    ]);
    expect(localStorage.getItem(DEVICE_PUSH_KEY)).toBeNull();
  });
});

describe('Profile: notifications on this device', () => {
  function profileApi() {
    server.use(http.get('/api/user/sessions', () => HttpResponse.json({ sessions: [] })));
  }

  it('shows the state, turns push on and off, and sends a test with progress and result', async () => {
    const browser = push({ permission: 'default', answer: 'granted' });
    const calls = pushApi();
    let release: () => void = () => undefined;
    server.use(
      http.post('/api/user/push-subscriptions/test', async () => {
        await new Promise<void>((r) => (release = r));
        return HttpResponse.json({ devices: 2 });
      }),
    );
    signedInAs(me);
    profileApi();
    const { user } = renderApp('/profile');
    const section = await screen.findByRole('region', { name: 'Notifications on this device' });
    const fact = (term: string) => within(section).getByText(term).nextElementSibling;
    await waitFor(() =>
      expect(fact('This browser')).toHaveTextContent('Can receive push notifications'),
    );
    expect(fact('Permission')).toHaveTextContent('Not asked yet');
    expect(fact('This device')).toHaveTextContent('Does not receive notifications');
    expect(await axeViolations()).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Turn on notifications' }));
    await waitFor(() =>
      expect(fact('This device')).toHaveTextContent('Receives your notifications'),
    );
    expect(fact('Permission')).toHaveTextContent('Allowed');
    const endpoint = browser.made[0]?.endpoint;

    await user.click(within(section).getByRole('button', { name: 'Send me a test' }));
    const status = within(section).getByRole('status');
    expect(status).toHaveTextContent('Sending a test notification...');
    expect(within(section).getByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();
    await waitFor(() =>
      expect(status).toHaveTextContent(
        'Test sent to 2 devices. It should appear within a few seconds.',
      ),
    );

    await user.click(within(section).getByRole('button', { name: 'Turn off notifications' }));
    await waitFor(() =>
      expect(fact('This device')).toHaveTextContent('Does not receive notifications'),
    );
    expect(browser.made[0]?.unsubscribed).toBe(true);
    expect(calls).toEqual([
      { method: 'POST', body: expect.objectContaining({ endpoint }) },
      { method: 'DELETE', body: { endpoint } },
    ]);
    expect(within(section).getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  });

  it('says when no device receives notifications yet, or the test failed', async () => {
    push({ permission: 'granted' });
    let devices: number | null = 0;
    server.use(
      http.post('/api/user/push-subscriptions/test', () =>
        devices === null
          ? HttpResponse.json({ error: 'Too many tests', code: 'RATE_LIMITED' }, { status: 429 })
          : HttpResponse.json({ devices }),
      ),
    );
    signedInAs(me);
    profileApi();
    const { user } = renderApp('/profile');
    const section = await screen.findByRole('region', { name: 'Notifications on this device' });
    await user.click(await within(section).findByRole('button', { name: 'Send me a test' }));
    expect(
      await within(section).findByText(
        'No device of yours receives notifications yet: turn them on first.',
      ),
    ).toBeVisible();
    devices = null;
    await user.click(within(section).getByRole('button', { name: 'Send me a test' }));
    expect(
      await within(section).findByText('The test could not be sent: Too many tests'),
    ).toBeVisible();
  });

  it('says plainly when this browser cannot receive push', async () => {
    signedInAs(me);
    profileApi();
    renderApp('/profile');
    const section = await screen.findByRole('region', { name: 'Notifications on this device' });
    expect(await within(section).findByText('Cannot receive push notifications')).toBeVisible();
    expect(section).toHaveTextContent(UNAVAILABLE_MESSAGES['no-push-api']);
    expect(within(section).queryByRole('button', { name: /Turn on/ })).toBeNull();
  });
});

describe('the bell when a push arrives', () => {
  it("refetches the unread count at once on the worker's NOTIFICATION_RECEIVED, ignoring other messages", async () => {
    const browser = push({ permission: 'default' });
    signedInAs(me);
    dashboardData({ unread: 0 });
    let counts = 0;
    server.use(
      http.get('/api/user/notifications/unread-count', () => {
        counts += 1;
        return HttpResponse.json({ count: counts === 1 ? 0 : 120 });
      }),
    );
    renderApp('/');
    await screen.findByRole('button', { name: 'Notifications' });
    await findOffer(); // the background listener has loaded with it
    browser.postFromWorker({ type: 'NOTIFICATION_RECEIVED', notificationId: 'x' });
    browser.postFromWorker({ type: 'SOMETHING_ELSE' });
    await new Promise((r) => setTimeout(r, 100));
    expect(counts).toBe(1);
    browser.postFromWorker({ type: 'NOTIFICATION_RECEIVED', notificationId: 5 });
    expect(await screen.findByRole('button', { name: 'Notifications, 99+ unread' })).toBeVisible();
    expect(counts).toBe(2);
  });
});

describe('a notification clicked while the app is open', () => {
  it("goes to the worker's OPEN_URL address with the router and answers URL_OPENED", async () => {
    const browser = push({ permission: 'default' });
    signedInAs(me);
    dashboardData();
    server.use(http.get('/api/user/sessions', () => HttpResponse.json({ sessions: [] })));
    const { location } = renderApp('/');
    await findOffer(); // the background listener has loaded with it
    const answers: unknown[] = [];
    browser.postFromWorker(
      { type: 'OPEN_URL', path: 'https://elsewhere.example/x' },
      {
        postMessage: (a) => answers.push(a),
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(location.pathname).toBe('/');
    expect(answers).toEqual([]);

    browser.postFromWorker(
      { type: 'OPEN_URL', path: '/profile' },
      {
        postMessage: (a) => answers.push(a),
      },
    );
    expect(
      await screen.findByRole('region', { name: 'Notifications on this device' }),
    ).toBeVisible();
    expect(location.pathname).toBe('/profile');
    expect(answers).toEqual([{ type: 'URL_OPENED' }]);
  });
});
