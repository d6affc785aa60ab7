// Every change the CPR screens make, on the kit's one write path: the session is created and
// its fields saved through lib/records/record-writes.ts; each event is one `cprEvent.record`
// (or `cprEvent.void`) mutation stored on the device with its outbox entry in one IndexedDB
// transaction, timestamped at the tap. Nothing waits for the network.
import type { CprEventKind } from '@rescuelog/sync-protocol/cases/clinical';
import type { CprEventDetails } from '@rescuelog/sync-protocol/cpr/cpr-event';
import { createRecord, newRecordId } from '@/lib/records/record-writes';
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
