// What a sync request writes to the audit log: who asked from where (the pull's entry and
// the push's), and the push's entries, buffered and inserted together before it commits.
import type { Transaction } from 'kysely';
import type { Database, JsonValue, NewAuditEntry } from '@rescuelog/db/schema';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import { insertAuditRows } from './push-bookkeeping';

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** One audit entry as the push's steps describe it (the actor and origin are the push's). */
export interface AuditWrite {
  action: string;
  entityType: string;
  entityId: string;
  details: Record<string, JsonValue>;
}

export type AuditOutcome = 'success' | 'denied' | 'failure';

/**
 * A push's audit entries, inserted together before it commits: one statement for the batch
 * instead of one per mutation. Entries of a mutation that is rolled back to its savepoint are
 * dropped with it. An access event's entry waits here too: the batch's records answer
 * whether one was recorded (batch-records.ts accessSeen).
 */
export interface AuditBuffer {
  rows: NewAuditEntry[];
}
const auditBuffers = new WeakMap<Transaction<Database>, AuditBuffer>();

/** Starts buffering the push's audit entries (until endAuditBuffer). */
export function startAuditBuffer(tx: Transaction<Database>): AuditBuffer {
  const buffer: AuditBuffer = { rows: [] };
  auditBuffers.set(tx, buffer);
  return buffer;
}

/** Stops buffering; returns the entries still waiting, for the push's closing statement. */
export function endAuditBuffer(tx: Transaction<Database>, buffer: AuditBuffer): NewAuditEntry[] {
  auditBuffers.delete(tx);
  return buffer.rows.splice(0);
}

/** Writes what the push's buffer holds, in order (before commit, or before a savepoint). */
export async function flushAudit(tx: Transaction<Database>): Promise<void> {
  const buffer = auditBuffers.get(tx);
  if (buffer && buffer.rows.length > 0) await insertAuditRows(tx, buffer.rows.splice(0));
}

export function auditRow(
  actor: Actor,
  origin: RequestOrigin,
  entry: AuditWrite,
  outcome: AuditOutcome,
): NewAuditEntry {
  return {
    actorUserId: actor.id,
    action: entry.action,
    outcome,
    entityType: entry.entityType,
    entityId: entry.entityId,
    ip: origin.ip,
    userAgent: origin.userAgent,
    details: entry.details,
  };
}

/** Buffered while the push buffers (startAuditBuffer), else inserted now. */
export async function writeAudit(
  tx: Transaction<Database>,
  actor: Actor,
  origin: RequestOrigin,
  entry: AuditWrite,
  outcome: AuditOutcome,
): Promise<void> {
  const row = auditRow(actor, origin, entry, outcome);
  const buffer = auditBuffers.get(tx);
  if (buffer) buffer.rows.push(row);
  else await insertAuditRows(tx, [row]);
}
