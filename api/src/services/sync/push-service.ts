// POST /api/sync/push: one transaction per batch. In seq order: seq <= the device's last
// applied seq is a duplicate (acknowledged, no effect); a gap stops the batch; every other
// mutation is applied or, if it can never apply, rejected (recorded, acknowledged and
// returned so it cannot block the queue). The device's last applied seq advances in the
// same transaction as the effects, so a response lost after commit only causes duplicates.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import { databaseError } from '@rescuelog/db/errors';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  mutationSchema,
  type ParsedMutation,
  type RawMutation,
} from '@rescuelog/sync-protocol/sync/mutations';
import {
  mutationResultSchema,
  type MutationResult,
  type PushResponse,
} from '@rescuelog/sync-protocol/sync/push-pull';
import { REJECTION_MESSAGES, RejectionCode } from '@rescuelog/sync-protocol/sync/rejections';
import { MIN_SCHEMA_VERSION } from '@rescuelog/sync-protocol/sync/versions';
import { ApiError } from '../../lib/api-error';
import { toJsonValue } from '../../lib/json-value';
import { applyMutation, Rejection, type AuditWrite } from './apply-mutation';
import type { Actor } from './sync-access';
import { lockSyncWrites } from './sync-tables';

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface PushBatch {
  deviceId: string;
  mutations: RawMutation[];
}

export const DEVICE_USER_MISMATCH_MESSAGE =
  'This device is registered to another user; sign in as that user or reinstall the app.';
export const ACTOR_MISMATCH_MESSAGE =
  'These changes were made by another user; sign in as that user to send them.';

async function writeAudit(
  tx: Transaction<Database>,
  actor: Actor,
  origin: RequestOrigin,
  entry: AuditWrite,
  outcome: 'success' | 'denied' | 'failure',
): Promise<void> {
  await tx
    .insertInto('auditLog')
    .values({
      actorUserId: actor.id,
      action: entry.action,
      outcome,
      entityType: entry.entityType,
      entityId: entry.entityId,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: entry.details,
    })
    .execute();
}

/** Database refusals that no retry can fix (bad data, missing parent): the mutation is rejected. */
function permanentDatabaseRefusal(error: unknown): Rejection | undefined {
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

function validateMutation(raw: RawMutation): Rejection | { mutation: ParsedMutation } {
  if (raw.schemaVersion !== undefined && raw.schemaVersion < MIN_SCHEMA_VERSION) {
    return new Rejection(RejectionCode.SCHEMA_VERSION_UNSUPPORTED);
  }
  const parsed = mutationSchema.safeParse(raw);
  if (parsed.success) return { mutation: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return new Rejection(
    RejectionCode.VALIDATION_FAILED,
    `${where}${issue?.message ?? 'Invalid input'}`,
    {
      issues: parsed.error.issues
        .slice(0, 20)
        .map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    },
  );
}

const PERMISSION_CODES = new Set<RejectionCode>([RejectionCode.FORBIDDEN, RejectionCode.NOT_OWNER]);

/** Kept in sync_rejections with the data, audited (a permission refusal as a denial). */
async function recordRejection(
  tx: Transaction<Database>,
  actor: Actor,
  origin: RequestOrigin,
  deviceId: string,
  raw: RawMutation,
  rejection: Rejection,
): Promise<void> {
  await tx
    .insertInto('syncRejections')
    .values({
      deviceId,
      seq: raw.seq,
      mutationId: raw.mutationId,
      reason: rejection.code,
      details: {
        name: raw.name,
        message: rejection.message,
        ...rejection.details,
        args: toJsonValue(raw.args),
      } satisfies Record<string, JsonValue>,
    })
    .execute();
  const entityIds = Array.isArray(raw.entityIds)
    ? raw.entityIds.filter((x): x is string => typeof x === 'string')
    : [];
  await writeAudit(
    tx,
    actor,
    origin,
    {
      action: 'sync.rejected',
      entityType: raw.name,
      entityId: entityIds[0] ?? raw.mutationId,
      details: {
        mutationId: raw.mutationId,
        deviceId,
        seq: raw.seq,
        code: rejection.code,
        ...rejection.details,
      },
    },
    PERMISSION_CODES.has(rejection.code) ? 'denied' : 'failure',
  );
}

/**
 * The answer for a mutation the server has already handled. A rejection is answered again as
 * a rejection: when the first answer was lost, the device would otherwise drop the entry as a
 * duplicate, never show the rejection in its inbox and keep the rejected value on screen.
 */
async function replayedResult(
  tx: Transaction<Database>,
  deviceId: string,
  raw: { seq: number; mutationId: string },
): Promise<MutationResult> {
  // (device_id, seq) is indexed; the mutation id makes sure it is the same mutation.
  const rejected = await tx
    .selectFrom('syncRejections')
    .select(['reason', 'details'])
    .where('deviceId', '=', deviceId)
    .where('seq', '=', String(raw.seq))
    .where('mutationId', '=', raw.mutationId)
    .executeTakeFirst();
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

export async function pushBatch(
  db: Kysely<Database>,
  actor: Actor,
  origin: RequestOrigin,
  batch: PushBatch,
): Promise<PushResponse> {
  for (const m of batch.mutations) {
    if (m.deviceId !== batch.deviceId) {
      throw new ApiError(
        400,
        ErrorCode.VALIDATION_FAILED,
        'Every mutation must come from the device that pushes it',
      );
    }
    // Acknowledging nothing keeps another user's changes safe in the outbox until they sign in.
    if (m.actorUserId !== actor.id)
      throw new ApiError(403, ErrorCode.ACTOR_MISMATCH, ACTOR_MISMATCH_MESSAGE);
  }
  const ordered = [...batch.mutations].sort((a, b) => a.seq - b.seq);

  return db.transaction().execute(async (tx) => {
    await lockSyncWrites(tx);
    let device = await tx
      .selectFrom('devices')
      .selectAll()
      .where('deviceId', '=', batch.deviceId)
      .executeTakeFirst();
    if (!device) {
      device = await tx
        .insertInto('devices')
        .values({ deviceId: batch.deviceId, userId: actor.id, userAgent: origin.userAgent })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    if (device.userId !== actor.id)
      throw new ApiError(409, ErrorCode.DEVICE_USER_MISMATCH, DEVICE_USER_MISMATCH_MESSAGE);

    let last = Number(device.lastAppliedSeq);
    const results: MutationResult[] = [];
    for (const raw of ordered) {
      if (raw.seq <= last) {
        results.push(await replayedResult(tx, batch.deviceId, raw));
        continue;
      }
      if (raw.seq > last + 1) break;

      const seen = await tx
        .selectFrom('appliedMutations')
        .select('seq')
        .where('mutationId', '=', raw.mutationId)
        .executeTakeFirst();
      if (seen) {
        // The same mutation under a new seq (a client that renumbered its queue): no second effect.
        results.push(await replayedResult(tx, batch.deviceId, raw));
        last = raw.seq;
        continue;
      }

      const checked = validateMutation(raw);
      let rejection: Rejection | undefined = checked instanceof Rejection ? checked : undefined;
      let result: MutationResult | undefined;
      if (!(checked instanceof Rejection)) {
        await sql`savepoint sync_mutation`.execute(tx);
        try {
          const applied = await applyMutation({
            tx,
            actor,
            mutation: checked.mutation,
            audit: (entry) => writeAudit(tx, actor, origin, entry, 'success'),
          });
          await sql`release savepoint sync_mutation`.execute(tx);
          result = {
            seq: raw.seq,
            mutationId: raw.mutationId,
            status: 'applied',
            ...(applied.conflicts.length > 0 ? { conflicts: applied.conflicts } : {}),
          };
        } catch (error) {
          rejection = error instanceof Rejection ? error : permanentDatabaseRefusal(error);
          if (!rejection) throw error;
          await sql`rollback to savepoint sync_mutation`.execute(tx);
          await sql`release savepoint sync_mutation`.execute(tx);
        }
      }
      if (rejection) {
        await recordRejection(tx, actor, origin, batch.deviceId, raw, rejection);
        result = {
          seq: raw.seq,
          mutationId: raw.mutationId,
          status: 'rejected',
          code: rejection.code,
          message: rejection.message,
        };
      }
      if (!result) throw new Error('A mutation ended neither applied nor rejected');
      await tx
        .insertInto('appliedMutations')
        .values({ mutationId: raw.mutationId, deviceId: batch.deviceId, seq: raw.seq })
        .execute();
      results.push(result);
      last = raw.seq;
    }
    await tx
      .updateTable('devices')
      .set({ lastAppliedSeq: last, lastSeenAt: new Date() })
      .where('deviceId', '=', batch.deviceId)
      .execute();
    return { lastAppliedSeq: last, results };
  });
}
