// Upload quotas (docs/decisions/025). Three budgets, counted in the database so every
// instance sees the same numbers:
//   - per account: bytes the account holds (stored files, kept or not yet cleaned up);
//   - per client address: bytes uploaded from it within a window (a station shares one NAT
//     address, so this one is generous);
//   - pending accounts together: bytes held by every account still awaiting approval, so a
//     stream of fresh registrations cannot fill the disk between two clean-ups.
// A PUT reserves the bytes it may write when it spends its URL (the size it declared, or the
// room left up to the file limit), under one transaction-scoped advisory lock, so parallel
// PUTs cannot each see the same room. The reservation ends when the PUT ends, either way.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { UploadLimits } from '@rescuelog/sync-protocol/server/env';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { UPLOAD_MESSAGES } from '@rescuelog/sync-protocol/accounts/uploads';
import type { UserStatus } from '@rescuelog/sync-protocol/accounts/users';
import { ApiError } from '../lib/api-error';

export type UploadQuotaLimits = Pick<
  UploadLimits,
  'accountQuotaBytes' | 'addressQuotaBytes' | 'addressWindowHours' | 'pendingTotalBytes'
>;

/** A PUT that began this long ago and never ended (its process died) reserves nothing. */
export const RESERVATION_LIFETIME_MS = 60 * 60 * 1000;
/** How long a client is told to wait when pending accounts together are over their budget. */
const PENDING_RETRY_SECONDS = 60 * 60;
/** pg_advisory_xact_lock key for quota decisions ('upQu' in ASCII). */
const QUOTA_LOCK_KEY = 0x75705175;

export interface Uploader {
  userId: number;
  status: UserStatus;
  ip: string;
}

interface Usage {
  account: number;
  address: number;
  pending: number;
  /** When the oldest upload counted against the address leaves the window. */
  addressFreesAt: Date | null;
}

export async function readUsage(
  db: Kysely<Database> | Transaction<Database>,
  uploader: Uploader,
  limits: UploadQuotaLimits,
  now: Date,
): Promise<Usage> {
  const windowMs = limits.addressWindowHours * 60 * 60 * 1000;
  const addressSince = new Date(now.getTime() - windowMs);
  const reservedSince = new Date(now.getTime() - RESERVATION_LIFETIME_MS);
  const result = await sql<{
    account: string;
    address: string;
    pending: string;
    addressOldest: Date | string | null;
  }>`
    with held as (
      select u.owner_user_id, u.client_ip, coalesce(u.stored_at, u.claimed_at) as at,
             case when u.status = 'stored' then coalesce(u.size_bytes, 0) else u.reserved_bytes end as bytes
      from uploads u
      where u.status = 'stored' or (u.reserved_bytes > 0 and u.claimed_at > ${reservedSince})
    )
    select
      coalesce(sum(h.bytes) filter (where h.owner_user_id = ${uploader.userId}), 0)::text as account,
      coalesce(sum(h.bytes) filter (where h.client_ip = ${uploader.ip} and h.at > ${addressSince}), 0)::text as address,
      min(h.at) filter (where h.client_ip = ${uploader.ip} and h.at > ${addressSince}) as "addressOldest",
      coalesce(sum(h.bytes) filter (where owner.status = 'pending'), 0)::text as pending
    from held h join users owner on owner.id = h.owner_user_id
  `.execute(db);
  const row = result.rows[0];
  const oldest = row?.addressOldest ?? null;
  return {
    account: Number(row?.account ?? 0),
    address: Number(row?.address ?? 0),
    pending: Number(row?.pending ?? 0),
    addressFreesAt: oldest === null ? null : new Date(new Date(oldest).getTime() + windowMs),
  };
}

/**
 * The most bytes this uploader may still store, or the refusal that applies when that is
 * less than `wanted` (the declared size, or 1 byte when unknown).
 */
export function roomFor(
  usage: Usage,
  uploader: Uploader,
  limits: UploadQuotaLimits,
  wanted: number,
  now: Date,
): { room: number; refusal?: ApiError } {
  const account = limits.accountQuotaBytes - usage.account;
  const address = limits.addressQuotaBytes - usage.address;
  const pending =
    uploader.status === 'pending' ? limits.pendingTotalBytes - usage.pending : Infinity;
  const room = Math.max(0, Math.min(account, address, pending));
  if (wanted <= account && wanted <= address && wanted <= pending) return { room };
  if (wanted > account) return { room, refusal: accountQuotaReached() };
  if (wanted > address) {
    const freesAt = usage.addressFreesAt?.getTime() ?? now.getTime();
    return {
      room,
      refusal: quotaRetryLater(UPLOAD_MESSAGES.quotaAddress, freesAt - now.getTime()),
    };
  }
  return {
    room,
    refusal: quotaRetryLater(UPLOAD_MESSAGES.quotaPending, PENDING_RETRY_SECONDS * 1000),
  };
}

export const accountQuotaReached = () =>
  new ApiError(413, ErrorCode.UPLOAD_QUOTA, UPLOAD_MESSAGES.quotaAccount);

function quotaRetryLater(message: string, waitMs: number): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(
    429,
    ErrorCode.UPLOAD_QUOTA,
    message,
    { retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** Refuses a new upload URL when the uploader has no room left at all. */
export async function assertRoomForNewUpload(
  db: Kysely<Database>,
  uploader: Uploader,
  limits: UploadQuotaLimits,
  now = new Date(),
): Promise<void> {
  const usage = await readUsage(db, uploader, limits, now);
  const { refusal } = roomFor(usage, uploader, limits, 1, now);
  if (refusal) throw refusal;
}

/** Serialises quota decisions across connections and instances for one transaction. */
export async function lockQuota(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${QUOTA_LOCK_KEY})`.execute(trx);
}
