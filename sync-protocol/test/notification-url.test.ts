// The notification link rule (notifications.ts isNotificationUrl) agrees with what the
// service worker does on a tap (client/push-subscription.ts clickTarget): a link the API
// accepts as a path opens this app at that path, one it accepts as an address opens that
// https address, on whatever origin the app is served from. The API tests hold the table of
// refused tricks; this checks the two rules cannot drift apart on generated links.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clickTarget } from '../src/client/push-subscription';
import { isNotificationUrl, notificationCreateSchema } from '../src/notifications';

const ORIGINS = ['https://rescue.example.org', 'http://127.0.0.1:5173'];

/** Links built from the pieces tricks are made of. */
const piece = fc.constantFrom(
  '/',
  '//',
  '\\',
  '@',
  ':',
  '.',
  '?',
  '#',
  '%2F',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u00a0',
  'cases',
  'evil.example',
  'https:',
  'http:',
  'javascript:',
  'data:',
  'HTTPS://',
  'x',
);
const link = fc.oneof(
  fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webPath().map((p) => `/${p.replace(/^\/+/, '')}`),
);

describe('isNotificationUrl', () => {
  it('accepts only links the worker opens as this app or as an https site', () => {
    fc.assert(
      fc.property(link, fc.constantFrom(...ORIGINS), (url, origin) => {
        if (!isNotificationUrl(url)) return;
        const target = clickTarget(url, origin);
        if (url.startsWith('/')) {
          // Opened as a window's address, the path stays on the app's origin…
          expect(target.kind).toBe('app');
          if (target.kind !== 'app') return;
          expect(new URL(target.path, origin).origin).toBe(origin);
          // …and it is where the link says (not the home screen a refused one falls back to).
          const named = new URL(url, origin);
          expect(target.path).toBe(`${named.pathname}${named.search}${named.hash}`);
        } else {
          expect(target.kind).toBe('external');
          if (target.kind === 'external') expect(new URL(target.href).protocol).toBe('https:');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('is the schema’s rule for the url field', () => {
    const base = { title: 't', message: 'm' };
    expect(notificationCreateSchema.safeParse({ ...base, url: '/cases' }).success).toBe(true);
    expect(
      notificationCreateSchema.safeParse({ ...base, url: 'javascript:alert(1)' }).success,
    ).toBe(false);
  });
});
