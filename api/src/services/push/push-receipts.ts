// Receipts: the service worker reports "delivered" and "clicked" without a session (it may
// run while nobody is signed in on the page, and the push may wake a closed app), so each push
// carries a token that names its delivery and is signed by the server. HMAC-SHA-256 with a key
// derived (HKDF) from the session secret, so every instance of one deployment accepts the
// receipts of the others and the session secret itself never signs anything but sessions.
// A receipt proves only "this delivery reached a device": no expiry (a device may come online
// days later), and reporting it twice changes nothing.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const SIGNATURE_BYTES = 16;
const FORMAT = /^r1\.(\d{1,10})\.([A-Za-z0-9_-]{22})$/;

export type ReceiptCheck =
  { ok: true; deliveryId: number } | { ok: false; reason: 'malformed' | 'forged' };

export class PushReceipts {
  private readonly key: Buffer;

  constructor(sessionSecret: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', sessionSecret, 'rescuelog', 'web push receipt v1', 32),
    );
  }

  private signature(deliveryId: number): Buffer {
    return createHmac('sha256', this.key)
      .update(`r1.${String(deliveryId)}`)
      .digest()
      .subarray(0, SIGNATURE_BYTES);
  }

  /** The receipt a push for this delivery carries (under 40 characters). */
  sign(deliveryId: number): string {
    return `r1.${String(deliveryId)}.${this.signature(deliveryId).toString('base64url')}`;
  }

  verify(receipt: string): ReceiptCheck {
    const match = FORMAT.exec(receipt);
    if (!match) return { ok: false, reason: 'malformed' };
    const deliveryId = Number(match[1]);
    if (!Number.isSafeInteger(deliveryId) || deliveryId < 1 || deliveryId > 2_147_483_647)
      return { ok: false, reason: 'malformed' };
    const given = Buffer.from(match[2] ?? '', 'base64url');
    const expected = this.signature(deliveryId);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'forged' };
    return { ok: true, deliveryId };
  }
}
