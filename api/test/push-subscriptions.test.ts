// Push subscriptions: bad input (spec §5, issue 16 "Bad input") on the production endpoint
// policy, where the server must never become a request forwarder; the connect-time address
// check; the payload's size limit; the receipt signature. Nothing here sends a push anywhere.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUSH_SUBSCRIPTION_MESSAGES,
  pushPayloadSchema,
} from '@rescuelog/sync-protocol/notifications';
import {
  EndpointAddressError,
  PRODUCTION_ENDPOINT_POLICY,
  checkEndpoint,
  guardedLookup,
  isPublicAddress,
} from '../src/services/push/endpoint-policy';
import { MAX_PAYLOAD_BYTES, buildPayload } from '../src/services/push/push-payload';
import { PushReceipts } from '../src/services/push/push-receipts';
import { PushSender, type PushResult } from '../src/services/push/push-sender';
import { generateVapidKeys } from '@rescuelog/sync-protocol/server/vapid-keys';
import { startPushService } from './push-service';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

const P256DH = Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url');
const AUTH = randomBytes(16).toString('base64url');

describe('registering a push subscription', () => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    t = await build();
    client = await loginAs(t, await t.createUser({ fullName: 'Pat Phone' }));
  });
  afterAll(() => t.close());

  async function refused(body: Record<string, unknown>, message: string, field: string) {
    const res = await client.post('/api/user/push-subscriptions', body);
    expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    const error = (await res.json()) as {
      code: string;
      error: string;
      fieldErrors: Record<string, string[]>;
    };
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.error).toBe(message);
    expect(error.fieldErrors[field]).toContain(message);
  }

  it('refuses endpoints that are not https, name this network, or are too long, with the §5 messages', async () => {
    const keys = { p256dh: P256DH, auth: AUTH };
    const M = PUSH_SUBSCRIPTION_MESSAGES;
    const cases: Array<[string, string]> = [
      ['not a url', M.endpoint],
      ['http://push.example.org/abc', M.endpointNotHttps],
      ['ftp://push.example.org/abc', M.endpointNotHttps],
      ['https://user:pw@push.example.org/abc', M.endpoint],
      ['https://127.0.0.1/push', M.endpointPrivate],
      ['https://0x7f.1/push', M.endpointPrivate],
      ['https://2130706433/push', M.endpointPrivate],
      ['https://10.1.2.3/push', M.endpointPrivate],
      ['https://172.16.0.9/push', M.endpointPrivate],
      ['https://192.168.1.1/push', M.endpointPrivate],
      ['https://169.254.169.254/latest/meta-data', M.endpointPrivate],
      ['https://100.64.0.1/push', M.endpointPrivate],
      ['https://0.0.0.0/push', M.endpointPrivate],
      ['https://[::1]/push', M.endpointPrivate],
      ['https://[::ffff:127.0.0.1]/push', M.endpointPrivate],
      ['https://[fd12:3456::1]/push', M.endpointPrivate],
      ['https://[fe80::1]/push', M.endpointPrivate],
      ['https://localhost/push', M.endpointPrivate],
      ['https://api.localhost/push', M.endpointPrivate],
      ['https://db/push', M.endpointPrivate],
      ['https://printer.local/push', M.endpointPrivate],
      ['https://metadata.google.internal/push', M.endpointPrivate],
      ['https://fcm.googleapis.com:8443/fcm/send/x', M.endpointPrivate],
      [`https://fcm.googleapis.com/fcm/send/${'x'.repeat(2030)}`, M.endpointTooLong],
    ];
    for (const [endpoint, message] of cases)
      await refused({ endpoint, ...keys }, message, 'endpoint');
    await refused({ p256dh: P256DH, auth: AUTH }, M.endpoint, 'endpoint');
    await refused(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/a', auth: AUTH },
      M.keys,
      'p256dh',
    );
    await refused(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/a', p256dh: '', auth: AUTH },
      M.keys,
      'p256dh',
    );
    await refused(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/a', p256dh: 'abc', auth: AUTH },
      M.keys,
      'p256dh',
    );
    await refused(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/a', p256dh: P256DH, auth: 'short' },
      M.keys,
      'auth',
    );
    expect(await t.db.selectFrom('pushSubscriptions').select('id').execute()).toEqual([]);
  });

  it("never takes a user from the body: the subscription is always the signed-in user's", async () => {
    const other = await t.createUser();
    const res = await client.post('/api/user/push-subscriptions', {
      endpoint: 'https://fcm.googleapis.com/fcm/send/someone-elses',
      p256dh: P256DH,
      auth: AUTH,
      userId: other.row.id,
    });
    expect(res.status).toBe(400);
    expect(await t.db.selectFrom('pushSubscriptions').select('id').execute()).toEqual([]);
    expect((await t.client().post('/api/user/push-subscriptions', {})).status).toBe(401);
  });

  it('stores a public push service endpoint once per endpoint, with the device name', async () => {
    const body = {
      endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/gAAAA-device',
      p256dh: P256DH,
      auth: AUTH,
    };
    const first = await client.post('/api/user/push-subscriptions', body, {
      headers: { 'user-agent': 'Firefox on the rescue tablet' },
    });
    expect(first.status).toBe(201);
    const again = await client.post('/api/user/push-subscriptions', {
      ...body,
      userAgent: 'Renamed',
    });
    expect(again.status).toBe(201);
    const list = (await (await client.get('/api/user/push-subscriptions')).json()) as {
      subscriptions: Array<{ endpoint: string; userAgent: string | null }>;
    };
    expect(list.subscriptions).toEqual([
      expect.objectContaining({ endpoint: body.endpoint, userAgent: 'Renamed' }),
    ]);
    const notAString = await client.delete('/api/user/push-subscriptions', { endpoint: 5 });
    expect(notAString.status).toBe(400);
  });
});

describe('the connect-time address check', () => {
  it('knows public from private addresses, IPv4-mapped ones included', () => {
    for (const address of ['8.8.8.8', '142.250.1.1', '2a00:1450:4001::1'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '::1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      'fd00::1',
      'fe80::1',
      '::',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses at connect time a name that resolves to a private address', async () => {
    const lookup = guardedLookup(PRODUCTION_ENDPOINT_POLICY);
    const error = await new Promise<Error | null>((resolve) =>
      lookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error).toBeInstanceOf(EndpointAddressError);
    // The test-only policy lets the stand-in on 127.0.0.1 through, nothing else.
    const testing = guardedLookup({ allowLoopback: true });
    const address = await new Promise<string>((resolve, reject) =>
      testing('localhost', { family: 4 }, (err, value) =>
        err ? reject(err) : resolve(String(value)),
      ),
    );
    expect(address).toBe('127.0.0.1');
    expect(checkEndpoint('http://127.0.0.1:9999/push/x', { allowLoopback: true })).toBeUndefined();
    expect(checkEndpoint('http://10.0.0.1/push/x', { allowLoopback: true })).toBe(
      PUSH_SUBSCRIPTION_MESSAGES.endpointNotHttps,
    );
    expect(checkEndpoint('http://127.0.0.1:9999/push/x', PRODUCTION_ENDPOINT_POLICY)).toBe(
      PUSH_SUBSCRIPTION_MESSAGES.endpointNotHttps,
    );
  });
});

describe('the sender', () => {
  it('refuses at connect time, past the registration check, a name resolving to a private address', async () => {
    const push = await startPushService();
    const sender = new PushSender({
      vapid: { ...generateVapidKeys(), subject: 'mailto:ops@example.org' },
      policy: PRODUCTION_ENDPOINT_POLICY,
    });
    try {
      // As if an endpoint had got past checkEndpoint (a public name that rebinds later).
      const post = (
        sender as unknown as {
          post(url: URL, headers: Record<string, string>, body: Buffer | null): Promise<PushResult>;
        }
      ).post.bind(sender);
      const port = new URL(push.url).port;
      const result = await post(
        new URL(`http://localhost:${port}/push/${'a'.repeat(64)}`),
        {},
        null,
      );
      expect(result).toMatchObject({
        outcome: 'failed',
        error: expect.stringMatching(/not a public address/),
      });
      expect(push.requests('a'.repeat(64))).toEqual([]);
      // And the registration check runs again before every send.
      const refused = await sender.send(
        { endpoint: `${push.url}/push/${'a'.repeat(64)}`, p256dh: P256DH, auth: AUTH },
        '{}',
        { ttlSeconds: 60, urgency: 'normal' },
      );
      expect(refused).toMatchObject({
        outcome: 'failed',
        error: PUSH_SUBSCRIPTION_MESSAGES.endpointNotHttps,
      });
    } finally {
      sender.close();
      await push.close();
    }
  });
});

describe('the push payload', () => {
  const base = {
    notificationId: 7,
    type: 'general' as const,
    priority: 'normal' as const,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    createdAt: new Date('2026-11-26T10:00:00Z'),
    receipt: 'r1.1.AAAAAAAAAAAAAAAAAAAAAA',
  };

  it('is the whole notification when it fits', () => {
    const text = buildPayload({
      ...base,
      title: 'T',
      message: 'M',
      url: 'https://x.org/',
      sound: 's',
    });
    expect(pushPayloadSchema.parse(JSON.parse(text))).toMatchObject({
      title: 'T',
      message: 'M',
      url: 'https://x.org/',
      sound: 's',
    });
  });

  it('gives up the sound, then the URL, then shortens the message and the title to fit', () => {
    const text = buildPayload({
      ...base,
      title: '\u0001'.repeat(400),
      message: `${'\u0001'.repeat(600)}🚑🚑`,
      url: `https://x.org/${'a'.repeat(2000)}`,
      sound: 'siren',
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const payload = pushPayloadSchema.parse(JSON.parse(text));
    expect(payload).toMatchObject({ url: null, sound: null, receipt: base.receipt });
    expect(payload.message.endsWith('…')).toBe(true);
    expect(payload.title).toBe('\u0001'.repeat(400));
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_PAYLOAD_BYTES - 12);
  });
});

describe('receipts', () => {
  it('are signed per deployment and name one delivery', () => {
    const receipts = new PushReceipts('a'.repeat(40));
    const token = receipts.sign(42);
    expect(token.length).toBeLessThan(64);
    expect(receipts.verify(token)).toEqual({ ok: true, deliveryId: 42 });
    expect(new PushReceipts('b'.repeat(40)).verify(token)).toEqual({ ok: false, reason: 'forged' });
    expect(receipts.verify(token.replace('r1.42.', 'r1.43.'))).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(receipts.verify('r1.42')).toEqual({ ok: false, reason: 'malformed' });
    expect(receipts.verify(`r1.99999999999.${token.split('.')[2] ?? ''}`)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});
