// The two convergence rules of the client (docs/decisions/004): a rejected change leaves the
// device's rows (server copy + still-pending changes), and a record another device deleted
// is never brought back by a pending partial edit.
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { generateHumanId } from '../../src/platform/human-id';
import { drainOutbox } from '../../src/client/drain';
import type { SyncDatabase } from '../../src/client/local-db';
import { syncDatabaseName } from '../../src/client/local-db';
import { readLocalRecord } from '../../src/client/local-records';
import {
  readOutbox,
  readPullState,
  readRejections,
  saveMutation,
  type MutationInput,
} from '../../src/client/outbox';
import { pullChanges } from '../../src/client/pull';
import { FakeSyncServer } from './fake-sync-server';
import { openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const opened: SyncDatabase[] = [];

function openDb(): SyncDatabase {
  const db = openAppDatabase(USER_ID, { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function caseUpsert(
  id: string,
  fields: Record<string, unknown>,
  baseVersion: string | null,
  humanId?: string,
): MutationInput {
  return {
    name: 'case.upsert',
    args: { id, ...(humanId ? { humanId } : {}), fields },
    entityIds: [id],
    baseVersion,
    actorUserId: USER_ID,
  } as MutationInput;
}

/** A case on the server that this device has pulled. */
async function pulledCase(
  db: SyncDatabase,
  server: FakeSyncServer,
  fields: Record<string, unknown>,
): Promise<string> {
  const id = crypto.randomUUID();
  server.serverWriteCase(id, fields);
  expect(await pullChanges({ db, transport: server })).toMatchObject({ kind: 'pulled' });
  return id;
}

describe('a rejected change', () => {
  it('leaves the device: the row is the server copy plus what is still pending, and the inbox keeps the data', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = await pulledCase(db, server, { patientName: 'Thandi', incidentType: 'Fall' });

    const rejected = await saveMutation(db, caseUpsert(id, { patientName: 'Sipho' }, '1'));
    expect(await db.store('cases').get(id)).toMatchObject({ patientName: 'Sipho' });
    server.rejectIds.add(rejected.mutationId);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      rejected: 1,
    });

    // No pull: the server's record of this case never changes again, so nothing else would fix it.
    server.faults.push({ kind: 'network' });
    expect(await pullChanges({ db, transport: server })).toMatchObject({ kind: 'retry' });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Thandi',
      incidentType: 'Fall',
      version: '1',
    });

    const [inbox] = await readRejections(db);
    expect(inbox).toMatchObject({ code: 'CASE_LOCKED', mutationId: rejected.mutationId });
    expect(inbox?.mutation.args).toMatchObject({ id, fields: { patientName: 'Sipho' } });
  });

  it('keeps later pending edits of the same record visible while the rejected one is undone', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = await pulledCase(db, server, { patientName: 'Thandi' });
    const rejected = await saveMutation(db, caseUpsert(id, { patientName: 'Sipho' }, '1'));
    await saveMutation(db, caseUpsert(id, { incidentType: 'Cardiac' }, '1'));
    server.rejectIds.add(rejected.mutationId);
    // The server answers the first and stops (the second never reaches it in this test).
    server.faults.push({
      kind: 'status',
      status: 200,
      body: {
        lastAppliedSeq: 1,
        results: [
          {
            seq: 1,
            mutationId: rejected.mutationId,
            status: 'rejected',
            code: 'CASE_LOCKED',
            message: 'Locked',
          },
        ],
      },
    });
    await drainOutbox({ db, transport: server, batchSize: 2 });
    expect(await readOutbox(db)).toHaveLength(1);
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Thandi',
      incidentType: 'Cardiac',
    });
  });

  it('of an edit to a record this device created keeps what the server accepted on screen, with no pull (the service worker only pushes)', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = crypto.randomUUID();
    await saveMutation(
      db,
      caseUpsert(id, { patientName: 'Naledi', incidentType: 'Fall' }, null, generateHumanId('C')),
    );
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 0,
    });
    expect(await db.serverCopies.count()).toBe(0);

    const rejected = await saveMutation(db, caseUpsert(id, { patientName: 'Naledi Dube' }, null));
    await saveMutation(db, caseUpsert(id, { incidentType: 'Cardiac' }, null));
    server.rejectIds.add(rejected.mutationId);
    // Only the rejected edit reaches the server in this push; the later edit is still pending.
    expect(await drainOutbox({ db, transport: server, batchSize: 1 })).toMatchObject({
      kind: 'drained',
      rejected: 1,
    });

    // The server's record (what it accepted) plus what is pending — no flash of an empty row.
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Naledi',
      incidentType: 'Cardiac',
    });
    expect(await pullChanges({ db, transport: server })).toMatchObject({ kind: 'pulled' });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Naledi',
      incidentType: 'Cardiac',
    });
    expect((await readRejections(db))[0]?.mutation.args).toMatchObject({
      id,
      fields: { patientName: 'Naledi Dube' },
    });
  });

  it('shows the server record at once when the rejection and the accepted create are in one push', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = crypto.randomUUID();
    await saveMutation(db, caseUpsert(id, { patientName: 'Naledi' }, null, generateHumanId('C')));
    const rejected = await saveMutation(db, caseUpsert(id, { patientName: 'Naledi Dube' }, null));
    server.rejectIds.add(rejected.mutationId);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 2,
      rejected: 1,
    });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({ id, patientName: 'Naledi' });
  });

  it('of a record the server never had removes the local row', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = crypto.randomUUID();
    const created = await saveMutation(
      db,
      caseUpsert(id, { patientName: 'Naledi' }, null, generateHumanId('C')),
    );
    server.rejectIds.add(created.mutationId);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      rejected: 1,
    });
    expect(await db.store('cases').get(id)).toBeUndefined();
    expect((await readRejections(db))[0]?.mutation.args).toMatchObject({
      id,
      fields: { patientName: 'Naledi' },
    });
  });
});

describe('a change the server applied but whose answer was lost', () => {
  it('does not stay on top of a later write by someone else once the retry hears "duplicate"', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = await pulledCase(db, server, { patientName: 'Thandi' });
    await saveMutation(db, caseUpsert(id, { patientName: 'Naledi' }, '1'));
    server.faults.push({ kind: 'lost-after-commit' });
    expect(await drainOutbox({ db, transport: server })).toMatchObject({ kind: 'retry' });
    // Someone else writes after it; this device pulls both while its entry is still queued.
    const current = server.records.get(id)?.data ?? {};
    server.serverWrite({
      entity: 'case',
      id,
      deleted: false,
      data: { ...current, patientName: 'Sipho' },
    } as never);
    expect(await pullChanges({ db, transport: server })).toMatchObject({ kind: 'pulled' });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({ patientName: 'Naledi' });

    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 0,
    });
    expect(await readLocalRecord(db, 'case', id)).toMatchObject({
      patientName: 'Sipho',
      version: '3',
    });
    expect(await readRejections(db)).toEqual([]);
  });
});

describe('a record another device deleted', () => {
  it('is removed by the tombstone and not recreated from a pending partial edit, even after the rejection', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const id = await pulledCase(db, server, { patientName: 'Thandi' });
    const edit = await saveMutation(db, caseUpsert(id, { incidentType: 'MVA' }, '1'));
    expect(await db.store('cases').get(id)).toMatchObject({ incidentType: 'MVA' });

    server.serverWrite({ entity: 'case', id, deleted: true, data: null });
    expect(await pullChanges({ db, transport: server })).toMatchObject({
      kind: 'pulled',
      changes: 1,
    });
    expect(await db.store('cases').get(id)).toBeUndefined();
    // Still pending: the server decides (it rejects an edit of a deleted case).
    expect(await readOutbox(db)).toHaveLength(1);

    server.rejectIds.add(edit.mutationId);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      rejected: 1,
    });
    expect(await db.store('cases').get(id)).toBeUndefined();
    expect((await readRejections(db))[0]?.mutation.args).toMatchObject({
      id,
      fields: { incidentType: 'MVA' },
    });
  });
});

describe('upgrading a database from before server copies', () => {
  it('resets the pull cursor so the next pull stores a server copy of every record', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(syncDatabaseName(USER_ID), { indexedDB, IDBKeyRange });
    old.version(1).stores({ syncState: 'key', cases: 'id, caseId, userId, status' });
    await old
      .table('syncState')
      .put({ key: 'pull', cursor: '42', lastPullAt: '2026-11-20T10:00:00.000Z' });
    await old.table('cases').put({ id: crypto.randomUUID(), patientName: 'Thandi' });
    old.close();

    const db = openAppDatabase(USER_ID, { indexedDB, IDBKeyRange });
    opened.push(db);
    expect(await readPullState(db)).toEqual({ key: 'pull', cursor: null, lastPullAt: null });
    expect(await db.store('cases').count()).toBe(1);
    expect(await db.serverCopies.count()).toBe(0);
  });
});
