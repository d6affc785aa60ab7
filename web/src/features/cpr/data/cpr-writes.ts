// Every change the CPR screens make, on the kit's one write path: the session is created and
// its fields saved through lib/records/record-writes.ts; each event is one `cprEvent.record`
// (or `cprEvent.void`) mutation stored on the device with its outbox entry in one IndexedDB
// transaction, timestamped at the tap. Nothing waits for the network.
import type { CprEventKind } from '@rescuelog/sync-protocol/cases/clinical';
import type { CprEventDetails } from '@rescuelog/sync-protocol/cpr/cpr-event';
import { parseHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import {
  createRecord,
  newRecordId,
  saveRecordFields,
  type EditedRecord,
} from '@/lib/records/record-writes';
import { requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';

/** Starts a session whose start is the tap (`startedAt`); returns its id and number. */
export async function startCprSession(
  startedAt: Date,
): Promise<{ id: string; sessionId: string }> {
  const { id, humanId } = await createRecord('cprSession', {
    startTime: startedAt.toISOString(),
  });
  if (!humanId) throw new Error('A CPR session has a session number');
  return { id, sessionId: humanId };
}

export type LoggableCprEvent = Exclude<CprEventKind, 'void' | 'start'>;

/** Logs one event at `at` (the tap); returns the event's id. */
export async function logCprEvent(
  cprSessionId: string,
  type: LoggableCprEvent,
  details: CprEventDetails,
  at: Date,
  id: string = newRecordId(),
): Promise<string> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'cprEvent.record',
    args: { id, cprSessionId, type, at: at.toISOString(), details },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return id;
}

/** Voids a wrong event with a reason: a new event; nothing is erased. */
export async function voidCprEvent(
  cprSessionId: string,
  voidsEventId: string,
  reason: string,
  at: Date = new Date(),
): Promise<void> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'cprEvent.void',
    args: { id: newRecordId(), cprSessionId, voidsEventId, at: at.toISOString(), reason },
    baseVersion: null,
    actorUserId: session.userId,
  });
}

/** Records a view, print, PDF or export of a session for the audit log (through the outbox,
 * so an access while offline is audited too). */
export async function recordCprAccess(
  cprSessionId: string,
  action: 'view' | 'print' | 'pdf' | 'export',
  detail?: string,
): Promise<void> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'cprSession.access',
    args: { id: newRecordId(), cprSessionId, action, ...(detail ? { detail } : {}) },
    baseVersion: null,
    actorUserId: session.userId,
  });
}

/**
 * Links the session to the patient case with this case number, as this device holds it;
 * returns the case number it linked, or an error sentence. The session's own write path
 * (saveRecordFields) refuses a completed session.
 */
export async function linkCprSessionToCase(
  session: EditedRecord,
  rawCaseNumber: string,
): Promise<{ caseNumber: string } | { error: string }> {
  const sync = requireSyncSession();
  const caseNumber = parseHumanId(rawCaseNumber, 'C') ?? rawCaseNumber.trim().toUpperCase();
  const row = await sync.db.records('case').where('caseId').equals(caseNumber).first();
  if (!row || (row.deletedAt !== null && row.deletedAt !== undefined))
    return { error: `Case ${caseNumber} is not on this device.` };
  await saveRecordFields('cprSession', session, { caseId: String(row.id) });
  return { caseNumber };
}

/** Starts a new patient case for the arrest (CPR performed ticked) and links the session. */
export async function linkCprSessionToNewCase(session: EditedRecord): Promise<string> {
  const { id, humanId } = await createRecord('case', { cprPerformed: true });
  await saveRecordFields('cprSession', session, { caseId: id });
  return humanId ?? '';
}
