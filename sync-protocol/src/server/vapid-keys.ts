// VAPID key pairs (web push, RFC 8292), base64url as `web-push generate-vapid-keys` prints
// them and as VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY hold them (env.ts). Node only. One
// definition for the server's embedded key file (api/src/config.ts) and the test servers.
import { createECDH } from 'node:crypto';

/**
 * The same P-256 private key as 32 bytes: a shorter one (its leading zero bytes dropped, as
 * getPrivateKey() does for about one key in 256) is left-padded. web-push refuses to sign with
 * anything but 32 bytes, and VAPID_PRIVATE_KEY's check refuses it too.
 */
export function fullLengthPrivateKey(privateKey: string): string {
  const scalar = Buffer.from(privateKey, 'base64url');
  if (scalar.length >= 32) return privateKey;
  return Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url');
}

/** A new key pair; the private key always 32 bytes. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: fullLengthPrivateKey(ecdh.getPrivateKey().toString('base64url')),
  };
}

/** The public key (uncompressed P-256 point) of a private key. */
export function vapidPublicKeyOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

/**
 * The environment server mode needs for web push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY,
 * VAPID_SUBJECT; the embedded default makes its own): a new pair, as `web-push
 * generate-vapid-keys` would print. For servers started by tests and benchmarks.
 */
export function newVapidEnv(subject = 'mailto:ops@example.org'): Record<string, string> {
  const keys = generateVapidKeys();
  return {
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: subject,
  };
}
