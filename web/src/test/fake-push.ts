// jsdom has no Push API, Notifications or service workers. Tests of the screens that use
// them install this stand-in for the browser's side only: Notification.permission and its
// prompt, a service worker registration whose PushManager hands out subscriptions, and the
// worker's message channel. Everything the app says to the server still goes over HTTP to
// MSW, so the tests check the real requests. The real worker and Chromium's Push API are
// covered end to end (tests/e2e/push.spec.ts).
import { applicationServerKeyBytes } from '@rescuelog/sync-protocol/client/push-subscription';

/** A real P-256 public key (65 bytes, base64url), as GET /api/push/vapid-public-key gives. */
export const TEST_VAPID_KEY =
  'BBgb1oJkEX1MMssw1oOw-hCmBEk0MHdPT6ww8GmxRbW66tO5KMtHN7grD1RJAcpc5Izn_g13w9VVoR9KiNXAcnI';

export interface FakeSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  unsubscribed: boolean;
  toJSON(): { endpoint: string; keys: { p256dh: string; auth: string } };
  unsubscribe(): Promise<boolean>;
}

export interface FakePush {
  /** Notification.permission now. */
  permission: NotificationPermission;
  /** What the browser's prompt answers when asked. */
  answer: NotificationPermission;
  /** How many times the page asked for permission. */
  prompts: number;
  subscription: FakeSubscription | null;
  /** Every subscription handed out, in order. */
  made: FakeSubscription[];
  /** When set, PushManager.subscribe rejects with it (the push service could not be reached). */
  failSubscribe: Error | null;
  /** The worker's side of navigator.serviceWorker's message channel; `port` gets replies. */
  postFromWorker(data: unknown, port?: { postMessage(answer: unknown): void }): void;
  uninstall(): void;
}

let counter = 0;

export function fakeSubscription(
  key: string | null = TEST_VAPID_KEY,
  endpoint = `https://push.example.net/send/device-${String(++counter)}`,
): FakeSubscription {
  const sub: FakeSubscription = {
    endpoint,
    options: { applicationServerKey: key ? applicationServerKeyBytes(key).buffer : null },
    unsubscribed: false,
    toJSON: () => ({
      endpoint,
      keys: { p256dh: `p256dh-of-${endpoint}`, auth: `auth-of-${endpoint}` },
    }),
    unsubscribe: async () => {
      sub.unsubscribed = true;
      if (fake?.subscription === sub) fake.subscription = null;
      return true;
    },
  };
  return sub;
}

let fake: FakePush | null = null;

const GLOBALS = ['PushManager', 'Notification'] as const;

/** On the window and on the test's global scope (`Notification` is read as a global). */
function defineGlobal(name: (typeof GLOBALS)[number], value: unknown): void {
  for (const target of new Set<object>([window, globalThis])) {
    Object.defineProperty(target, name, { configurable: true, writable: true, value });
  }
}

export function installFakePush(
  initial: Partial<Pick<FakePush, 'permission' | 'answer' | 'subscription'>> = {},
): FakePush {
  const channel = new EventTarget();
  const registration = {
    active: {},
    pushManager: {
      getSubscription: async () => state.subscription,
      subscribe: async (options: { applicationServerKey: Uint8Array }) => {
        if (state.failSubscribe) throw state.failSubscribe;
        const key = Buffer.from(options.applicationServerKey).toString('base64url');
        const sub = fakeSubscription(key);
        state.subscription = sub;
        state.made.push(sub);
        return sub;
      },
    },
  };
  const state: FakePush = {
    permission: initial.permission ?? 'default',
    answer: initial.answer ?? 'granted',
    prompts: 0,
    subscription: initial.subscription ?? null,
    made: [],
    failSubscribe: null,
    postFromWorker: (data, port) => {
      // jsdom's MessageEvent takes only its own MessagePorts: the same fields on an Event.
      const event = new Event('message');
      Object.defineProperties(event, {
        data: { value: data },
        ports: { value: port ? [port] : [] },
      });
      channel.dispatchEvent(event);
    },
    uninstall: () => {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      for (const name of GLOBALS) {
        Reflect.deleteProperty(window, name);
        Reflect.deleteProperty(globalThis, name);
      }
      fake = null;
    },
  };
  fake = state;
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => registration,
      ready: Promise.resolve(registration),
      addEventListener: channel.addEventListener.bind(channel),
      removeEventListener: channel.removeEventListener.bind(channel),
    },
  });
  defineGlobal('PushManager', function PushManager() {});
  defineGlobal('Notification', {
    get permission() {
      return state.permission;
    },
    requestPermission: async () => {
      state.prompts += 1;
      state.permission = state.answer;
      return state.answer;
    },
  });
  return state;
}
