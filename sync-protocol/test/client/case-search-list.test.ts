// The case list kept between app starts (database version 5, `caseLists`): the first search
// after opening reads the stored list and the summaries written since (and only their keys
// when cases were removed) instead of every summary, and still answers exactly what reading
// every case would (a model test over random writes, restarts and removals); a stored list
// that is damaged, newer than the summaries or out of order is not trusted; upgrading from
// version 4 keeps every row.
import { Dexie } from 'dexie';
import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sortCasesNewestFirst } from '../../src/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '../../src/time';
import type { CaseSummary } from '../../src/cases/api';
import { searchLocalCases } from '../../src/cases/device-search';
import {
  CASE_LIST_ID,
  caseListRow,
  caseSummaryRow,
  listedCase,
  storedCaseListSchema,
  SUMMARY_VERSION_ID,
} from '../../src/cases/device-summaries';
import type { SyncDatabase } from '../../src/client/local-db';
import { syncDatabaseName } from '../../src/client/local-db';
import { saveMutation } from '../../src/client/outbox';
import { generateHumanId } from '../../src/platform/human-id';
import { appDeviceSchema, openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const ctx = { userId: USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE };
const opened: SyncDatabase[] = [];

/** A database object on `indexedDB`: a new one is what opening the app again gives. */
function openDb(indexedDB: InstanceType<typeof IDBFactory>): SyncDatabase {
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
  const day = String(1 + (n % 28)).padStart(2, '0');
  return {
    id: crypto.randomUUID(),
    caseId: `C-LIST-${String(n).padStart(5, '0')}`,
    status: 'in_progress',
    createdAt: `2026-10-${day}T08:00:00.000Z`,
    patientName: `Patient ${String(n)}`,
    userId: USER_ID,
    deletedAt: null,
    ...fields,
  };
}

/** What a search over every case row itself lists (the reference). */
async function reference(db: SyncDatabase): Promise<CaseSummary[]> {
  const rows = await db.store('cases').toArray();
  return sortCasesNewestFirst(
    rows.map((r) => listedCase(caseSummaryRow(r, 0))).filter((c): c is CaseSummary => c !== null),
  );
}

async function storedVersion(db: SyncDatabase): Promise<number | undefined> {
  const parsed = storedCaseListSchema.safeParse(await db.store('caseLists').get(CASE_LIST_ID));
  return parsed.success ? parsed.data.version : undefined;
}

async function summariesVersion(db: SyncDatabase): Promise<number> {
  return (
    ((await db.store('caseSummaries').get(SUMMARY_VERSION_ID)) as { stamp: number } | undefined)
      ?.stamp ?? 0
  );
}

/** Waits until the list stored for the next start is the one at the summaries' version. */
async function listStored(db: SyncDatabase): Promise<void> {
  await vi.waitFor(async () => expect(await storedVersion(db)).toBe(await summariesVersion(db)));
}

describe('the case list stored for the next start', () => {
  it('is written after a search read every summary, and the next start answers from it plus what changed since', async () => {
    const idb = new IDBFactory();
    const db = openDb(idb);
    const rows = Array.from({ length: 80 }, () => row());
    await db.store('cases').bulkPut(rows);
    expect(await db.store('caseLists').count()).toBe(0);
    expect((await searchLocalCases(db, {}, ctx)).total).toBe(80);
    await listStored(db);

    // Mark a case in the stored list only: a start that reads the stored list shows it.
    const stored = storedCaseListSchema.parse(await db.store('caseLists').get(CASE_LIST_ID));
    const marked = stored.ids.indexOf(rows[5]?.id ?? '');
    await db.store('caseLists').put({
      ...stored,
      patientNames: stored.patientNames.map((p, i) => (i === marked ? 'From the stored list' : p)),
    });
    // Changes after it was stored (another tab, the service worker, a pull): a rename, a new
    // case, a deleted one (tombstone), one without its number yet.
    await db.store('cases').update(rows[0]?.id ?? '', { patientName: 'Renamed since' });
    await db.store('cases').put(row({ caseId: 'C-NEWEST', createdAt: '2026-11-30T08:00:00.000Z' }));
    await db.store('cases').update(rows[1]?.id ?? '', { deletedAt: '2026-11-21T10:00:00.000Z' });
    await db.store('cases').put(row({ caseId: undefined }));

    const next = openDb(idb);
    const found = await searchLocalCases(next, {}, ctx);
    expect(found.total).toBe(80);
    expect(found.cases[0]?.caseId).toBe('C-NEWEST');
    expect(found.cases.find((c) => c.id === rows[0]?.id)?.patientName).toBe('Renamed since');
    expect(found.cases.some((c) => c.id === rows[1]?.id)).toBe(false);
    expect(found.cases.find((c) => c.id === rows[5]?.id)?.patientName).toBe('From the stored list');
    expect((await searchLocalCases(next, { patientName: 'from the stored' }, ctx)).total).toBe(1);
  });

  it("leaves out a case removed since (a pull applying a delete) from the summaries' keys, and is stored again", async () => {
    const idb = new IDBFactory();
    const db = openDb(idb);
    // Two that are not listed: one unreadable, one deleted (a tombstone).
    const rows = Array.from({ length: 60 }, (_, i) =>
      row(
        i === 6
          ? { createdAt: 'yesterday' }
          : i === 7
            ? { deletedAt: '2026-11-21T10:00:00.000Z' }
            : {},
      ),
    );
    await db.store('cases').bulkPut(rows);
    const reported: string[] = [];
    expect(
      (await searchLocalCases(db, {}, ctx, { onUnreadable: (id) => reported.push(id) })).total,
    ).toBe(58);
    expect(reported).toEqual([rows[6]?.id]);
    await listStored(db);
    // Marked in the stored list only: shown if the next start used it rather than reading
    // every summary.
    const stored = storedCaseListSchema.parse(await db.store('caseLists').get(CASE_LIST_ID));
    const marked = stored.ids.indexOf(rows[5]?.id ?? '');
    await db.store('caseLists').put({
      ...stored,
      patientNames: stored.patientNames.map((p, i) => (i === marked ? 'From the stored list' : p)),
    });
    await db.store('cases').bulkDelete([rows[3]?.id ?? '', rows[6]?.id ?? '', rows[7]?.id ?? '']);
    await db.store('cases').update(rows[4]?.id ?? '', { patientName: 'Renamed since' });

    const next = openDb(idb);
    const found = await searchLocalCases(next, {}, ctx, {
      onUnreadable: (id) => reported.push(id),
    });
    expect(reported).toHaveLength(1);
    expect(found.total).toBe(57);
    expect(found.cases.some((c) => c.id === rows[3]?.id)).toBe(false);
    expect(found.cases.find((c) => c.id === rows[4]?.id)?.patientName).toBe('Renamed since');
    expect(found.cases.find((c) => c.id === rows[5]?.id)?.patientName).toBe('From the stored list');
    await listStored(next);
    const restored = storedCaseListSchema.parse(await next.store('caseLists').get(CASE_LIST_ID));
    expect([...restored.ids, ...restored.unlisted, ...restored.unreadable]).toHaveLength(57);
  });

  it('is not trusted when damaged, newer than the summaries, or listing a case twice; put back in order if it is not', async () => {
    const idb = new IDBFactory();
    const db = openDb(idb);
    await db.store('cases').bulkPut(Array.from({ length: 60 }, () => row()));
    await searchLocalCases(db, {}, ctx);
    await listStored(db);
    const good = storedCaseListSchema.parse(await db.store('caseLists').get(CASE_LIST_ID));
    const expected = await reference(db);
    const damaged: unknown[] = [
      { ...good, patientNames: good.patientNames.slice(1) },
      { ...good, statuses: good.statuses.map(() => 'lost') },
      { ...good, layout: 2 },
      { ...good, version: good.version + 1, patientNames: good.patientNames.map(() => 'Future') },
      { ...good, ids: good.ids.map((id, i) => (i === 1 ? good.ids[0] : id)) as string[] },
      { ...good, unlisted: [good.ids[0]] },
      'not a list',
    ];
    for (const bad of damaged) {
      await db
        .store('caseLists')
        .put(typeof bad === 'string' ? { id: CASE_LIST_ID, bad } : (bad as { id: string }));
      const found = await searchLocalCases(openDb(idb), {}, ctx);
      expect(found.cases).toEqual(expected);
    }
    const reversed = (xs: readonly unknown[]) => [...xs].reverse();
    await db.store('caseLists').put({
      ...good,
      ...Object.fromEntries(
        (
          [
            'ids',
            'caseIds',
            'patientNames',
            'incidentTypes',
            'statuses',
            'createdAts',
            'completedAts',
            'userIds',
            'responderNames',
            'responderCallSigns',
          ] as const
        ).map((c) => [c, reversed(good[c])]),
      ),
    });
    expect((await searchLocalCases(openDb(idb), {}, ctx)).cases).toEqual(expected);
  });

  it('is written again in place of one it did not trust, even at the same version or a newer one', async () => {
    const idb = new IDBFactory();
    const db = openDb(idb);
    await db.store('cases').bulkPut(Array.from({ length: 60 }, () => row()));
    await searchLocalCases(db, {}, ctx);
    await listStored(db);
    const good = storedCaseListSchema.parse(await db.store('caseLists').get(CASE_LIST_ID));
    const untrusted = [
      // The same version, a case listed twice: every start would read every summary again.
      { ...good, ids: good.ids.map((id, i) => (i === 1 ? good.ids[0] : id)) as string[] },
      // Newer than the summaries: trusted, with what it holds, once they reach its version.
      { ...good, version: good.version + 5, patientNames: good.patientNames.map(() => 'Future') },
    ];
    for (const bad of untrusted) {
      await db.store('caseLists').put(bad);
      const next = openDb(idb);
      await searchLocalCases(next, {}, ctx);
      await vi.waitFor(async () =>
        expect(await next.store('caseLists').get(CASE_LIST_ID)).toEqual(good),
      );
    }
  });

  it('parses only a well-formed list: every column of the right type, no holes, equal lengths', () => {
    const one = caseListRow(
      3,
      [
        {
          id: 'a',
          caseId: 'C-1',
          patientName: null,
          incidentType: 'Fall',
          status: 'completed',
          createdAt: '2026-11-21T08:00:00.000Z',
          completedAt: null,
          userId: 7,
          responderName: null,
          responderCallSign: 'R7',
        },
      ],
      ['b'],
      ['c'],
    );
    expect(storedCaseListSchema.safeParse(one).success).toBe(true);
    const sparse: unknown[] = [];
    sparse[1] = 'C-2';
    const bad: Array<Record<string, unknown>> = [
      { caseIds: sparse },
      { caseIds: [null] },
      { patientNames: [7] },
      { patientNames: 'Thandi' },
      { userIds: [Number.NaN] },
      { userIds: ['7'] },
      { statuses: ['lost'] },
      { unlisted: [null] },
      { createdAts: [] },
      { version: -1 },
    ];
    for (const change of bad)
      expect(
        storedCaseListSchema.safeParse({ ...one, ...change }).success,
        JSON.stringify(change),
      ).toBe(false);
  });

  it('is written by the reader, never by a save (a local save stays as cheap as before)', async () => {
    const idb = new IDBFactory();
    const db = openDb(idb);
    const id = crypto.randomUUID();
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Sam' } },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    await db.store('cases').bulkPut(Array.from({ length: 70 }, () => row()));
    expect(await db.store('caseLists').count()).toBe(0);
  });

  it('gives the same answers as reading every case, through random writes, removals and restarts', async () => {
    type Op =
      | { kind: 'add'; count: number; day: number }
      | {
          kind: 'rename' | 'redate' | 'tombstone' | 'remove' | 'unreadable' | 'complete';
          pick: number;
          day: number;
        }
      | { kind: 'restart' | 'settle' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        count: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 40, max: 90 })),
        day: fc.integer({ min: 1, max: 28 }),
      }),
      fc.record({
        kind: fc.constantFrom(
          'rename' as const,
          'redate' as const,
          'tombstone' as const,
          'remove' as const,
          'unreadable' as const,
          'complete' as const,
        ),
        pick: fc.nat({ max: 5 }),
        day: fc.integer({ min: 1, max: 28 }),
      }),
      fc.record({ kind: fc.constantFrom('restart' as const, 'settle' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const idb = new IDBFactory();
        let db = openDb(idb);
        const ids: string[] = [];
        for (const o of ops) {
          // Among the first few cases, so that changes meet (made unreadable, then removed).
          const id = 'pick' in o ? ids[o.pick % Math.max(1, ids.length)] : undefined;
          const at = 'day' in o ? `2026-10-${String(o.day).padStart(2, '0')}T08:00:00.000Z` : '';
          switch (o.kind) {
            case 'add': {
              // Some at the same instant, some without a time (they list last).
              const created = (i: number) =>
                i % 11 === 0
                  ? undefined
                  : i % 7 === 0
                    ? at
                    : `2026-09-${String(1 + (i % 28)).padStart(2, '0')}T0${String(i % 10)}:00:00.000Z`;
              const rows = Array.from({ length: o.count }, (_, i) =>
                row({ createdAt: created(i) }),
              );
              await db.store('cases').bulkPut(rows);
              ids.push(...rows.map((r) => r.id));
              break;
            }
            case 'rename':
              if (id) await db.store('cases').update(id, { patientName: `Renamed ${at}` });
              break;
            case 'redate':
              if (id) await db.store('cases').update(id, { createdAt: at });
              break;
            case 'complete':
              if (id) await db.store('cases').update(id, { status: 'completed', completedAt: at });
              break;
            case 'tombstone':
              if (id) await db.store('cases').update(id, { deletedAt: at });
              break;
            case 'unreadable':
              if (id) await db.store('cases').update(id, { createdAt: 'yesterday' });
              break;
            case 'remove':
              if (id) await db.store('cases').delete(id);
              break;
            case 'restart':
              db = openDb(idb);
              break;
            case 'settle':
              await new Promise((resolve) => setTimeout(resolve, 20));
              break;
          }
          const unreadable: string[] = [];
          const found = await searchLocalCases(db, {}, ctx, {
            onUnreadable: (bad) => unreadable.push(bad),
          });
          const expected = await reference(db);
          expect(found.cases).toEqual(expected);
          expect(found.total).toBe(expected.length);
          const bad = (await db.store('cases').toArray())
            .filter((r) => caseSummaryRow(r, 0).unreadable)
            .map((r) => r.id);
          expect(unreadable.sort()).toEqual(bad.sort());
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('upgrading the database to version 5', () => {
  it('keeps every row of version 4, and the first search reads them', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(syncDatabaseName(USER_ID), { indexedDB, IDBKeyRange });
    // Version 4 as shipped (stores only; its upgrade steps do not run on a new database).
    old.version(1).stores({
      cases: 'id, caseId, userId, status',
      vitalSigns: 'id, caseId',
      cprSessions: 'id, sessionId, caseId',
      cprEvents: 'id, cprSessionId',
      incidentReports: 'id, incidentId, userId',
      mciIncidents: 'id, incidentId',
      mciCasualties: 'id, mciIncidentId, caseId',
      caseAddenda: 'id, caseId',
      outbox: 'seq, &mutationId, *entityIds',
      rejections: 'mutationId, seq',
      syncState: 'key',
    });
    old.version(2).stores({ serverCopies: 'id' });
    old.version(3).stores({ cases: 'id, caseId, userId, status, createdAt' });
    old
      .version(4)
      .stores({ cases: 'id, caseId, userId, status', caseSummaries: 'id, createdAt, stamp' });
    const cases = [
      row({ caseId: 'C-V4-1' }),
      row({ caseId: 'C-V4-2', createdAt: '2026-11-21T08:00:00.000Z' }),
    ];
    await old.table('cases').bulkPut(cases);
    await old
      .table('caseSummaries')
      .bulkPut([...cases.map((c) => caseSummaryRow(c, 3)), { id: SUMMARY_VERSION_ID, stamp: 3 }]);
    await old.table('vitalSigns').put({ id: 'v-1', caseId: cases[0]?.id });
    await old.table('outbox').put({ seq: 1, mutationId: 'm-1', entityIds: [cases[0]?.id] });
    await old.table('serverCopies').put({ id: cases[1]?.id, data: null });
    await old.table('syncState').put({ key: 'pull', cursor: 'abc' });
    const before = Object.fromEntries(
      await Promise.all(old.tables.map(async (t) => [t.name, await t.toArray()] as const)),
    );
    old.close();

    const db = openDb(indexedDB);
    await db.open();
    expect(db.verno).toBe(appDeviceSchema.version);
    for (const [name, rows] of Object.entries(before))
      expect(await db.table(name).toArray(), name).toEqual(rows);
    expect(await db.store('caseLists').count()).toBe(0);
    expect((await searchLocalCases(db, {}, ctx)).cases.map((c) => c.caseId)).toEqual([
      'C-V4-2',
      'C-V4-1',
    ]);
  });
});
