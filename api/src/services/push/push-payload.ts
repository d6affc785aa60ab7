// What one web push carries (sync-protocol pushPayloadSchema) and how it is sent: TTL and
// Urgency from the priority, a Topic per notification, and a body that fits the push
// services' 4,096-byte limit once encrypted (docs/decisions/028).
import type { NotificationPriority, PushPayload } from '@rescuelog/sync-protocol/notifications';
import type { PushContent } from '../../repositories/notification-queue-repository';

/**
 * aes128gcm (RFC 8188/8291) adds an 86-byte header (salt, record size, key id length, the
 * sender's 65-byte public key), a 1-byte padding delimiter and a 16-byte tag to the text; push
 * services accept at most 4,096 bytes, so the JSON may take 4,096 - 103 bytes.
 */
export const MAX_PAYLOAD_BYTES = 4096 - 86 - 1 - 16;

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

export interface DeliveryOptions {
  /** Seconds the push service keeps the message for a device that is offline. */
  ttlSeconds: number;
  urgency: Urgency;
}

const HOUR = 60 * 60;

/**
 * Critical: high urgency (delivered even on low battery) and a day to live; past that the
 * in-app list still has it, but a lock-screen alert about a day-old emergency misleads. High:
 * normal urgency, a day. Normal: three days. Low: low urgency (when the device is charging or
 * on Wi-Fi), a week: it is still worth reading late.
 */
export const DELIVERY_BY_PRIORITY: Record<NotificationPriority, DeliveryOptions> = {
  critical: { ttlSeconds: 24 * HOUR, urgency: 'high' },
  high: { ttlSeconds: 24 * HOUR, urgency: 'normal' },
  normal: { ttlSeconds: 3 * 24 * HOUR, urgency: 'normal' },
  low: { ttlSeconds: 7 * 24 * HOUR, urgency: 'low' },
};

/**
 * The Topic header: a push service keeps only the newest undelivered message per topic and
 * subscription, so a push repeated after a crash (at-least-once) replaces the first one instead
 * of showing twice. Base64url characters, at most 32.
 */
export function topicFor(notificationId: number): string {
  return `rescuelog-n${String(notificationId)}`;
}

export interface PayloadSource extends PushContent {
  receipt: string;
  test?: boolean;
}

const ELLIPSIS = '…';

function bytes(payload: PushPayload): number {
  return Buffer.byteLength(JSON.stringify(payload), 'utf8');
}

/** Cuts `text` to at most `units` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, units: number): string {
  if (text.length <= units) return text;
  let end = Math.max(0, units - ELLIPSIS.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/**
 * The JSON pushed to a device, at most MAX_PAYLOAD_BYTES. When title + message + URL are too
 * long together (long URLs, text that escapes to many bytes), it gives up first the sound,
 * then the URL (a click then opens the app, whose list still has the full notification and
 * its link), then shortens the message, then the title, each ending with "…". The receipt,
 * ids and styling are never cut: they are what makes the push work.
 */
export function buildPayload(source: PayloadSource): string {
  const payload: PushPayload = {
    v: 1,
    notificationId: source.notificationId,
    title: source.title,
    message: source.message,
    type: source.type,
    priority: source.priority,
    url: source.url,
    icon: source.icon,
    badge: source.badge,
    sound: source.sound,
    createdAt: source.createdAt.toISOString(),
    receipt: source.receipt,
    ...(source.test ? { test: true } : {}),
  };
  if (bytes(payload) <= MAX_PAYLOAD_BYTES) return JSON.stringify(payload);
  payload.sound = null;
  if (bytes(payload) <= MAX_PAYLOAD_BYTES) return JSON.stringify(payload);
  payload.url = null;
  for (const field of ['message', 'title'] as const) {
    let low = 0;
    let high = source[field].length;
    // The longest cut that fits (bytes grow with length, so a binary search finds it).
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      payload[field] = cut(source[field], mid);
      if (bytes(payload) <= MAX_PAYLOAD_BYTES) low = mid;
      else high = mid - 1;
    }
    payload[field] = cut(source[field], low);
    if (bytes(payload) <= MAX_PAYLOAD_BYTES) return JSON.stringify(payload);
  }
  return JSON.stringify(payload);
}
