// Test helpers for the case screens (imported by tests only): a signed-in user with a real
// local database on fake-indexeddb, the sync API unreachable (changes stay in the outbox so
// tests can read them), and cases put on the device the way a screen would save them.
import 'fake-indexeddb/auto';
import { readOutbox, type OutboxEntry } from '@rescuelog/sync-protocol/client/outbox';
import type { CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { http, HttpResponse } from 'msw';
import {
  getSyncSession,
  saveLocalChange,
  startSyncSession,
  stopSyncSession,
  wipeLocalData,
  type SyncSession,
} from '@/lib/sync/sync-session';
import { signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { completeCase, recordVitalSign, resetRecordedViews } from '../data/case-writes';

/** Signs `user` in with the sync server unreachable, and opens their local database. */
export function deviceOf(user: User): SyncSession {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  return deviceSyncing(user);
}

/** Signs `user` in and opens their local database with the sync API as the test's handlers answer. */
export function deviceSyncing(user: User): SyncSession {
  signedInAs(user);
  const session = startSyncSession(user.id);
  if (!session) throw new Error('no IndexedDB in the test environment');
  return session;
}

/** Closes and deletes the user's local database (afterEach). */
export async function wipeDevice(user: User): Promise<void> {
  stopSyncSession();
  resetRecordedViews();
  await wipeLocalData(user.id);
}

/** Puts a case on the device as the capture screens do; returns its uuid and case number. */
export async function seedCase(fields: CaseFields): Promise<{ id: string; caseId: string }> {
  const session = getSyncSession();
  if (!session) throw new Error('call deviceOf(user) first');
  const id = crypto.randomUUID();
  const caseId = generateHumanId('C');
  await saveLocalChange({
    name: 'case.upsert',
    args: { id, humanId: caseId, fields },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return { id, caseId };
}

/** Every field completion requires, filled in consistently. */
export const COMPLETE_FIELDS: CaseFields = {
  patientName: 'Lindiwe Dube',
  incidentType: 'Motor vehicle accident',
  incidentLocation: 'N2 near Somerset West',
  approximateAge: 34,
  patientGender: 'Female',
  avpu: 'A',
  triageStatus: 'Yellow',
  callReceivedTime: '2026-11-20T10:00:00.000Z',
  responderArrivalTime: '2026-11-20T10:12:00.000Z',
  receivingHospital: 'Helderberg Hospital',
  transportPriority: 'Priority 2',
  allergies: 'Penicillin',
};

/** A case that passes the completion check (fields plus one vital sign reading). */
export async function seedCompletableCase(
  extra: CaseFields = {},
): Promise<{ id: string; caseId: string }> {
  const seeded = await seedCase({ ...COMPLETE_FIELDS, ...extra });
  await recordVitalSign(seeded.id, {
    type: 'heartRate',
    value: '88',
    numericValue: 88,
    status: 'normal',
    timestamp: new Date('2026-11-20T10:15:00.000Z'),
  });
  return seeded;
}

/** A completed (locked) case. */
export async function seedCompletedCase(
  extra: CaseFields = {},
): Promise<{ id: string; caseId: string }> {
  const seeded = await seedCompletableCase(extra);
  await completeCase({ id: seeded.id }, new Date('2026-11-20T11:00:00.000Z'));
  return seeded;
}

/** What the device will push, oldest first. */
export async function outbox(): Promise<OutboxEntry[]> {
  const session = getSyncSession();
  if (!session) return [];
  return readOutbox(session.db);
}

/** The stored case row (after local effects). */
export async function storedCase(id: string): Promise<Record<string, unknown> | undefined> {
  const session = getSyncSession();
  return (await session?.db.store('cases').get(id)) as Record<string, unknown> | undefined;
}
