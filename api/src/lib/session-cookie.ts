// The session cookie's value: "<session id>.<signature>", the signature being HMAC-SHA256 of
// the id under SESSION_SECRET, in base64 without padding. This is the format @fastify/cookie's
// signer wrote before decision 030, so sessions started before it stay valid.
// Verification compares in constant time and refuses anything malformed; a cookie signed
// with another secret (or a changed id or signature) names no session.
import {
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

/** Longer values are refused before any work (a real one is 32 + 1 + 43 characters). */
const MAX_COOKIE_LENGTH = 256;
const PADDING = /=+$/;

/** A new session id: 24 random bytes (192 bits), base64url. */
export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

export class SessionCookieSigner {
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** The cookie value for `sid`. */
  sign(sid: string): string {
    return `${sid}.${this.mac(sid)}`;
  }

  /** The session id `value` carries when its signature is ours; otherwise undefined. */
  verify(value: string): string | undefined {
    if (value.length > MAX_COOKIE_LENGTH) return undefined;
    const dot = value.lastIndexOf('.');
    if (dot <= 0 || dot === value.length - 1) return undefined;
    const sid = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.mac(sid), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return sid;
  }

  private mac(sid: string): string {
    return createHmac('sha256', this.key).update(sid).digest('base64').replace(PADDING, '');
  }
}
