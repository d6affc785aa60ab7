// The signed-in user's local sync session: their IndexedDB database (opened after sign-in,
// one per user), the sync engine that drains and pulls it, and the triggers that wake the
// engine. One session per page at a time; the service worker opens the same database
// through the same class (sync-protocol/src/client/local-db.ts).
import { trySetAsideAgain } from '@rescuelog/sync-protocol/client/set-aside';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import {
  persistStateSchema,
  pendingCount as countPending,
  saveMutation,
  type MutationInput,
  type OutboxEntry,
} from '@rescuelog/sync-protocol/client/outbox';
import { SyncEngine, type SyncStatus } from '@rescuelog/sync-protocol/client/sync-engine';
import {
  createFetchTransport,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import {
  endDeviceSession,
  resumeDeviceSession,
  type SessionEndOutcome,
} from '@rescuelog/sync-protocol/client/session-end';
import { OUTBOX_SYNC_TAG } from '@rescuelog/sync-protocol/sw-messages';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import type { AppMutation } from '@rescuelog/sync-protocol/records/registry';
import { clearPatientCaches } from './browser-caches';
import { wireSyncTriggers } from './sync-triggers';

export { accessKeyOf } from '@rescuelog/sync-protocol/client/pull';

/** A change as a screen saves it: one of the app's mutations, typed by its name. */
export type LocalChange = AppMutation & { baseVersion: string | null; actorUserId: number };

export interface SyncSession {
  userId: number;
  db: SyncDatabase;
  engine: SyncEngine;
}

export interface StartOptions {
  transport?: SyncTransport;
  /** Periodic drain; 30 s by default. */
  intervalMs?: number;
  /** Called when the server says the session is gone (401/403), so the app can ask the
   * user to sign in again. */
  onAuthRequired?: () => void;
  /** What the signed-in user may see now, read at every pull: a change (a grant, a new
   * role) makes the next pull start over (sync-protocol client/pull.ts accessKeyOf). */
  accessKey?: () => string | null;
  /** The user's database; the app's (openAppDatabase) unless a test brings a registry of its
   * own (a throwaway kind: the form kit is generic over the registry the database carries). */
  openDatabase?: (userId: number) => SyncDatabase;
}

type Listener = () => void;

let current: { session: SyncSession; dispose: () => void } | null = null;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function subscribeSyncSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSyncSession(): SyncSession | null {
  return current?.session ?? null;
}

/** Without IndexedDB (some private modes) nothing can be kept offline; the app then works
 * online only and shows no sync status. */
export function localDatabaseAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** Opens (or keeps) the user's session. Signing in again as the same user resumes a
 * session paused by a 401. */
export function startSyncSession(userId: number, options: StartOptions = {}): SyncSession | null {
  if (!localDatabaseAvailable()) return null;
  if (current?.session.userId === userId) {
    if (current.session.engine.getStatus().phase === 'auth-required')
      void current.session.engine.resume();
    return current.session;
  }
  stopSyncSession();
  const db = (options.openDatabase ?? openAppDatabase)(userId);
  const engine = new SyncEngine({
    db,
    transport: options.transport ?? createFetchTransport(),
    ...(options.accessKey ? { accessKey: options.accessKey } : {}),
  });
  let wasAuthRequired = false;
  const unsubscribe = engine.subscribe((status: SyncStatus) => {
    const authRequired = status.phase === 'auth-required';
    if (authRequired && !wasAuthRequired) options.onAuthRequired?.();
    wasAuthRequired = authRequired;
  });
  const unwire = wireSyncTriggers(
    engine,
    options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs },
  );
  const session: SyncSession = { userId, db, engine };
  current = {
    session,
    dispose: () => {
      unwire();
      unsubscribe();
      engine.stop();
      db.close();
    },
  };
  // The worker drains this user's database when it wakes (see sw/src/sw.ts). The user signed
  // in, so changes held at the end of an earlier session are theirs to see and sync again.
  void resumeDeviceSession(userId).catch(() => undefined);
  void engine.sync('app-start');
  notify();
  return session;
}

/** Closes the session (user signed out or changed). Local data stays. */
export function stopSyncSession(): void {
  if (!current) return;
  const { dispose } = current;
  current = null;
  dispose();
  notify();
}

/** Changes not yet acknowledged by the server (0 without a session). */
export async function pendingCount(): Promise<number> {
  const session = getSyncSession();
  return session ? countPending(session.db) : 0;
}

/** Deletes the user's local database: only after the outbox drained or the user agreed.
 * The same end as endLocalSession's, under the same lock (a 401 at the same moment cannot
 * leave a hold naming the deleted changes). */
export async function wipeLocalData(userId: number): Promise<void> {
  if (current?.session.userId === userId) stopSyncSession();
  await clearPatientCaches().catch(() => undefined);
  if (!localDatabaseAvailable()) return;
  await endDeviceSession(openAppDatabase(userId), { name: '', wipe: true });
}

/**
 * The user's session is over (the server answered 401, or they logged out keeping unsynced
 * changes): their database is deleted when nothing waits to sync, else held behind their own
 * sign-in (decision 023). Cached API responses go either way.
 */
export async function endLocalSession(user: {
  id: number;
  name: string;
}): Promise<SessionEndOutcome | null> {
  if (current?.session.userId === user.id) stopSyncSession();
  await clearPatientCaches().catch(() => undefined);
  if (!localDatabaseAvailable()) return null;
  return endDeviceSession(openAppDatabase(user.id), { name: user.name });
}

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/** Chromium wakes the worker when connectivity returns even if every tab is closed. */
async function registerBackgroundSync(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as
    (ServiceWorkerRegistration & SyncRegistration) | undefined;
  await registration?.sync?.register(OUTBOX_SYNC_TAG);
}

/** Asked once, after the user first saved something: patient data must not be evicted. */
export async function requestPersistentStorage(
  db: SyncDatabase,
  now: Date = new Date(),
): Promise<void> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.persist !== 'function') return;
  if (persistStateSchema.safeParse(await db.syncState.get('persist')).success) return;
  const granted = await navigator.storage.persist();
  await db.syncState.put({ key: 'persist', requestedAt: now.toISOString(), granted });
}

/** The session a write needs, or the message a screen shows when there is none. */
export function requireSyncSession(): SyncSession {
  const session = getSyncSession();
  if (!session) throw new Error('This device has no local database open: sign in again to save.');
  return session;
}

/**
 * The one way screens save synced data: the domain rows and the outbox entry in one
 * transaction, then a drain attempt (and a Background Sync registration for when the app
 * is closed before it succeeds). Typed by the app's mutations; lib/records/record-writes.ts
 * reaches it untyped for a kind the screen names (`saveChange`).
 */
export async function saveLocalChange(input: LocalChange): Promise<OutboxEntry> {
  return saveChange(input);
}

/** saveLocalChange for a mutation of whatever registry the session's database carries (the
 * registry parses its name and args before anything is stored). */
export async function saveChange(input: MutationInput): Promise<OutboxEntry> {
  const session = requireSyncSession();
  const entry = await saveMutation(session.db, input);
  void requestPersistentStorage(session.db).catch(() => undefined);
  void registerBackgroundSync().catch(() => undefined);
  void session.engine.sync('local-change');
  return entry;
}

/**
 * "Try again" for a change the device set aside (and the changes held back with it): saved
 * again in their order as new changes, then sent like any other (client/set-aside.ts).
 */
export async function trySetAsideChangesAgain(headMutationId: string): Promise<number> {
  const session = getSyncSession();
  if (!session) throw new Error('Not signed in: there is no local database to save to');
  const saved = await trySetAsideAgain(session.db, headMutationId);
  void registerBackgroundSync().catch(() => undefined);
  void session.engine.sync('local-change');
  return saved;
}
