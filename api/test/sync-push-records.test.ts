// A refused edit of a record this device created, before any pull brought the server's copy
// (issue 4's last convergence gap): the device must keep showing what the server accepted,
// at once and without a pull — the service worker only pushes. The push answer carries the
// server's state of the records a rejected or duplicate mutation names (push-pull.ts
// `records`). Client engine over fake-indexeddb, the real API over HTTP, the real database.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setActiveUser } from '@rescuelog/sync-protocol/client/active-user';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { type IndexedDbDependencies } from '@rescuelog/sync-protocol/client/local-db';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import {
  readRejections,
  saveMutation,
  type MutationInput,
} from '@rescuelog/sync-protocol/client/outbox';
import { drainActiveUserOutbox } from '@rescuelog/sync-protocol/client/worker-drain';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  Device,
  OWN_CASES_ONLY,
  RESPONDER,
  setPermissions,
  syncUser,
  transportAs,
  type SyncUser,
} from './sync-fixtures';
import { appDeviceSchema, openAppDatabase } from '@rescuelog/sync-protocol/records/device';

let t: TestApp;
const opened: SyncDatabase[] = [];

beforeAll(async () => {
  t = await buildSyncApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function upsert(
  user: SyncUser,
  id: string,
  fields: Record<string, unknown>,
  humanId?: string,
): MutationInput {
  return {
    name: 'case.upsert',
    args: { id, ...(humanId ? { humanId } : {}), fields },
    entityIds: [id],
    baseVersion: null,
    actorUserId: user.id,
  } as MutationInput;
}

/** An administrator takes the responder's case permissions away while they are offline. */
async function revokeCaseEditing(user: SyncUser): Promise<void> {
  await setPermissions(t, user.id, {
    ...RESPONDER,
    newCase: { read: true, create: false, edit: false, delete: false },
  });
}

describe('a refused edit of a record the device created, before any pull', () => {
  it('leaves the row as the server accepted it (plus what is still pending), in the page engine', async () => {
    const user = await syncUser(t);
    const db = openAppDatabase(user.id, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const id = crypto.randomUUID();
    await saveMutation(
      db,
      upsert(user, id, { patientName: 'Naledi', incidentType: 'Fall' }, generateHumanId('C')),
    );
    expect(await drainOutbox({ db, transport: transportAs(user) })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 0,
    });
    expect(await db.serverCopies.count()).toBe(0);

    await revokeCaseEditing(user);
    await saveMutation(db, upsert(user, id, { patientName: 'Naledi Dube' }));
    expect(await drainOutbox({ db, transport: transportAs(user) })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 1,
    });

    const row = await readLocalRecord(db, 'case', id);
    expect(row).toMatchObject({
      id,
      patientName: 'Naledi',
      incidentType: 'Fall',
      status: 'in_progress',
      userId: user.id,
    });
    // The server's own copy (it has a version), not a guess made on the device.
    expect(row?.version).toMatch(/^\d+$/);
    const [rejection] = await readRejections(db);
    expect(rejection).toMatchObject({
      code: 'FORBIDDEN',
      mutation: { args: { id, fields: { patientName: 'Naledi Dube' } } },
    });
  });

  it('leaves the row as the server accepted it when the service worker drains (it never pulls)', async () => {
    const user = await syncUser(t);
    const deps: IndexedDbDependencies = { indexedDB: new IDBFactory(), IDBKeyRange };
    await setActiveUser(user.id, deps);
    const db = openAppDatabase(user.id, deps);
    opened.push(db);
    const id = crypto.randomUUID();
    await saveMutation(
      db,
      upsert(user, id, { patientName: 'Sipho', incidentType: 'Assault' }, generateHumanId('C')),
    );
    const worker = {
      transport: transportAs(user),
      sessionUserId: () => Promise.resolve(user.id),
      deps,
    };
    expect(await drainActiveUserOutbox({ ...worker, schema: appDeviceSchema })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
    });

    await revokeCaseEditing(user);
    await saveMutation(db, upsert(user, id, { incidentType: 'Cardiac arrest' }));
    expect(await drainActiveUserOutbox({ ...worker, schema: appDeviceSchema })).toMatchObject({
      kind: 'drained',
      rejected: 1,
    });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Sipho',
      incidentType: 'Assault',
    });
    expect(await readRejections(db)).toHaveLength(1);
  });
});

describe('the push answer', () => {
  it("carries the server's record for a rejected or duplicate mutation, none for applied ones, and nothing the user may not see", async () => {
    const owner = await syncUser(t);
    // Sees only their own records (no casesLogged view) and may not edit others'.
    const stranger = await syncUser(t, OWN_CASES_ONLY);
    const device = new Device(owner);
    const id = crypto.randomUUID();
    const create = device.m('case.upsert', {
      id,
      humanId: generateHumanId('C'),
      fields: { patientName: 'Thandi' },
    });
    const first = await device.push(create);
    expect(first.results).toMatchObject([{ status: 'applied' }]);
    expect(first.records).toBeUndefined();

    // The same push again (its answer was lost): a duplicate, answered with the record.
    const replay = await device.push(create);
    expect(replay.results).toMatchObject([{ status: 'duplicate' }]);
    expect(replay.records).toMatchObject([
      { entity: 'case', id, deleted: false, data: { id, patientName: 'Thandi' } },
    ]);

    // Someone who may not see the case has the edit refused and learns nothing about it.
    const other = new Device(stranger);
    const refused = await other.push(
      other.m('case.upsert', { id, fields: { patientName: 'Mallory' } }),
    );
    expect(refused.results).toMatchObject([{ status: 'rejected', code: 'NOT_OWNER' }]);
    expect(refused.records).toBeUndefined();
  });
});
