// A push's refused mutations: what the server keeps of each (sync_rejections, within the
// user's quota, audited), how a database refusal becomes a rejection, and the answer to a
// mutation handled before (a rejection is answered again as one).
import { sql, type Transaction } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import { databaseError } from '@rescuelog/db/errors';
import {
  mutationResultSchema,
  type MutationResult,
} from '@rescuelog/sync-protocol/platform/push-pull';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import type { RawMutation } from '@rescuelog/sync-protocol/platform/envelope';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import {
  Rejection,
  REJECTION_MESSAGES,
  RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import { setAsideArgsSchema } from '@rescuelog/sync-protocol/platform/set-aside';
import { uuidSchema } from '@rescuelog/sync-protocol/platform/values';
import { boundedJsonValue, toJsonValue } from '../../lib/json-value';
import { replayKey, type StoredRejections } from './push-bookkeeping';
import { writeAudit, type RequestOrigin } from './sync-audit';

/** A stored rejection keeps at most this much of the refused args (the device keeps all of it). */
export const REJECTION_ARGS_LIMIT_BYTES = 64 * 1024;
/**
 * What one user's stored rejections may hold in all. Past it, a new rejection is still
 * recorded (code, message, mutation id: what the audit and the device need) but without its
 * args: a device that keeps sending refused data cannot fill the server's disk.
 */
export const REJECTION_QUOTA_BYTES_PER_USER = 8 * 1024 * 1024;

/**
 * The bytes the user's stored rejections hold (all their devices): read once per push, at
 * its first rejection, then counted up as the push stores more.
 */
export class RejectionQuota {
  private bytes: number | null = null;

  constructor(
    private readonly tx: Transaction<Database>,
    private readonly userId: number,
  ) {}

  async full(): Promise<boolean> {
    if (this.bytes === null) {
      const { rows } = await sql<{ bytes: string | number | null }>`
        select coalesce(sum(pg_column_size(r.details)), 0) as bytes
        from sync_rejections r join devices d on d.device_id = r.device_id
        where d.user_id = ${this.userId}`.execute(this.tx);
      this.bytes = Number(rows[0]?.bytes ?? 0);
    }
    return this.bytes >= REJECTION_QUOTA_BYTES_PER_USER;
  }

  add(details: JsonValue): void {
    this.bytes = (this.bytes ?? 0) + Buffer.byteLength(JSON.stringify(details));
  }
}

/** Where a push keeps its rejections: its transaction, who pushes from where, the quota. */
export interface RejectionScope {
  tx: Transaction<Database>;
  registry: Registry;
  actor: Actor;
  origin: RequestOrigin;
  deviceId: string;
  quota: RejectionQuota;
}

/** Database refusals that no retry can fix (bad data, missing parent): the mutation is rejected. */
export function permanentDatabaseRefusal(error: unknown): Rejection | undefined {
  const info = databaseError(error);
  if (!info) return undefined;
  if (info.code === '23503')
    return new Rejection(
      RejectionCode.NOT_FOUND,
      'A record it refers to does not exist on the server.',
      { constraint: info.constraint ?? null },
    );
  if (info.code === '23505')
    return new Rejection(RejectionCode.HUMAN_ID_COLLISION, REJECTION_MESSAGES.HUMAN_ID_COLLISION, {
      constraint: info.constraint ?? null,
    });
  if (info.code.startsWith('22') || info.code.startsWith('23')) {
    return new Rejection(RejectionCode.VALIDATION_FAILED, REJECTION_MESSAGES.VALIDATION_FAILED, {
      sqlstate: info.code,
      constraint: info.constraint ?? null,
    });
  }
  return undefined;
}

const PERMISSION_CODES = new Set<string>([RejectionCode.FORBIDDEN, RejectionCode.NOT_OWNER]);

/**
 * The root record a refused mutation is about, as `{ <rootKind>Id: id }`: a refused change
 * to a root record or one of its children (or an access record of it) belongs in the root
 * record's access history, which finds entries by details.<rootKind>Id.
 */
function rootRecordOf(registry: Registry, raw: RawMutation): Record<string, string> {
  const mutator = registry.mutator(raw.name);
  const args: unknown = raw.args;
  if (!mutator || args === null || typeof args !== 'object') return {};
  const def = registry.get(mutator.kind);
  const root = def.parent ? registry.get(def.parent.kind) : def;
  const key = def.parent?.column ?? `${root.kind}Id`;
  const value =
    key in args
      ? (args as Record<string, unknown>)[key]
      : def.parent
        ? undefined
        : 'id' in args
          ? args.id
          : undefined;
  const id = uuidSchema.safeParse(value);
  return id.success ? { [`${root.kind}Id`]: id.data } : {};
}

/** Kept in sync_rejections with the data, audited (a permission refusal as a denial). */
export async function recordRejection(
  scope: RejectionScope,
  raw: RawMutation,
  rejection: Rejection,
): Promise<void> {
  const { tx, quota, deviceId } = scope;
  const details: Record<string, JsonValue> = {
    name: raw.name,
    message: rejection.message,
    ...(toJsonValue(rejection.details) as Record<string, JsonValue>),
    args: (await quota.full())
      ? { omitted: 'quota', quotaBytes: REJECTION_QUOTA_BYTES_PER_USER }
      : boundedJsonValue(raw.args, REJECTION_ARGS_LIMIT_BYTES),
  };
  await tx
    .insertInto('syncRejections')
    .values({ deviceId, seq: raw.seq, mutationId: raw.mutationId, reason: rejection.code, details })
    .execute();
  quota.add(details);
  const entityIds = Array.isArray(raw.entityIds)
    ? raw.entityIds.filter((x): x is string => typeof x === 'string')
    : [];
  await writeAudit(
    tx,
    scope.actor,
    scope.origin,
    {
      action: 'sync.rejected',
      entityType: raw.name,
      entityId: entityIds[0] ?? raw.mutationId,
      details: {
        mutationId: raw.mutationId,
        deviceId,
        seq: raw.seq,
        code: rejection.code,
        ...rootRecordOf(scope.registry, raw),
        ...(toJsonValue(rejection.details) as Record<string, JsonValue>),
      },
    },
    PERMISSION_CODES.has(rejection.code) ? 'denied' : 'failure',
  );
}

/**
 * A set-aside marker: the change it carries is kept in sync_rejections under the marker's
 * seq and id (the quota applies), with its own id and what it waited behind, and audited.
 */
export async function recordSetAside(scope: RejectionScope, marker: ParsedMutation): Promise<void> {
  const carried = setAsideArgsSchema.parse(marker.args);
  const change: RawMutation = {
    ...marker,
    name: carried.name,
    args: carried.args,
    entityIds: carried.entityIds.slice(0, 20),
  };
  const rejection = new Rejection(carried.code, carried.reason ?? undefined, {
    setAsideMutationId: carried.mutationId,
    heldBehind: carried.heldBehind,
    baseVersion: carried.baseVersion,
    savedAt: carried.clientTime,
  });
  await recordRejection(scope, change, rejection);
}

/**
 * The answer for a mutation the server has already handled. A rejection is answered again as
 * a rejection: when the first answer was lost, the device would otherwise drop the entry as a
 * duplicate, never show the rejection in its inbox and keep the rejected value on screen.
 */
export function replayedResult(
  rejections: StoredRejections,
  raw: { seq: number; mutationId: string },
): MutationResult {
  const rejected = rejections.get(replayKey(raw));
  if (!rejected) return { seq: raw.seq, mutationId: raw.mutationId, status: 'duplicate' };
  const code = mutationResultSchema.shape.code.safeParse(rejected.reason);
  const message = rejected.details.message;
  return {
    seq: raw.seq,
    mutationId: raw.mutationId,
    status: 'rejected',
    ...(code.success && code.data !== undefined ? { code: code.data } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}
