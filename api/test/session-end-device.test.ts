// Data in the browser (issue 12, decision 023): the client engine (sync-protocol/src/client)
// against the real API over real HTTP, its IndexedDB fake-indexeddb. When the server ends the
// session (a password change elsewhere, a logout elsewhere) the engine hears 401; the device
// then deletes the user's database if nothing waits to sync, and otherwise holds it: another
// user signing in on the same device neither reaches nor deletes it, and the same user signing
// in again syncs it.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getActiveUser, listHeldUsers } from '@rescuelog/sync-protocol/client/active-user';
import type { IndexedDbDependencies, SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { syncDatabaseName } from '@rescuelog/sync-protocol/client/local-db';
import { pendingCount, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { endDeviceSession, resumeDeviceSession } from '@rescuelog/sync-protocol/client/session-end';
import { SyncEngine } from '@rescuelog/sync-protocol/client/sync-engine';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import { TEST_PASSWORD, loginAs, type TestApp } from './helpers';
import { buildSyncApp, caseRow, syncUser, transportAs, type SyncUser } from './sync-fixtures';

let t: TestApp;

type Factory = InstanceType<typeof IDBFactory>;

beforeAll(async () => {
  t = await buildSyncApp();
});
afterAll(() => t.close());

/** One browser profile: its IndexedDB factory holds every database of the origin. */
function browser(): IndexedDbDependencies & { indexedDB: Factory } {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

async function databaseNames(deps: { indexedDB: Factory }): Promise<string[]> {
  return (await deps.indexedDB.databases()).map((d: { name?: string }) => d.name ?? '');
}

function saveCase(db: SyncDatabase, user: SyncUser, patientName: string): Promise<unknown> {
  const id = crypto.randomUUID();
  return saveMutation(db, {
    name: 'case.upsert',
    args: { id, humanId: generateHumanId('C'), fields: { patientName } },
    baseVersion: null,
    actorUserId: user.id,
  }).then(() => id);
}

/** Syncs once and says how the engine ended up. */
async function syncOnce(db: SyncDatabase, user: SyncUser) {
  const engine = new SyncEngine({ db, transport: transportAs(user) });
  await engine.sync('manual');
  const phase = engine.getStatus().phase;
  engine.stop();
  return phase;
}

/** The user's password changed on another device: every other session of theirs ends. */
async function changePasswordElsewhere(user: SyncUser): Promise<void> {
  const elsewhere = await loginAs(t, user.user);
  const res = await elsewhere.post('/api/user/password', {
    currentPassword: TEST_PASSWORD,
    newPassword: `${TEST_PASSWORD} again`,
  });
  expect(res.status).toBe(200);
  await elsewhere.post('/api/user/password', {
    currentPassword: `${TEST_PASSWORD} again`,
    newPassword: TEST_PASSWORD,
  });
}

describe('the end of a session on the device', () => {
  it('with nothing waiting to sync, deletes the user’s database (patients included)', async () => {
    const deps = browser();
    const alice = await syncUser(t);
    await resumeDeviceSession(alice.id, deps);
    const db = openAppDatabase(alice.id, deps);
    const caseId = await saveCase(db, alice, 'Thandi Mokoena');
    expect(await syncOnce(db, alice)).toBe('idle');
    expect(await pendingCount(db)).toBe(0);
    expect(await db.records('case').get(String(caseId))).toMatchObject({
      patientName: 'Thandi Mokoena',
    });

    // Logged out elsewhere: the device's cookie is dead; the engine hears 401.
    expect((await alice.client.post('/api/logout')).status).toBe(200);
    expect(await syncOnce(db, alice)).toBe('auth-required');

    expect(await endDeviceSession(db, { name: 'Alice', deps })).toEqual({ kind: 'cleared' });
    expect(await databaseNames(deps)).not.toContain(syncDatabaseName(alice.id));
    expect(await getActiveUser(deps)).toBeNull();
    expect(await listHeldUsers(deps)).toEqual([]);
  });

  it('a connection still open elsewhere (the worker’s drain, a screen) does not create the deleted database again', async () => {
    const deps = browser();
    const alice = await syncUser(t);
    await resumeDeviceSession(alice.id, deps);
    const page = openAppDatabase(alice.id, deps);
    const worker = openAppDatabase(alice.id, deps);
    await saveCase(page, alice, 'Sipho Dlamini');
    expect(await syncOnce(page, alice)).toBe('idle');
    expect(await worker.records('case').count()).toBeGreaterThan(0);

    expect((await alice.client.post('/api/logout')).status).toBe(200);
    expect(await endDeviceSession(page, { name: 'Alice', deps })).toEqual({ kind: 'cleared' });
    // The worker's instance was open during the delete; its next query must not reopen (and
    // so create) the database. Dexie's own handler would reopen it, empty, under the name.
    await expect(worker.records('case').count()).rejects.toThrow(/closed/i);
    expect(await databaseNames(deps)).not.toContain(syncDatabaseName(alice.id));
  });

  it('with unsynced changes, holds them: another user cannot reach or delete them, the same user syncs them', async () => {
    const deps = browser();
    const bob = await syncUser(t);
    await resumeDeviceSession(bob.id, deps);
    const db = openAppDatabase(bob.id, deps);
    // The password changes elsewhere before the device reaches the server.
    await changePasswordElsewhere(bob);
    const caseId = String(await saveCase(db, bob, 'Sipho Dlamini'));
    expect(await syncOnce(db, bob)).toBe('auth-required');

    expect(await endDeviceSession(db, { name: 'Bob Nkosi', deps })).toEqual({
      kind: 'held',
      pending: 1,
    });
    expect(await listHeldUsers(deps)).toMatchObject([{ userId: bob.id, name: 'Bob Nkosi' }]);
    expect(await getActiveUser(deps)).toBeNull();

    // Carol signs in on the same tablet: her own database, Bob's stays held and whole.
    const carol = await syncUser(t);
    await resumeDeviceSession(carol.id, deps);
    const carolDb = openAppDatabase(carol.id, deps);
    expect(await syncOnce(carolDb, carol)).toBe('idle');
    expect(await carolDb.records('case').get(caseId)).toBeUndefined();
    carolDb.close();
    expect(await listHeldUsers(deps)).toMatchObject([{ userId: bob.id }]);
    expect(await databaseNames(deps)).toContain(syncDatabaseName(bob.id));
    expect(await t.db.selectFrom('cases').select('id').where('id', '=', caseId).execute()).toEqual(
      [],
    );

    // Bob signs in again: his database opens, the held change reaches the server.
    const bobAgain: SyncUser = { ...bob, client: await loginAs(t, bob.user) };
    await resumeDeviceSession(bob.id, deps);
    expect(await listHeldUsers(deps)).toEqual([]);
    expect(await getActiveUser(deps)).toBe(bob.id);
    const reopened = openAppDatabase(bob.id, deps);
    expect(await pendingCount(reopened)).toBe(1);
    expect(await syncOnce(reopened, bobAgain)).toBe('idle');
    expect(await pendingCount(reopened)).toBe(0);
    expect(await caseRow(t, caseId)).toMatchObject({
      patientName: 'Sipho Dlamini',
      userId: bob.id,
    });
    reopened.close();
  });
});
