// One drain as the service worker runs it (Background Sync event, worker start): open the
// active user's database, make sure the browser's session is that user's (so one person's
// queue is never pushed under another's session and rejected), drain under the shared lock.
// All of it holds the session-end lock shared (session-end-lock.ts): an end of the session
// waits until the worker has closed the database, and the worker never opens a database an
// end is deleting, nor creates one that is gone.
// No backoff loop here: on a retryable failure the caller rejects the sync event and the
// browser schedules the retry.
import { sessionResponseSchema } from '../accounts/users';
import { getActiveUser } from './active-user';
import { drainOutbox, type DrainOutcome } from './drain';
import { createDrainLock, type LockManagerLike } from './drain-lock';
import {
  SyncDatabase,
  syncDatabaseExists,
  type DeviceSchema,
  type IndexedDbDependencies,
} from './local-db';
import { withSessionEndLock } from './session-end-lock';
import { createFetchTransport, type SyncTransport } from './transport';

export type WorkerDrainOutcome =
  | DrainOutcome
  | { kind: 'no-user' }
  | { kind: 'busy' }
  | { kind: 'session-mismatch'; sessionUserId: number | null; activeUserId: number };

export interface WorkerDrainOptions {
  /** The app's device database (records/device.ts appDeviceSchema). */
  schema: DeviceSchema;
  transport?: SyncTransport;
  /** The signed-in user's id per the server, null without a session. */
  sessionUserId?: () => Promise<number | null>;
  /** For the session-end lock and the drain lock; navigator.locks by default. */
  locks?: LockManagerLike;
  deps?: IndexedDbDependencies;
}

/**
 * GET /api/session, as the page asks it (decision 059): the session's user, null when no one
 * is signed in; throws when the server is unreachable or answers anything else.
 */
export async function fetchSessionUserId(baseUrl = ''): Promise<number | null> {
  const response = await fetch(`${baseUrl}/api/session`, { credentials: 'include' });
  if (!response.ok) throw new Error(`GET /api/session answered ${String(response.status)}`);
  return sessionResponseSchema.parse(await response.json()).user?.id ?? null;
}

export function drainActiveUserOutbox(options: WorkerDrainOptions): Promise<WorkerDrainOutcome> {
  return withSessionEndLock('shared', () => drainUnderSessionLock(options), options.locks);
}

async function drainUnderSessionLock(options: WorkerDrainOptions): Promise<WorkerDrainOutcome> {
  const activeUserId = await getActiveUser(options.deps);
  if (activeUserId === null) return { kind: 'no-user' };
  // The page creates a user's database; the worker only drains one that is there.
  if (!(await syncDatabaseExists(activeUserId, options.deps)))
    return { kind: 'drained', acknowledged: 0, rejected: 0 };
  const db = new SyncDatabase(activeUserId, options.schema, options.deps);
  try {
    if ((await db.outbox.count()) === 0) return { kind: 'drained', acknowledged: 0, rejected: 0 };
    let sessionUserId: number | null;
    try {
      sessionUserId = await (options.sessionUserId ?? (() => fetchSessionUserId()))();
    } catch (error) {
      return {
        kind: 'retry',
        reason: 'network',
        status: null,
        message: error instanceof Error ? error.message : String(error),
        retryAfterMs: null,
        acknowledged: 0,
      };
    }
    if (sessionUserId !== activeUserId)
      return { kind: 'session-mismatch', sessionUserId, activeUserId };
    // Inside the session-end lock and only if free (see session-end-lock.ts for the order).
    const lock = createDrainLock(db, options.locks);
    const result = await lock.run(() =>
      drainOutbox({ db, transport: options.transport ?? createFetchTransport() }),
    );
    return result.acquired ? result.value : { kind: 'busy' };
  } finally {
    db.close();
  }
}
