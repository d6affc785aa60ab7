// A stand-in web push service for tests and the benchmark: a real HTTP server on 127.0.0.1
// whose message handling is the npm package `web-push-testing` (its PushApiModel): it makes
// subscriptions (a P-256 key pair and auth secret per device, bound to the server's VAPID key),
// verifies each push's VAPID JWT and key, and decrypts the aes128gcm body with the device's
// private key. Around it, what the package does not do and these tests need: the headers of
// every request (TTL, Urgency, Topic, Content-Encoding, body size), scripted failures (a 5xx
// or 429 for the next N pushes, 404), and a 410 for an expired subscription (the package's own).
// We use the package's model, not its CLI server: that server is an Express app on a fixed
// port that exits the process on an error, and could not inject the failures.
//   const push = await startPushService();   // afterAll(() => push.close())
//   const device = await push.subscribe(vapidPublicKey);
//   push.failNext(device.id, 503, 2);  push.expire(device.id);
//   push.messages(device.id)           // decrypted payloads, oldest first
// Run as its own process (bench/push-service-main.ts), the same server answers a small
// control API: POST /control/subscribe {applicationServerKey, count}, GET /control/stats,
// and GET /control/messages/<device id> (the decrypted payloads, for the push e2e spec).
import { createRequire } from 'node:module';
import http from 'node:http';

interface PushApiModelInstance {
  notifyUrl: string;
  subscribe(options: { applicationServerKey: string; userVisibleOnly: string }): Promise<{
    endpoint: string;
    keys: { p256dh: string; auth: string };
    clientHash: string;
  }>;
  handleNotification(
    clientHash: string,
    headers: { encoding?: string; authorization?: string; ttl?: string },
    body: Buffer,
  ): Promise<void>;
  expireSubscription(clientHash: string): void;
  getNotifications(body: { clientHash: string }): { messages: string[] };
}

const require = createRequire(import.meta.url);
const { PushApiModel, SubscriptionExpiredError } =
  require('web-push-testing/src/PushApiModel.js') as {
    PushApiModel: new () => PushApiModelInstance;
    SubscriptionExpiredError: new () => Error;
  };

export interface StandInDevice {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushRequestRecord {
  at: number;
  status: number;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  encoding: string | undefined;
  bytes: number;
  error?: string;
}

export interface StandInPushService {
  /** http://127.0.0.1:<port> */
  url: string;
  subscribe(applicationServerKey: string): Promise<StandInDevice>;
  /** Decrypted payloads this device accepted, oldest first. */
  messages(id: string): string[];
  /** Every push request for this device, answered or not. */
  requests(id: string): PushRequestRecord[];
  /** The next `times` pushes to this device are answered `status` (and Retry-After). */
  failNext(id: string, status: number, times: number, retryAfterSeconds?: number): void;
  /** The device unsubscribed: its pushes are answered 410 Gone. */
  expire(id: string): void;
  /** The push service does not know this device (404). */
  forget(id: string): void;
  /** Pushes accepted (201) across all devices. */
  accepted(): number;
  close(): Promise<void>;
}

const DEVICE_PATH = /^\/push\/([0-9a-f]{64})$/;

export async function startPushService(): Promise<StandInPushService> {
  const model = new PushApiModel();
  const requests = new Map<string, PushRequestRecord[]>();
  const faults = new Map<string, { status: number; times: number; retryAfter?: number }>();
  const forgotten = new Set<string>();
  let accepted = 0;
  let url = '';

  async function handlePush(id: string, req: http.IncomingMessage, body: Buffer) {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const record: PushRequestRecord = {
      at: Date.now(),
      status: 0,
      ttl: header('ttl'),
      urgency: header('urgency'),
      topic: header('topic'),
      encoding: header('content-encoding'),
      bytes: body.length,
    };
    const list = requests.get(id) ?? [];
    list.push(record);
    requests.set(id, list);
    const fault = faults.get(id);
    if (fault && fault.times > 0) {
      fault.times -= 1;
      record.status = fault.status;
      return {
        status: fault.status,
        headers: fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
        text: 'scripted failure',
      };
    }
    if (forgotten.has(id)) {
      record.status = 404;
      return { status: 404, headers: {}, text: 'no such subscription' };
    }
    if (body.length > 4096) {
      record.status = 413;
      return { status: 413, headers: {}, text: 'payload too large' };
    }
    try {
      await model.handleNotification(
        id,
        {
          encoding: header('content-encoding'),
          authorization: header('authorization'),
          ttl: header('ttl'),
        },
        body,
      );
      record.status = 201;
      accepted += 1;
      return { status: 201, headers: {}, text: '' };
    } catch (error) {
      const expired = error instanceof SubscriptionExpiredError;
      record.status = expired ? 410 : 400;
      record.error = error instanceof Error ? error.message : String(error);
      return { status: record.status, headers: {}, text: record.error };
    }
  }

  async function control(method: string, path: string, body: Buffer) {
    if (method === 'GET' && path === '/control/stats')
      return { status: 200, body: { accepted, devices: requests.size } };
    const messagesOf = /^\/control\/messages\/([0-9a-f]{64})$/.exec(path);
    if (method === 'GET' && messagesOf)
      return {
        status: 200,
        body: { messages: model.getNotifications({ clientHash: messagesOf[1] ?? '' }).messages },
      };
    if (method === 'POST' && path === '/control/subscribe') {
      const input = JSON.parse(body.toString('utf8')) as {
        applicationServerKey: string;
        count: number;
      };
      const devices: StandInDevice[] = [];
      for (let i = 0; i < input.count; i += 1)
        devices.push(await subscribe(input.applicationServerKey));
      return { status: 200, body: { devices } };
    }
    return { status: 404, body: { error: 'unknown control call' } };
  }

  async function subscribe(applicationServerKey: string): Promise<StandInDevice> {
    const sub = await model.subscribe({ applicationServerKey, userVisibleOnly: 'true' });
    return {
      id: sub.clientHash,
      endpoint: `${url}/push/${sub.clientHash}`,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/control/')) {
        void control(req.method ?? '', req.url, Buffer.concat(chunks)).then((answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer.body));
        });
        return;
      }
      const match = DEVICE_PATH.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404).end();
        return;
      }
      void handlePush(match[1] ?? '', req, Buffer.concat(chunks)).then((answer) => {
        res.writeHead(answer.status, answer.headers).end(answer.text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${String(address.port)}`;

  return {
    url,
    subscribe,
    messages: (id) => model.getNotifications({ clientHash: id }).messages,
    requests: (id) => requests.get(id) ?? [],
    failNext(id, status, times, retryAfterSeconds) {
      faults.set(id, {
        status,
        times,
        ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}),
      });
    },
    expire: (id) => model.expireSubscription(id),
    forget: (id) => forgotten.add(id),
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
