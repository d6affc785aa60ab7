// Device case search over a real Dexie database (fake-indexeddb): the case summaries kept by
// the middleware through every kind of write, deleted and unreadable rows, the createdAt
// index, order, limits, recent cases, healing a gap, and the upgrade to database version 4.
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SERVICE_TIME_ZONE } from '../../src/time';
import { pendingRecordIds } from '../../src/client/outbox';
import { recentLocalCases, searchLocalCases } from '../../src/cases/device-search';
import { SUMMARY_VERSION_ID } from '../../src/cases/device-summaries';
import type { SyncDatabase } from '../../src/client/local-db';
import { syncDatabaseName } from '../../src/client/local-db';
import { saveMutation } from '../../src/client/outbox';
import { generateHumanId } from '../../src/platform/human-id';
import { appDeviceSchema, openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const ctx = { userId: USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE };
const opened: SyncDatabase[] = [];

function openDb(indexedDB = new IDBFactory()): SyncDatabase {
  const db = openAppDatabase(USER_ID, { indexedDB, IDBKeyRange });
  opened.push(db);
  return db;
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

let n = 0;
function row(fields: Record<string, unknown> = {}): Record<string, unknown> & { id: string } {
  n += 1;
  return {
    id: crypto.randomUUID(),
    caseId: `C-TEST-${String(n).padStart(4, '0')}`,
    status: 'in_progress',
    createdAt: '2026-11-21T08:00:00.000Z',
    userId: USER_ID,
    deletedAt: null,
    ...fields,
  };
}

describe('searchLocalCases', () => {
  it('returns live, readable cases newest first as summaries, with the total before the limit', async () => {
    const db = openDb();
    await db.store('cases').bulkPut([
      row({
        caseId: 'C-1',
        createdAt: '2026-11-20T08:00:00.000Z',
        patientName: 'Thandi',
        responderCallSign: 'R7',
      }),
      row({
        caseId: 'C-2',
        createdAt: '2026-11-22T08:00:00.000Z',
        status: 'completed',
        completedAt: '2026-11-22T09:00:00.000Z',
      }),
      row({ caseId: 'C-3', createdAt: '2026-11-22T08:00:00.000Z' }),
      row({ caseId: 'C-4', deletedAt: '2026-11-22T10:00:00.000Z' }),
      // A row left by a create that has not set its number yet, and one that no longer parses.
      row({ caseId: undefined }),
      row({ caseId: 'C-6', approximateAge: 'forty' }),
    ]);
    const invalid: string[] = [];
    const result = await searchLocalCases(db, {}, ctx, {
      limit: 2,
      onUnreadable: (id) => invalid.push(id),
    });
    // C-6's bad age is not a summary field: it is listed (its screens report the problem).
    expect(result.total).toBe(4);
    expect(result.cases.map((c) => c.caseId)).toEqual(['C-3', 'C-2']);
    expect(result.cases[1]).toEqual({
      id: expect.any(String) as string,
      caseId: 'C-2',
      patientName: null,
      incidentType: null,
      status: 'completed',
      createdAt: '2026-11-22T08:00:00.000Z',
      completedAt: '2026-11-22T09:00:00.000Z',
      userId: USER_ID,
      responderName: null,
      responderCallSign: null,
    });
    // The summary parse reads only the summary fields, so a bad clinical field is not fatal
    // here; a bad summary field is reported.
    expect(invalid).toHaveLength(0);
    const bad = row({ caseId: 'C-7', createdAt: 'yesterday' });
    await db.store('cases').put(bad);
    await searchLocalCases(db, {}, ctx, { onUnreadable: (id) => invalid.push(id) });
    expect(invalid).toEqual([bad.id]);
  });

  it('filters by day through the createdAt index, in the service time zone', async () => {
    const db = openDb();
    await db
      .store('cases')
      .bulkPut([
        row({ caseId: 'C-LATE-20TH', createdAt: '2026-11-20T21:59:59.999Z' }),
        row({ caseId: 'C-EARLY-21ST', createdAt: '2026-11-20T22:00:00.000Z' }),
        row({ caseId: 'C-LATE-21ST', createdAt: '2026-11-21T21:59:59.999Z' }),
        row({ caseId: 'C-22ND', createdAt: '2026-11-21T22:00:00.000Z' }),
      ]);
    const ids = async (q: Parameters<typeof searchLocalCases>[1]) =>
      (await searchLocalCases(db, q, ctx)).cases.map((c) => c.caseId);
    expect(await ids({ from: '2026-11-21', to: '2026-11-21' })).toEqual([
      'C-LATE-21ST',
      'C-EARLY-21ST',
    ]);
    expect(await ids({ to: '2026-11-20' })).toEqual(['C-LATE-20TH']);
    expect(await ids({ from: '2026-11-22' })).toEqual(['C-22ND']);
    expect(await ids({ from: '2026-11-21', caseId: 'c-early' })).toEqual(['C-EARLY-21ST']);
  });

  it('applies the filters and mine', async () => {
    const db = openDb();
    await db
      .store('cases')
      .bulkPut([
        row({ caseId: 'C-A', patientName: 'Naledi Khumalo', incidentType: 'Fall', userId: 8 }),
        row({ caseId: 'C-B', patientName: 'naledi', incidentType: 'fall', status: 'completed' }),
        row({ caseId: 'C-C', responderName: 'Naledi Responder' }),
      ]);
    const ids = async (q: Parameters<typeof searchLocalCases>[1]) =>
      (await searchLocalCases(db, q, ctx)).cases.map((c) => c.caseId);
    expect(await ids({ patientName: 'NALEDI' })).toEqual(['C-B', 'C-A']);
    expect(await ids({ incidentType: 'FALL', mine: true })).toEqual(['C-B']);
    expect(await ids({ responder: 'naledi' })).toEqual(['C-C']);
    expect(await ids({ status: 'in_progress' })).toEqual(['C-C', 'C-A']);
  });
});

describe('recentLocalCases', () => {
  it('takes the newest n by the index, ordering equal times by case number like the server', async () => {
    const db = openDb();
    await db.store('cases').bulkPut([
      row({ caseId: 'C-OLD', createdAt: '2026-11-01T08:00:00.000Z' }),
      row({ caseId: 'C-SAME-1', createdAt: '2026-11-21T08:00:00.000Z' }),
      row({ caseId: 'C-SAME-3', createdAt: '2026-11-21T08:00:00.000Z' }),
      row({ caseId: 'C-SAME-2', createdAt: '2026-11-21T08:00:00.000Z' }),
      row({ caseId: 'C-NEWEST', createdAt: '2026-11-22T08:00:00.000Z' }),
      row({
        caseId: 'C-GONE',
        createdAt: '2026-11-23T08:00:00.000Z',
        deletedAt: '2026-11-23T09:00:00.000Z',
      }),
    ]);
    expect((await recentLocalCases(db, 3)).map((c) => c.caseId)).toEqual([
      'C-NEWEST',
      'C-SAME-3',
      'C-SAME-2',
    ]);
    expect((await recentLocalCases(db, 10)).map((c) => c.caseId)).toEqual([
      'C-NEWEST',
      'C-SAME-3',
      'C-SAME-2',
      'C-SAME-1',
      'C-OLD',
    ]);
    expect(await recentLocalCases(db, 0)).toEqual([]);
  });

  it('still lists a case without a createdAt when there are fewer than n with one', async () => {
    const db = openDb();
    await db
      .store('cases')
      .bulkPut([row({ caseId: 'C-TIMED' }), row({ caseId: 'C-UNTIMED', createdAt: undefined })]);
    expect((await recentLocalCases(db, 3)).map((c) => c.caseId)).toEqual(['C-TIMED', 'C-UNTIMED']);
  });
});

describe('pendingRecordIds', () => {
  it('names every record an unacknowledged change touches', async () => {
    const db = openDb();
    const id = crypto.randomUUID();
    const caseId = generateHumanId('C');
    expect(await pendingRecordIds(db)).toEqual(new Set());
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, humanId: caseId, fields: { patientName: 'Sam' } },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    expect(await pendingRecordIds(db)).toEqual(new Set([id]));
    const [found] = (await searchLocalCases(db, { caseId: caseId.slice(0, 9).toLowerCase() }, ctx))
      .cases;
    expect(found).toMatchObject({
      id,
      caseId,
      patientName: 'Sam',
      status: 'in_progress',
      userId: USER_ID,
    });
  });
});

describe('the case summaries', () => {
  // The summary table also holds its version row (case-summaries.ts).
  const summaryCount = async (db: SyncDatabase) =>
    db
      .store('caseSummaries')
      .filter((r) => r.id !== SUMMARY_VERSION_ID)
      .count();
  const summaryOf = async (db: SyncDatabase, id: string) =>
    (await db.store('caseSummaries').get(id)) as
      { listed: boolean; patientName: string | null; status: string; stamp: number } | undefined;

  it('follow every kind of write to the cases, in the same transaction', async () => {
    const db = openDb();
    const a = row({ caseId: 'C-A', patientName: 'First' });
    const b = row({ caseId: 'C-B' });
    await db.store('cases').add(a);
    await db.store('cases').bulkPut([b, row({ caseId: 'C-C' })]);
    expect(await summaryCount(db)).toBe(3);
    await db.store('cases').update(a.id, { patientName: 'Renamed', status: 'completed' });
    expect(await summaryOf(db, a.id)).toMatchObject({
      listed: true,
      patientName: 'Renamed',
      status: 'completed',
    });
    await db.store('cases').where('caseId').equals('C-B').modify({ patientName: 'Modified' });
    expect((await summaryOf(db, b.id))?.patientName).toBe('Modified');
    // A transaction that names only the cases still writes their summaries.
    await db.transaction('rw', db.store('cases'), async () => {
      await db.store('cases').put({ ...a, deletedAt: '2026-11-22T00:00:00.000Z' });
    });
    expect(await summaryOf(db, a.id)).toMatchObject({ listed: false });
    await db.store('cases').delete(b.id);
    expect(await summaryOf(db, b.id)).toBeUndefined();
    expect((await searchLocalCases(db, {}, ctx)).cases.map((c) => c.caseId)).toEqual(['C-C']);
    await db.store('cases').clear();
    expect(await summaryCount(db)).toBe(0);
  });

  it("follow a case saved through the outbox (the app's way), and a failed add writes none", async () => {
    const db = openDb();
    const id = crypto.randomUUID();
    const caseId = generateHumanId('C');
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, humanId: caseId, fields: { patientName: 'Sam', incidentType: 'Fall' } },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    expect(await summaryOf(db, id)).toMatchObject({
      listed: true,
      patientName: 'Sam',
      status: 'in_progress',
    });
    await expect(
      db.store('cases').add({ id, caseId: 'C-DUPLICATE', patientName: 'Impostor' }),
    ).rejects.toThrow();
    expect((await summaryOf(db, id))?.patientName).toBe('Sam');
  });

  it('a search after a change sees it (the kept list is dropped when a case changes)', async () => {
    const factory = new IDBFactory();
    const db = openDb(factory);
    const a = row({ caseId: 'C-MEMO', patientName: 'Before' });
    await db.store('cases').put(a);
    expect((await searchLocalCases(db, { patientName: 'before' }, ctx)).total).toBe(1);
    expect((await searchLocalCases(db, { patientName: 'before' }, ctx)).total).toBe(1);
    await db.store('cases').update(a.id, { patientName: 'After' });
    expect((await searchLocalCases(db, { patientName: 'before' }, ctx)).total).toBe(0);
    expect((await searchLocalCases(db, { patientName: 'after' }, ctx)).total).toBe(1);
    // A second database object on the same IndexedDB (another tab, the service worker).
    const other = openDb(factory);
    await other.store('cases').delete(a.id);
    expect((await searchLocalCases(db, {}, ctx)).total).toBe(0);
    await other.store('cases').put(row({ caseId: 'C-FROM-ELSEWHERE' }));
    expect((await searchLocalCases(db, {}, ctx)).cases.map((c) => c.caseId)).toEqual([
      'C-FROM-ELSEWHERE',
    ]);
  });

  it('raise their version once per write, so a kept list reads only what changed', async () => {
    const db = openDb();
    const version = async () =>
      ((await db.store('caseSummaries').get(SUMMARY_VERSION_ID)) as { stamp: number } | undefined)
        ?.stamp ?? 0;
    const v0 = await version();
    await db.store('cases').bulkPut([row(), row(), row()]);
    expect(await version()).toBe(v0 + 1);
    const a = row({ caseId: 'C-LATER' });
    await db.store('cases').put(a);
    expect(await version()).toBe(v0 + 2);
    expect(
      await db
        .store('caseSummaries')
        .where('stamp')
        .above(v0 + 1)
        .primaryKeys(),
    ).toEqual(expect.arrayContaining([a.id]));
    await db.store('cases').delete(a.id);
    expect(await version()).toBe(v0 + 3);
  });

  it('are left alone by a save that changes no list field, and rewritten by one that does', async () => {
    const db = openDb();
    const version = async () =>
      ((await db.store('caseSummaries').get(SUMMARY_VERSION_ID)) as { stamp: number } | undefined)
        ?.stamp ?? 0;
    const id = crypto.randomUUID();
    const save = (fields: Record<string, unknown>, humanId?: string) =>
      saveMutation(db, {
        name: 'case.upsert',
        args: { id, ...(humanId ? { humanId } : {}), fields },
        baseVersion: null,
        actorUserId: USER_ID,
      });
    await save({ patientName: 'Lerato' }, generateHumanId('C'));
    expect((await searchLocalCases(db, { patientName: 'lerato' }, ctx)).total).toBe(1);
    const written = await summaryOf(db, id);
    const v1 = await version();
    // An autosave of a field the list does not show: same summary, same version.
    await save({ incidentDescription: 'Fell from a ladder' });
    expect(await version()).toBe(v1);
    expect((await summaryOf(db, id))?.stamp).toBe(written?.stamp);
    expect(
      ((await db.store('cases').get(id)) as { incidentDescription?: string }).incidentDescription,
    ).toBe('Fell from a ladder');
    // A listed field changes: the summary and the version follow, and search sees it.
    await save({ patientName: 'Lerato Mokoena' });
    expect(await version()).toBe(v1 + 1);
    expect(await summaryOf(db, id)).toMatchObject({ patientName: 'Lerato Mokoena', stamp: v1 + 1 });
    expect((await searchLocalCases(db, { patientName: 'mokoena' }, ctx)).total).toBe(1);
  });

  it('a gap (a summary missing) is still searched right, and rebuilt', async () => {
    const db = openDb();
    const a = row({ caseId: 'C-GAP', patientName: 'Still found' });
    await db.store('cases').bulkPut([a, row({ caseId: 'C-OTHER' })]);
    await db.store('caseSummaries').delete(a.id);
    expect(
      (await searchLocalCases(db, { patientName: 'still' }, ctx)).cases.map((c) => c.caseId),
    ).toEqual(['C-GAP']);
    expect((await recentLocalCases(db, 1)).map((c) => c.caseId)).toHaveLength(1);
    await vi.waitFor(async () => expect(await summaryCount(db)).toBe(2));
  });
});

describe('upgrading the database', () => {
  it('from version 2 fills in the summaries of the cases already stored', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(syncDatabaseName(USER_ID), { indexedDB, IDBKeyRange });
    old.version(1).stores({
      cases: 'id, caseId, userId, status',
      syncState: 'key',
      outbox: 'seq, &mutationId, *entityIds',
    });
    old.version(2).stores({ serverCopies: 'id' });
    await old
      .table('cases')
      .bulkPut([
        row({ caseId: 'C-KEPT-1', createdAt: '2026-11-20T08:00:00.000Z' }),
        row({ caseId: 'C-KEPT-2', createdAt: '2026-11-21T08:00:00.000Z' }),
      ]);
    old.close();

    const db = openDb(indexedDB);
    expect(db.verno).toBe(appDeviceSchema.version);
    expect(await db.store('cases').count()).toBe(2);
    expect(
      await db
        .store('caseSummaries')
        .filter((r) => r.id !== SUMMARY_VERSION_ID)
        .count(),
    ).toBe(2);
    expect((await recentLocalCases(db, 1)).map((c) => c.caseId)).toEqual(['C-KEPT-2']);
  });

  it('from version 3 (cases indexed by createdAt) as well', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(syncDatabaseName(USER_ID), { indexedDB, IDBKeyRange });
    old.version(1).stores({
      cases: 'id, caseId, userId, status',
      syncState: 'key',
      outbox: 'seq, &mutationId, *entityIds',
    });
    old.version(2).stores({ serverCopies: 'id' });
    old.version(3).stores({ cases: 'id, caseId, userId, status, createdAt' });
    await old.table('cases').put(row({ caseId: 'C-FROM-V3' }));
    old.close();

    const db = openDb(indexedDB);
    expect((await searchLocalCases(db, {}, ctx)).cases.map((c) => c.caseId)).toEqual(['C-FROM-V3']);
  });
});
