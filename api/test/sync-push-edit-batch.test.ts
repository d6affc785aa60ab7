// A push's updates wait and go in together (batch-records.ts: one UPDATE … FROM (VALUES …) per
// kind and set of columns, issue 12). The outcome must stay exactly that of one mutation per
// push: every field written, two changes of one record applied in order (the second seeing
// the first), field versions and conflicts as before, and a refused update costing only its
// own mutation.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  Device,
  humanId,
  RESPONDER,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

let t: TestApp;
let alice: SyncUser;
let admin: SyncUser;

beforeAll(async () => {
  t = await buildSyncApp();
  alice = await syncUser(t, RESPONDER);
  admin = await syncUser(t, {}, 'administrator');
});

afterAll(() => t.close());

type Fields = Record<string, unknown>;

async function caseRow(id: string) {
  const row = await t.db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new Error(`no case ${id}`);
  return row as unknown as Record<string, unknown> & {
    version: string;
    fieldVersions: Record<string, { version: string; by: number }>;
  };
}

const CHECKED = ['patientName', 'approximateAge', 'allergies', 'medications', 'incidentType'];

/** What a case is, whatever its ids and times: for comparing two runs of the same changes. */
function content(row: Record<string, unknown> & { fieldVersions: Fields }) {
  const versions = row.fieldVersions as Record<string, { by: number }>;
  return {
    ...Object.fromEntries(CHECKED.map((k) => [k, row[k]])),
    deleted: row.deletedAt !== null,
    writers: Object.fromEntries(
      Object.entries(versions)
        .map(([field, v]) => [field, v.by])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
  };
}

/**
 * Six cases made by alice, two of them then changed by the administrator; then alice's
 * changes from the base before the administrator's, as one batch or one per push.
 */
async function story(batched: boolean) {
  const device = new Device(alice);
  const other = new Device(admin);
  const ids = [uuid(), uuid(), uuid(), uuid(), uuid(), uuid()];
  const [a, b, c, d, e, f] = ids as [string, string, string, string, string, string];
  await device.push(
    ...ids.map((id, i) =>
      device.m('case.upsert', {
        id,
        humanId: humanId('C'),
        fields: {
          patientName: `Patient ${String(i)}`,
          approximateAge: 30 + i,
          allergies: 'None known',
          incidentType: 'MVA',
        },
      }),
    ),
  );
  const base = String((await caseRow(f)).version);
  await other.push(
    other.m('case.upsert', { id: c, fields: { allergies: 'Latex' } }, { baseVersion: base }),
    other.m('case.upsert', { id: d, fields: { patientName: 'Admin D' } }, { baseVersion: base }),
  );
  const o = { baseVersion: base };
  const mutations = [
    device.m('case.upsert', { id: a, fields: { patientName: 'A1' } }, o),
    device.m('case.upsert', { id: b, fields: { patientName: 'B1', approximateAge: 61 } }, o),
    // Another person's newer value: a conflict, and alice's value wins.
    device.m('case.upsert', { id: c, fields: { allergies: 'Penicillin' } }, o),
    // A again, other columns: waits behind its first change.
    device.m('case.upsert', { id: a, fields: { approximateAge: 44, medications: 'Aspirin' } }, o),
    device.m('case.upsert', { id: d, fields: { medications: 'None' } }, o),
    // A again, the first change's columns, back to the value before the batch: a change
    // (only if it sees A1), not a no-op.
    device.m('case.upsert', { id: a, fields: { patientName: 'Patient 0' } }, o),
    // The same value again: nothing written, no field version, no audit entry.
    device.m('case.upsert', { id: e, fields: { incidentType: 'MVA' } }, o),
    device.m('case.upsert', { id: e, fields: { patientName: 'E1' } }, o),
    device.m('case.delete', { id: f }),
    device.m('case.upsert', { id: b, fields: { patientName: 'B2' } }, o),
    // Changed twice by alice in this batch after the administrator: one conflict, then none.
    device.m('case.upsert', { id: d, fields: { patientName: 'D1' } }, o),
    device.m('case.upsert', { id: d, fields: { patientName: 'D2' } }, o),
    device.m('case.upsert', { id: e, fields: { approximateAge: 70 } }, o),
  ];
  const results = [];
  if (batched) results.push(...(await device.push(...mutations)).results);
  else for (const m of mutations) results.push(...(await device.push(m)).results);
  const conflicts = await t.db
    .selectFrom('syncConflicts')
    .select([
      'entityId',
      'field',
      'serverValue',
      'clientValue',
      'serverAuthor',
      'clientAuthor',
      'baseVersion',
    ])
    .where('entityId', 'in', ids)
    .orderBy('id')
    .execute();
  const audit = await t.db
    .selectFrom('auditLog')
    .select(['action', 'entityId', 'details'])
    .where(({ ref }) => ref('details', '->>').key('deviceId'), '=', device.deviceId)
    .orderBy('id')
    .execute();
  const rows = await Promise.all(ids.map(caseRow));
  const letter = (id: string | null) => 'abcdef'[ids.indexOf(id ?? '')] ?? id;
  return {
    base,
    rows,
    results: results.map((r) => [r.seq, r.status, r.code ?? null, r.conflicts ?? []]),
    cases: rows.map(content),
    conflicts: conflicts.map((x) => ({ ...x, entityId: letter(x.entityId) })),
    audit: audit.map((x) => {
      const details = x.details as { seq?: number; fields?: string[]; conflicts?: string[] };
      return [x.action, letter(x.entityId), details.seq, details.fields, details.conflicts];
    }),
  };
}

describe('a push of edits whose updates go in together', () => {
  it('ends as one mutation per push would: every field, two changes of a record in order, conflicts', async () => {
    const batched = await story(true);
    const oneByOne = await story(false);
    const { rows, base, ...compared } = batched;
    const { rows: rowsOneByOne, base: baseOneByOne, ...expected } = oneByOne;
    expect(compared.conflicts.map((x) => x.baseVersion)).toEqual([base, base]);
    expect(expected.conflicts.map((x) => x.baseVersion)).toEqual([baseOneByOne, baseOneByOne]);
    const noBase = (x: typeof compared.conflicts) => x.map(({ baseVersion: _, ...rest }) => rest);
    expect({ ...compared, conflicts: noBase(compared.conflicts) }).toEqual({
      ...expected,
      conflicts: noBase(expected.conflicts),
    });
    expect(rowsOneByOne).toHaveLength(6);

    // What the batch must have written (not only "the same as one by one").
    expect(batched.cases.map(({ writers: _, ...rest }) => rest)).toEqual([
      {
        patientName: 'Patient 0',
        approximateAge: 44,
        allergies: 'None known',
        medications: 'Aspirin',
        incidentType: 'MVA',
        deleted: false,
      },
      {
        patientName: 'B2',
        approximateAge: 61,
        allergies: 'None known',
        medications: null,
        incidentType: 'MVA',
        deleted: false,
      },
      {
        patientName: 'Patient 2',
        approximateAge: 32,
        allergies: 'Penicillin',
        medications: null,
        incidentType: 'MVA',
        deleted: false,
      },
      {
        patientName: 'D2',
        approximateAge: 33,
        allergies: 'None known',
        medications: 'None',
        incidentType: 'MVA',
        deleted: false,
      },
      {
        patientName: 'E1',
        approximateAge: 70,
        allergies: 'None known',
        medications: null,
        incidentType: 'MVA',
        deleted: false,
      },
      {
        patientName: 'Patient 5',
        approximateAge: 35,
        allergies: 'None known',
        medications: null,
        incidentType: 'MVA',
        deleted: true,
      },
    ]);
    expect(batched.conflicts).toEqual([
      expect.objectContaining({
        entityId: 'c',
        field: 'allergies',
        serverValue: 'Latex',
        clientValue: 'Penicillin',
        serverAuthor: admin.id,
        clientAuthor: alice.id,
      }),
      expect.objectContaining({
        entityId: 'd',
        field: 'patientName',
        serverValue: 'Admin D',
        clientValue: 'D1',
        serverAuthor: admin.id,
        clientAuthor: alice.id,
      }),
    ]);
    expect(batched.results.filter((r) => (r[3] as unknown[]).length > 0).map((r) => r[0])).toEqual([
      9, 17,
    ]);
    // A's three changes (seq 7 on: 1-6 made the cases), in order, each its own audit entry
    // with the fields it wrote; D's conflict named in its entry.
    expect(batched.audit.filter((x) => x[1] === 'a' && Number(x[2]) > 6)).toEqual([
      ['sync.case.upsert', 'a', 7, ['patientName'], undefined],
      ['sync.case.upsert', 'a', 10, ['approximateAge', 'medications'], undefined],
      ['sync.case.upsert', 'a', 12, ['patientName'], undefined],
    ]);
    expect(batched.audit.filter((x) => x[1] === 'd' && Number(x[2]) > 6)).toEqual([
      ['sync.case.upsert', 'd', 11, ['medications'], undefined],
      ['sync.case.upsert', 'd', 17, ['patientName'], ['patientName']],
      ['sync.case.upsert', 'd', 18, ['patientName'], undefined],
    ]);
    // Field versions: each field's is that of the change that last wrote it, later changes
    // higher, all below the row's own version (the trigger's, taken when the row was written).
    const [a, , , d] = rows;
    const fv = (row: typeof a, field: string) => BigInt(row?.fieldVersions[field]?.version ?? -1);
    expect(fv(a, 'patientName')).toBeGreaterThan(fv(a, 'approximateAge'));
    expect(fv(a, 'approximateAge')).toEqual(fv(a, 'medications'));
    expect(fv(d, 'patientName')).toBeGreaterThan(fv(d, 'medications'));
    for (const row of rows)
      for (const v of Object.values(row.fieldVersions))
        expect(BigInt(v.version)).toBeLessThan(BigInt(row.version));
  });

  it('refuses only the change the database refuses when the batch’s updates go in together', async () => {
    // A rule of this database only (the schema has none an update could break after zod).
    await sql`alter table cases add constraint edit_batch_test_refuse
      check (patient_name is distinct from 'Refuse me') not valid`.execute(t.db);
    try {
      const device = new Device(alice);
      const ids = [uuid(), uuid(), uuid()];
      await device.push(
        ...ids.map((id) =>
          device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'New' } }),
        ),
      );
      const [a, b, c] = ids as [string, string, string];
      const res = await device.push(
        device.m('case.upsert', { id: a, fields: { patientName: 'A1' } }),
        device.m('case.upsert', { id: b, fields: { patientName: 'Refuse me' } }),
        device.m('case.upsert', { id: c, fields: { patientName: 'C1' } }),
        device.m('case.upsert', { id: a, fields: { approximateAge: 50 } }),
      );
      expect(res.results.map((r) => [r.seq, r.status, r.code])).toEqual([
        [4, 'applied', undefined],
        [5, 'rejected', RejectionCode.VALIDATION_FAILED],
        [6, 'applied', undefined],
        [7, 'applied', undefined],
      ]);
      expect((await caseRow(a)).patientName).toBe('A1');
      expect((await caseRow(a)).approximateAge).toBe(50);
      expect((await caseRow(b)).patientName).toBe('New');
      expect((await caseRow(c)).patientName).toBe('C1');
    } finally {
      await sql`alter table cases drop constraint edit_batch_test_refuse`.execute(t.db);
    }
  });

  it('writes a batch of edits of different cases that set the same fields in one UPDATE', async () => {
    const device = new Device(alice);
    const ids = Array.from({ length: 40 }, () => uuid());
    await device.push(
      ...ids.map((id) =>
        device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'New' } }),
      ),
    );
    // Counts the UPDATE statements on cases (a statement trigger of this database only).
    await sql`create table edit_batch_updates (n int not null)`.execute(t.db);
    await sql`create function edit_batch_count() returns trigger language plpgsql as
      $$ begin insert into edit_batch_updates values (1); return null; end $$`.execute(t.db);
    await sql`create trigger edit_batch_count after update on cases
      for each statement execute function edit_batch_count()`.execute(t.db);
    try {
      const res = await device.push(
        ...ids.map((id, i) =>
          device.m('case.upsert', {
            id,
            fields: { patientName: `Edited ${String(i)}`, approximateAge: i },
          }),
        ),
      );
      expect(res.results.every((r) => r.status === 'applied')).toBe(true);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from edit_batch_updates`.execute(t.db);
      expect(rows[0]?.n).toBe(1);
      const names = await t.db
        .selectFrom('cases')
        .select(['id', 'patientName', 'approximateAge'])
        .where('id', 'in', ids)
        .execute();
      expect(new Map(names.map((r) => [r.id, [r.patientName, r.approximateAge]]))).toEqual(
        new Map(ids.map((id, i) => [id, [`Edited ${String(i)}`, i]])),
      );
    } finally {
      await sql`drop trigger edit_batch_count on cases`.execute(t.db);
      await sql`drop function edit_batch_count()`.execute(t.db);
      await sql`drop table edit_batch_updates`.execute(t.db);
    }
  });
});
