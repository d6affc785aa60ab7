// Every change a case screen makes goes through here, on the kit's one write path
// (lib/records/record-writes.ts: create and save fields, checked by the case's definition)
// and saveLocalChange for the case's own mutations (complete, addenda, readings, access):
// one synced mutation per change, saved on the device (domain row + outbox entry in one
// IndexedDB transaction) and pushed later by the sync engine. Nothing waits for the network.
import type { CaseField, CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { caseRecord } from '@rescuelog/sync-protocol/cases/case';
import { caseHoldsNothing } from '@rescuelog/sync-protocol/cases/untouched';
import { jsonValueSchema } from '@rescuelog/sync-protocol/platform/values';
import type { z } from 'zod';
import type { CaseAccessAction } from '@rescuelog/sync-protocol/cases/case';
import type { VitalSignStatus, VitalSignType } from '@rescuelog/sync-protocol/cases/clinical';
import { rememberAuthor } from '@rescuelog/sync-protocol/client/device-store';
import {
  createRecord,
  newRecordId as newId,
  saveRecordFields,
  validateRecordFields,
} from '@/lib/records/record-writes';
import { getSyncSession, requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';

import type { LocalCase } from './use-case';

/**
 * Creates a case on the device with a device-generated case number and returns it. The
 * responder fields start as the signed-in responder (a sensible default they can change).
 */
export async function createCase(
  initial: CaseFields = {},
): Promise<{ id: string; caseId: string }> {
  const { id, humanId } = await createRecord('case', initial);
  if (!humanId) throw new Error('A case has a case number');
  return { id, caseId: humanId };
}

/**
 * Leaving a case that holds nothing but what New Case put there discards it (issue 37,
 * cases/untouched.ts): nothing is kept and it never counts. Returns whether it was discarded.
 * A case with anything written into it, or one this device does not hold, is left alone.
 */
export async function discardCaseIfUntouched(id: string): Promise<boolean> {
  const session = getSyncSession();
  if (!session) return false;
  const db = session.db;
  const row = await db.records('case').get(id);
  if (!row || row.deletedAt || row.userId !== session.userId) return false;
  const [readings, addenda] = await Promise.all([
    db.records('vitalSign').where('caseId').equals(id).count(),
    db.records('caseAddendum').where('caseId').equals(id).count(),
  ]);
  if (!caseHoldsNothing(row, { readings, addenda })) return false;
  await saveLocalChange({
    name: 'case.discard',
    args: { id },
    baseVersion: typeof row.version === 'string' ? row.version : null,
    actorUserId: session.userId,
  });
  return true;
}

export type CaseFieldError = { field: CaseField; message: string };

/** Checks values against the synced schema without saving (the controls show the message). */
export function validateCaseFields(fields: CaseFields): CaseFieldError[] {
  return Object.entries(validateRecordFields(caseRecord, fields)).map(([field, message]) => ({
    field: field as CaseField,
    message: message ?? '',
  }));
}

/**
 * Saves changed fields of an in-progress case (per-field last write wins on the server).
 * `record.version` is the server version this edit builds on (null if never pulled).
 * Throws if a value does not fit the schema (callers validate first) or the case is locked.
 */
export async function saveCaseFields(
  record: Pick<LocalCase, 'id' | 'version' | 'status'>,
  fields: CaseFields,
): Promise<void> {
  await saveRecordFields('case', record, fields);
}

/** Locks the case (callers run the completion check first; the server checks again). */
export async function completeCase(
  record: Pick<LocalCase, 'id' | 'version'>,
  completedAt: Date = new Date(),
): Promise<void> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'case.complete',
    args: { id: record.id, completedAt: completedAt.toISOString() },
    baseVersion: record.version ?? null,
    actorUserId: session.userId,
  });
}

export interface AddendumChange {
  field: CaseField;
  before: unknown;
  after: unknown;
}

/** Who signs an addendum: the signed-in user's profile. */
export interface AddendumAuthor {
  fullName: string;
  callSign: string | null;
}

/** A correction to a completed case: who (the signed-in user), when, why, and each field's
 * value before and after. Device and server apply the `after` values to the case. The
 * device shows `author` on its pending addendum; the server stamps the name it holds. */
export async function addCaseAddendum(
  record: Pick<LocalCase, 'id' | 'version'>,
  reason: string,
  changes: AddendumChange[],
  author: AddendumAuthor,
): Promise<string> {
  const session = requireSyncSession();
  const id = newId();
  await rememberAuthor(session.db, author);
  // Values as JSON (dates as ISO strings); a missing value is null.
  const json = (v: unknown): z.core.util.JSONType =>
    v === undefined ? null : jsonValueSchema.parse(JSON.parse(JSON.stringify(v)));
  await saveLocalChange({
    name: 'case.addendum',
    args: {
      id,
      caseId: record.id,
      reason,
      changes: changes.map((c) => ({
        field: c.field,
        before: json(c.before),
        after: json(c.after),
      })),
    },
    baseVersion: record.version ?? null,
    actorUserId: session.userId,
  });
  return id;
}

export interface VitalSignEntry {
  type: VitalSignType;
  /** As charted, e.g. '120/80'. */
  value: string;
  numericValue: number | null;
  status: VitalSignStatus | null;
  timestamp: Date;
  notes?: string | null;
}

/** One reading (append-only). Returns the new row's id. */
export async function recordVitalSign(caseUuid: string, entry: VitalSignEntry): Promise<string> {
  const session = requireSyncSession();
  const id = newId();
  await saveLocalChange({
    name: 'vitalSign.record',
    args: {
      id,
      caseId: caseUuid,
      type: entry.type,
      value: entry.value,
      numericValue: entry.numericValue,
      status: entry.status,
      timestamp: entry.timestamp.toISOString(),
      notes: entry.notes ?? null,
    },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return id;
}

/** Corrections void a reading (with a reason) and, if needed, a new one is recorded. */
export async function voidVitalSign(
  vitalId: string,
  caseUuid: string,
  reason: string,
): Promise<void> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'vitalSign.void',
    args: { id: vitalId, reason },
    baseVersion: null,
    actorUserId: session.userId,
  });
}

const VIEW_DEDUPE_MS = 10 * 60 * 1000;
const recentViews = new Map<string, number>();

/**
 * Records that the signed-in user viewed, printed, saved as PDF or exported a case (POPIA:
 * every access to patient data is auditable). Goes through the outbox, so access while
 * offline reaches the server's audit log too. Repeated views of the same case and screen
 * within ten minutes are one view.
 */
export async function recordCaseAccess(
  caseUuid: string,
  action: CaseAccessAction,
  detail?: string,
  now: number = Date.now(),
): Promise<void> {
  const session = getSyncSession();
  if (!session) return;
  if (action === 'view') {
    const key = `${String(session.userId)}:${caseUuid}:${detail ?? ''}`;
    const last = recentViews.get(key);
    if (last !== undefined && now - last < VIEW_DEDUPE_MS) return;
    recentViews.set(key, now);
  }
  const id = newId();
  await saveLocalChange({
    name: 'case.access',
    args: { id, caseId: caseUuid, action, ...(detail ? { detail } : {}) },
    // Not the case's id: a pending access record must not mark the case "not yet synced".
    baseVersion: null,
    actorUserId: session.userId,
  });
}

/** For tests: forget which views were recorded. */
export function resetRecordedViews(): void {
  recentViews.clear();
}
