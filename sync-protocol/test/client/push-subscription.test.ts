import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applicationServerKeyBytes,
  clickTarget,
  madeWithKey,
  subscriptionInput,
  type PushSubscriptionLike,
} from '../../src/client/push-subscription';
import { PUSH_SUBSCRIPTION_MESSAGES } from '../../src/notifications';

/** A P-256 public key as web-push keeps it: 65 raw bytes, base64url. */
function vapidPublicKey(): { base64url: string; raw: Buffer } {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(String(jwk.x), 'base64url'),
    Buffer.from(String(jwk.y), 'base64url'),
  ]);
  return { base64url: raw.toString('base64url'), raw };
}

function subscription(
  json: { endpoint?: string; keys?: Record<string, string> },
  key: Uint8Array | null = null,
): PushSubscriptionLike {
  return {
    endpoint: json.endpoint ?? '',
    options: { applicationServerKey: key ? Uint8Array.from(key).buffer : null },
    toJSON: () => json,
  };
}

describe('push subscription helpers', () => {
  it('decodes the base64url VAPID key to its 65 raw bytes', () => {
    const { base64url, raw } = vapidPublicKey();
    const bytes = applicationServerKeyBytes(base64url);
    expect(bytes.length).toBe(65);
    expect(Buffer.from(bytes).equals(raw)).toBe(true);
  });

  it('tells a subscription made with the current key from one made with another', () => {
    const current = vapidPublicKey();
    const old = vapidPublicKey();
    const json = { endpoint: 'https://push.example.net/a', keys: { p256dh: 'p', auth: 'a' } };
    expect(madeWithKey(subscription(json, current.raw), current.base64url)).toBe(true);
    expect(madeWithKey(subscription(json, old.raw), current.base64url)).toBe(false);
    expect(madeWithKey(subscription(json, null), current.base64url)).toBe(false);
  });

  it('turns a browser subscription into the §5 body, and refuses what the API would', () => {
    const ok = subscriptionInput(
      subscription({
        endpoint: 'https://push.example.net/send/abc',
        keys: { p256dh: 'BPk', auth: 'x1' },
      }),
      'Mozilla/5.0 test',
    );
    expect(ok).toEqual({
      ok: true,
      input: {
        endpoint: 'https://push.example.net/send/abc',
        p256dh: 'BPk',
        auth: 'x1',
        userAgent: 'Mozilla/5.0 test',
      },
    });
    expect(subscriptionInput(subscription({ endpoint: 'not a url', keys: {} }))).toEqual({
      ok: false,
      message: PUSH_SUBSCRIPTION_MESSAGES.endpoint,
    });
    expect(
      subscriptionInput(subscription({ endpoint: 'https://push.example.net/x', keys: {} })),
    ).toEqual({ ok: false, message: PUSH_SUBSCRIPTION_MESSAGES.keys });
  });
});

describe('where a notification click goes', () => {
  const origin = 'https://rescuelog.example.org';

  it('opens addresses of the app in the app, as a path', () => {
    expect(clickTarget(`${origin}/case-search?status=completed#top`, origin)).toEqual({
      kind: 'app',
      path: '/case-search?status=completed#top',
    });
    expect(clickTarget('/profile', origin)).toEqual({ kind: 'app', path: '/profile' });
    // Its dot segment gone, this path would read as the host evil.example.
    expect(clickTarget('/.//evil.example', origin)).toEqual({ kind: 'app', path: '/' });
    expect(clickTarget(null, origin)).toEqual({ kind: 'app', path: '/' });
  });

  it('opens another https site in a new window, and nothing else', () => {
    expect(clickTarget('https://weather.example.net/warnings', origin)).toEqual({
      kind: 'external',
      href: 'https://weather.example.net/warnings',
    });
    // Another port is another site.
    expect(clickTarget('https://rescuelog.example.org:8443/profile', origin)).toEqual({
      kind: 'external',
      href: 'https://rescuelog.example.org:8443/profile',
    });
    for (const unsafe of [
      'http://weather.example.net/warnings',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'intent://scan/#Intent;scheme=zxing;end',
      'http://rescuelog.example.org/profile',
    ]) {
      expect(clickTarget(unsafe, origin), unsafe).toEqual({ kind: 'app', path: '/' });
    }
  });
});
