// The signed-in user's devices for web push (spec §3 push_subscriptions, §5): register (an
// upsert by endpoint, always for the signed-in user), list, forget, and a test push.
import type { Kysely } from 'kysely';
import type { Database, PushSubscription } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  PUSH_SUBSCRIPTION_MESSAGES,
  type pushSubscriptionSchema,
} from '@rescuelog/sync-protocol/notifications';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import * as repo from '../repositories/push-subscriptions-repository';
import { checkEndpoint, type EndpointPolicy } from './push/endpoint-policy';
import { mapLimited } from '../lib/map-limited';
import { DELIVERY_BY_PRIORITY, buildPayload } from './push/push-payload';
import type { PushSender } from './push/push-sender';

export interface SubscriptionItem {
  id: number;
  endpoint: string;
  userAgent: string | null;
  createdAt: string;
}

function toItem(row: PushSubscription): SubscriptionItem {
  return {
    id: row.id,
    endpoint: row.endpoint,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, ErrorCode.VALIDATION_FAILED, message, {
    fieldErrors: { [field]: [message] },
  });
}

/** A base64url value of exactly `length` bytes (optionally starting with `first`). */
function isKey(value: string, length: number, first?: number): boolean {
  if (!/^[A-Za-z0-9_-]+=*$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64url');
  return decoded.length === length && (first === undefined || decoded[0] === first);
}

export async function registerSubscription(
  db: Kysely<Database>,
  userId: number,
  input: z.output<typeof pushSubscriptionSchema>,
  policy: EndpointPolicy,
  userAgentHeader: string | undefined,
) {
  const refused = checkEndpoint(input.endpoint, policy);
  if (refused !== undefined) throw invalid('endpoint', refused);
  // RFC 8291: an uncompressed P-256 point and a 16-byte authentication secret.
  if (!isKey(input.p256dh, 65, 0x04)) throw invalid('p256dh', PUSH_SUBSCRIPTION_MESSAGES.keys);
  if (!isKey(input.auth, 16)) throw invalid('auth', PUSH_SUBSCRIPTION_MESSAGES.keys);
  const { row, movedFromUserId } = await repo.upsertSubscription(db, userId, {
    endpoint: input.endpoint,
    p256dh: input.p256dh,
    auth: input.auth,
    userAgent: (input.userAgent ?? userAgentHeader ?? null)?.slice(0, 512) ?? null,
  });
  return { subscription: toItem(row), movedFromUserId };
}

export async function listUserSubscriptions(db: Kysely<Database>, userId: number) {
  return (await repo.listSubscriptions(db, userId)).map(toItem);
}

export const removeSubscription = repo.deleteSubscription;

export const TEST_PUSH = {
  title: 'Test notification',
  message: 'Notifications reach this device.',
} as const;

/**
 * Sends a test push to each of the user's devices now (not through the queue: the user is
 * waiting for it); a device whose push service says it is gone is forgotten. Returns how many
 * devices' push services accepted it.
 */
export async function sendTestPush(
  db: Kysely<Database>,
  sender: PushSender,
  userId: number,
): Promise<number> {
  const devices = await repo.listSubscriptions(db, userId);
  const payload = buildPayload({
    notificationId: 0,
    title: TEST_PUSH.title,
    message: TEST_PUSH.message,
    type: 'system',
    priority: 'normal',
    url: null,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    sound: null,
    createdAt: new Date(),
    receipt: '',
    test: true,
  });
  const results = await mapLimited(devices, 8, async (device) => {
    const result = await sender.send(device, payload, {
      ...DELIVERY_BY_PRIORITY.normal,
      ttlSeconds: 60 * 60,
    });
    if (result.outcome === 'gone') await repo.deleteSubscriptionById(db, device.id);
    return result.outcome === 'sent';
  });
  return results.filter(Boolean).length;
}
