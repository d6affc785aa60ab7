// One case by its human number (docs/decisions/007): the full record (case, vital signs,
// addenda) as the sync records, an administrator's unlock of a completed case, and the
// case's access history from the audit log.
import { sql, type Kysely } from 'kysely';
import type { AuditEntry, Database, JsonValue } from '@rescuelog/db/schema';
import {
  caseAuditActionLabel,
  type CaseAccessEntry,
  type CaseAccessHistory,
  type CaseRecordResponse,
} from '@rescuelog/sync-protocol/cases/api';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { caseAddendumRecordSchema } from '@rescuelog/sync-protocol/cases/case-addendum';
import { caseRecordSchema, type CaseRecord } from '@rescuelog/sync-protocol/cases/case-schema';
import { vitalSignRecordSchema } from '@rescuelog/sync-protocol/cases/vital-sign';
import { ApiError } from '../lib/api-error';
import type { RequestOrigin } from './sync/sync-audit';
import { beginSyncWrite, toWireRecord } from './sync/sync-tables';
import { caseRecord } from '@rescuelog/sync-protocol/cases/case';
import { caseAddendumRecord } from '@rescuelog/sync-protocol/cases/case-addendum';
import { vitalSignRecord } from '@rescuelog/sync-protocol/cases/vital-sign';

export const CASE_NOT_FOUND_MESSAGE = 'Case not found';
export const CASE_NOT_COMPLETED_MESSAGE =
  'Only a completed case can be unlocked; this case is already in progress.';

const caseNotFound = () => new ApiError(404, ErrorCode.NOT_FOUND, CASE_NOT_FOUND_MESSAGE);

/**
 * The case with its vital signs (voided ones too: they are part of the record) and addenda,
 * read from one snapshot. Undefined for an unknown or deleted case.
 */
export async function readCaseRecord(
  db: Kysely<Database>,
  caseNumber: string,
): Promise<CaseRecordResponse | undefined> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const row = await tx
        .selectFrom('cases')
        .selectAll()
        .where('caseId', '=', caseNumber)
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const vitals = await tx
        .selectFrom('vitalSigns')
        .selectAll()
        .where('caseId', '=', row.id)
        .where('deletedAt', 'is', null)
        .orderBy('timestamp')
        .orderBy('id')
        .execute();
      const addenda = await tx
        .selectFrom('caseAddenda')
        .selectAll()
        .where('caseId', '=', row.id)
        .where('deletedAt', 'is', null)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      return {
        case: caseRecordSchema.parse(toWireRecord(caseRecord, row)),
        vitalSigns: vitals.map((v) =>
          vitalSignRecordSchema.parse(toWireRecord(vitalSignRecord, v)),
        ),
        addenda: addenda.map((a) =>
          caseAddendumRecordSchema.parse(toWireRecord(caseAddendumRecord, a)),
        ),
      };
    });
}

/**
 * Reopens a completed case (status in_progress, completedAt cleared) with a sync write ticket
 * (its row locked), so the new version reaches every device through pull; the audit entry (with the
 * reason) is written in the same transaction.
 */
export async function unlockCase(
  db: Kysely<Database>,
  adminId: number,
  caseNumber: string,
  reason: string,
  origin: RequestOrigin,
): Promise<CaseRecord> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('cases')
      .selectAll()
      .where('caseId', '=', caseNumber)
      .where('deletedAt', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw caseNotFound();
    if (row.status !== 'completed')
      throw new ApiError(409, ErrorCode.CONFLICT, CASE_NOT_COMPLETED_MESSAGE);
    await beginSyncWrite(tx);
    const updated = await tx
      .updateTable('cases')
      .set({ status: 'in_progress', completedAt: null, updatedBy: adminId })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('auditLog')
      .values({
        actorUserId: adminId,
        action: 'case.unlock',
        outcome: 'success',
        entityType: 'case',
        entityId: row.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: {
          caseId: row.id,
          humanId: row.caseId,
          reason,
          completedAt: row.completedAt ? row.completedAt.toISOString() : null,
          version: updated.version,
        },
      })
      .execute();
    return caseRecordSchema.parse(toWireRecord(caseRecord, updated));
  });
}

/** The case's uuid, deleted cases included (their history still matters). */
export async function findCaseUuid(
  db: Kysely<Database>,
  caseNumber: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('cases')
    .select('id')
    .where('caseId', '=', caseNumber)
    .executeTakeFirst();
  return row?.id;
}

type HistoryRow = AuditEntry & { fullName: string | null; callSign: string | null };

const text = (value: JsonValue | undefined): string | null =>
  typeof value === 'string' ? value : null;

function toEntry(row: HistoryRow): CaseAccessEntry {
  const d = row.details;
  const fields = Array.isArray(d.fields)
    ? d.fields.filter((f): f is string => typeof f === 'string')
    : [];
  const code = text(d.code);
  const detail =
    row.action === 'sync.rejected'
      ? [row.entityType, code].filter((x) => x !== null).join(' ')
      : row.action === 'access.denied'
        ? code
        : text(d.detail);
  const fromDevice = d.source === 'device' || row.action.startsWith('sync.');
  return {
    id: String(row.id),
    action: row.action,
    label: caseAuditActionLabel(row.action),
    outcome: row.outcome,
    at: row.at.toISOString(),
    occurredAt: text(d.occurredAt),
    actor:
      row.actorUserId !== null && row.fullName !== null
        ? { id: row.actorUserId, fullName: row.fullName, callSign: row.callSign }
        : null,
    source: fromDevice ? 'device' : 'server',
    detail,
    fields,
    reason: text(d.reason),
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

/**
 * Every audit entry about the case, newest first: views, prints, PDFs and exports (from
 * devices and the server), edits, completion, addenda, vital signs, deletion, unlocks and
 * refusals. Entries about the case itself carry it as entity; those about its children or
 * refused changes carry details.caseId (both indexed).
 */
export async function readAccessHistory(
  db: Kysely<Database>,
  caseNumber: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<CaseAccessHistory> {
  const id = await findCaseUuid(db, caseNumber);
  if (id === undefined) throw caseNotFound();
  let query = db
    .selectFrom('auditLog as a')
    .leftJoin('users as u', 'u.id', 'a.actorUserId')
    .selectAll('a')
    .select(['u.fullName', 'u.callSign'])
    .where((eb) =>
      eb.or([
        eb.and([eb('a.entityType', '=', 'case'), eb('a.entityId', '=', id)]),
        eb.and([
          sql<boolean>`a.details ? 'caseId'`,
          eb(sql<string>`a.details->>'caseId'`, '=', id),
        ]),
      ]),
    );
  if (page.cursor !== undefined) query = query.where('a.id', '<', page.cursor);
  const rows = await query
    .orderBy('a.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    caseId: caseNumber,
    entries: shown.map(toEntry),
    nextCursor: more && last ? String(last.id) : null,
  };
}
