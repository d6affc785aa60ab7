// The end of a user's session on the device against the service worker's drain and against a
// second end (decision 023, addendum 3): the interleavings are forced, not hoped for. The
// worker's open of the user's database is held at the door (gate-open.ts) while the end runs.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { getActiveUser, listHeldUsers, setActiveUser } from '../../src/client/active-user';
import type { IndexedDbDependencies } from '../../src/client/local-db';
import { syncDatabaseName } from '../../src/client/local-db';
import type { LockManagerLike } from '../../src/client/drain-lock';
import { pendingCount, saveMutation } from '../../src/client/outbox';
import { endDeviceSession } from '../../src/client/session-end';
import { createInProcessLocks, SESSION_END_LOCK_NAME } from '../../src/client/session-end-lock';
import { drainActiveUserOutbox } from '../../src/client/worker-drain';
import { appDeviceSchema, openAppDatabase } from '../../src/records/device';
import { FakeSyncServer } from './fake-sync-server';
import { deferred, gateOpen } from './gate-open';

const USER_ID = 7;
const CASE_ID = '0b6c1b8e-3f1c-4a43-9a51-7f1e6f2b9d10';

/** Web Locks' rules in one context, telling the test when an exclusive request for the
 * session-end lock has been made (the end is then waiting for the worker). */
function watchedLocks() {
  const inner = createInProcessLocks();
  const exclusiveRequested = deferred();
  const locks: LockManagerLike = {
    request(name, options, callback) {
      if (name === SESSION_END_LOCK_NAME && (options.mode ?? 'exclusive') === 'exclusive')
        exclusiveRequested.resolve();
      return inner.request(name, options, callback);
    },
  };
  return { locks, exclusiveRequested: exclusiveRequested.promise };
}

async function databaseNames(factory: InstanceType<typeof IDBFactory>): Promise<string[]> {
  return (await factory.databases()).map((d: { name?: string }) => d.name ?? '');
}

/** User 7's database with one pulled case and, if asked, one change not yet synced; user 7
 * is the worker's active user. */
async function seedDevice(deps: IndexedDbDependencies, { unsynced }: { unsynced: boolean }) {
  const db = openAppDatabase(USER_ID, deps);
  await db.records('case').put({ id: CASE_ID, caseId: 'C-2611-AAAA-0001', patientName: 'Sipho' });
  if (unsynced)
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id: CASE_ID, fields: { patientName: 'Sipho Dlamini' } },
      entityIds: [CASE_ID],
      baseVersion: null,
      actorUserId: USER_ID,
    } as Parameters<typeof saveMutation>[1]);
  db.close();
  await setActiveUser(USER_ID, deps);
}

/** Starts the worker's drain, stops it between its read of the active user and its open of the
 * database, runs the end of user 7's session there (as far as it gets), then lets the worker go. */
async function endBetweenReadAndOpen({ unsynced }: { unsynced: boolean }) {
  const factory = new IDBFactory();
  const deps = { indexedDB: factory, IDBKeyRange };
  await seedDevice(deps, { unsynced });
  const server = new FakeSyncServer();
  const { locks, exclusiveRequested } = watchedLocks();
  // The worker's first open of the user's database, right after its read of the active user.
  const gate = gateOpen(factory, (name) => name === syncDatabaseName(USER_ID));
  const worker = drainActiveUserOutbox({
    schema: appDeviceSchema,
    deps: { indexedDB: gate.factory, IDBKeyRange },
    transport: server,
    sessionUserId: async () => USER_ID,
    locks,
  });
  await gate.requested;
  const end = endDeviceSession(openAppDatabase(USER_ID, deps), {
    name: 'Thandi Nkosi',
    deps,
    locks,
  });
  // Before the fix the end ran to its finish here; now it waits for the worker's lock.
  await Promise.race([end, exclusiveRequested]);
  gate.release();
  const [drained, ended] = await Promise.all([worker, end]);
  return { factory, deps, server, drained, ended };
}

describe('an end of session while the service worker starts a drain', () => {
  it('does not bring the deleted database back: the end waits until the worker closed it', async () => {
    const { factory, deps, ended } = await endBetweenReadAndOpen({ unsynced: false });
    expect(ended).toEqual({ kind: 'cleared' });
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
    expect(await getActiveUser(deps)).toBeNull();
    expect(await listHeldUsers(deps)).toEqual([]);
  });

  it('holds nothing the worker already sent: the end counts after the drain', async () => {
    const { factory, deps, server, drained, ended } = await endBetweenReadAndOpen({
      unsynced: true,
    });
    expect(drained).toMatchObject({ kind: 'drained', acknowledged: 1 });
    expect(server.applied).toHaveLength(1);
    // Nothing waits any more, so there is nothing to hold: no lock screen for sent changes.
    expect(ended).toEqual({ kind: 'cleared' });
    expect(await listHeldUsers(deps)).toEqual([]);
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
  });

  it('the worker that starts after the end finds no user and creates nothing', async () => {
    const factory = new IDBFactory();
    const deps = { indexedDB: factory, IDBKeyRange };
    await seedDevice(deps, { unsynced: false });
    expect(
      await endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
    ).toEqual({ kind: 'cleared' });
    expect(
      await drainActiveUserOutbox({
        schema: appDeviceSchema,
        deps,
        transport: new FakeSyncServer(),
        sessionUserId: async () => USER_ID,
      }),
    ).toEqual({ kind: 'no-user' });
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
  });
});

describe('two ends of the same session (a logout and a 401, two tabs)', () => {
  it('with nothing waiting, both clear and the database stays deleted', async () => {
    const factory = new IDBFactory();
    const deps = { indexedDB: factory, IDBKeyRange };
    await seedDevice(deps, { unsynced: false });
    const ends = await Promise.all([
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
    ]);
    expect(ends).toEqual([{ kind: 'cleared' }, { kind: 'cleared' }]);
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
    expect(await listHeldUsers(deps)).toEqual([]);
  });

  it('with changes waiting, both hold the same changes and one entry names them', async () => {
    const factory = new IDBFactory();
    const deps = { indexedDB: factory, IDBKeyRange };
    await seedDevice(deps, { unsynced: true });
    const ends = await Promise.all([
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
    ]);
    expect(ends).toEqual([
      { kind: 'held', pending: 1 },
      { kind: 'held', pending: 1 },
    ]);
    expect((await listHeldUsers(deps)).map((h) => [h.userId, h.pending])).toEqual([[USER_ID, 1]]);
    const db = openAppDatabase(USER_ID, deps);
    expect(await pendingCount(db)).toBe(1);
    db.close();
  });

  it('a hold and a wipe at once leave no held entry pointing at deleted data', async () => {
    const factory = new IDBFactory();
    const deps = { indexedDB: factory, IDBKeyRange };
    await seedDevice(deps, { unsynced: true });
    // "Delete them and log out", and a 401 for the same session in the same moment.
    const ends = await Promise.all([
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
      endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps, wipe: true }),
    ]);
    expect(ends).toEqual([{ kind: 'held', pending: 1 }, { kind: 'cleared' }]);
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
    expect(await listHeldUsers(deps)).toEqual([]);
    // A third end, later, finds nothing: it creates no database and holds nothing.
    expect(
      await endDeviceSession(openAppDatabase(USER_ID, deps), { name: 'Thandi Nkosi', deps }),
    ).toEqual({ kind: 'cleared' });
    expect(await databaseNames(factory)).not.toContain(syncDatabaseName(USER_ID));
    expect(await listHeldUsers(deps)).toEqual([]);
  });
});
