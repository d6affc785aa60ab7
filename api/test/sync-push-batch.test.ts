// How one push applies a batch (push-service.ts): it reads what the mutations would look up
// one by one (handled before, existing records, free numbers) once per batch, buffers the
// audit entries, and runs without a savepoint per mutation until one fails to apply — then
// the whole batch runs again with savepoints. Whatever path it takes, the outcome must be the
// one of applying the mutations one at a time, in seq order. Real HTTP, real database.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseListSchema } from '@rescuelog/sync-protocol/cases/api';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import { build, type TestApp } from './helpers';
import {
  completeCaseVital,
  Device,
  ensureSyncSchema,
  humanId,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('a push of many mutations', () => {
  let t: TestApp;
  let alice: SyncUser;

  beforeAll(async () => {
    t = await build();
    await ensureSyncSchema(t);
    alice = await syncUser(t);
  });
  afterAll(() => t.close());

  const auditOf = (deviceId: string) =>
    t.db
      .selectFrom('auditLog')
      .select(['id', 'action', 'outcome', 'entityId', 'details'])
      .where(({ ref }) => ref('details', '->>').key('deviceId'), '=', deviceId)
      .orderBy('id')
      .execute();

  it('applies every mutation around a refused one, in seq order, with one audit entry each', async () => {
    const device = new Device(alice);
    const a = uuid();
    const b = uuid();
    const number = humanId('C');
    const res = await device.push(
      device.m('case.upsert', { id: a, humanId: number, fields: { patientName: 'Thandi' } }),
      device.m('case.upsert', { id: a, fields: { incidentType: 'Fall' } }),
      // Another record with the number a mutation of this very batch has just used.
      device.m('case.upsert', { id: b, humanId: number, fields: { patientName: 'Sipho' } }),
      device.m('case.access', { id: uuid(), caseId: a, action: 'view' }),
      device.m('case.upsert', { id: b, humanId: humanId('C'), fields: { patientName: 'Sipho' } }),
      device.m('case.upsert', { id: a, fields: { patientName: 'Thandi Dube' } }),
    );
    expect(res.lastAppliedSeq).toBe(6);
    expect(res.results.map((r) => [r.seq, r.status, r.code])).toEqual([
      [1, 'applied', undefined],
      [2, 'applied', undefined],
      [3, 'rejected', RejectionCode.HUMAN_ID_COLLISION],
      [4, 'applied', undefined],
      [5, 'applied', undefined],
      [6, 'applied', undefined],
    ]);
    // The explicit check answered, not the unique index: it names the number.
    expect(res.results[2]?.message).toBe(`Another record already has the number ${number}.`);

    const cases = await t.db
      .selectFrom('cases')
      .select(['id', 'caseId', 'patientName', 'incidentType', 'fieldVersions', 'version'])
      .where('id', 'in', [a, b])
      .execute();
    const caseA = cases.find((c) => c.id === a);
    expect(caseA).toMatchObject({
      caseId: number,
      patientName: 'Thandi Dube',
      incidentType: 'Fall',
    });
    expect(cases.find((c) => c.id === b)).toMatchObject({ patientName: 'Sipho' });
    expect(cases.find((c) => c.id === b)?.caseId).not.toBe(number);
    // Later writes carry later field versions, all below the row's own version.
    const versions = caseA?.fieldVersions as Record<string, { version: string }>;
    const field = (f: string) => BigInt(versions[f]?.version ?? '0');
    expect(field('incidentType')).toBeGreaterThan(0n);
    expect(field('patientName')).toBeGreaterThan(field('incidentType'));
    expect(field('patientName')).toBeLessThanOrEqual(BigInt(String(caseA?.version)));

    // One entry per mutation, in seq order: five applied, one refusal.
    const audit = await auditOf(device.deviceId);
    expect(audit.map((e) => [Number((e.details as { seq: number }).seq), e.outcome])).toEqual([
      [1, 'success'],
      [2, 'success'],
      [3, 'failure'],
      [4, 'success'],
      [5, 'success'],
      [6, 'success'],
    ]);
    const handled = await t.db
      .selectFrom('appliedMutations')
      .select('seq')
      .where('deviceId', '=', device.deviceId)
      .orderBy('seq')
      .execute();
    expect(handled.map((h) => Number(h.seq))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses an edit of a record the batch has not created yet, then creates it', async () => {
    const device = new Device(alice);
    const id = uuid();
    const res = await device.push(
      device.m('case.delete', { id }),
      device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'Naledi' } }),
      device.m('case.upsert', { id, fields: { patientName: 'Naledi Khumalo' } }),
    );
    expect(res.results.map((r) => [r.status, r.code])).toEqual([
      ['rejected', RejectionCode.NOT_FOUND],
      ['applied', undefined],
      ['applied', undefined],
    ]);
    const row = await t.db
      .selectFrom('cases')
      .select(['patientName', 'deletedAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ patientName: 'Naledi Khumalo', deletedAt: null });
  });

  it('answers a replayed batch with what it answered first, rejections included, and writes nothing', async () => {
    const device = new Device(alice);
    const id = uuid();
    const batch = [
      device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'Lindiwe' } }),
      device.m('case.upsert', { id, fields: { gcsEyeOpening: 9 } }),
      device.m('case.upsert', { id, fields: { gcsEyeOpening: 4 } }),
    ];
    const first = await device.push(...batch);
    expect(first.results.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);
    const auditBefore = (await auditOf(device.deviceId)).length;
    const again = await device.push(...batch);
    expect(again.results.map((r) => [r.status, r.code])).toEqual([
      ['duplicate', undefined],
      ['rejected', RejectionCode.VALIDATION_FAILED],
      ['duplicate', undefined],
    ]);
    expect((await auditOf(device.deviceId)).length).toBe(auditBefore);
  });

  it('inserts a run of new cases together, each with its own fields, before anything that refers to them', async () => {
    const device = new Device(alice);
    const ids = [uuid(), uuid(), uuid(), uuid()];
    const numbers = ids.map(() => humanId('C'));
    const res = await device.push(
      device.m('case.upsert', {
        id: ids[0]!,
        humanId: numbers[0]!,
        fields: { patientName: 'Ayanda' },
      }),
      device.m('case.upsert', {
        id: ids[1]!,
        humanId: numbers[1]!,
        fields: { incidentType: 'Fall', approximateAge: 70 },
      }),
      device.m('case.upsert', { id: ids[2]!, humanId: numbers[2]!, fields: {} }),
      // Refers to a case of the run: it must already be in the table.
      device.m('vitalSign.record', completeCaseVital(ids[1]!)),
      device.m('case.upsert', {
        id: ids[3]!,
        humanId: numbers[3]!,
        fields: { patientName: 'Zola' },
      }),
      device.m('case.upsert', { id: ids[0]!, fields: { incidentType: 'Burn' } }),
    );
    expect(res.results.map((r) => r.status)).toEqual(Array(6).fill('applied'));
    const rows = await t.db
      .selectFrom('cases')
      .select([
        'id',
        'caseId',
        'patientName',
        'incidentType',
        'approximateAge',
        'status',
        'version',
      ])
      .where('id', 'in', ids)
      .execute();
    const byId = (id: string | undefined) => rows.find((r) => r.id === id);
    expect(byId(ids[0])).toMatchObject({
      caseId: numbers[0],
      patientName: 'Ayanda',
      incidentType: 'Burn',
      status: 'in_progress',
    });
    expect(byId(ids[1])).toMatchObject({
      caseId: numbers[1],
      patientName: null,
      incidentType: 'Fall',
      approximateAge: 70,
    });
    expect(byId(ids[2])).toMatchObject({
      caseId: numbers[2],
      patientName: null,
      status: 'in_progress',
    });
    expect(byId(ids[3])).toMatchObject({ caseId: numbers[3], patientName: 'Zola' });
    // Row versions in seq order of their last write.
    const version = (id: string | undefined) => BigInt(String(byId(id)?.version));
    expect(version(ids[1])).toBeLessThan(version(ids[2]));
    expect(version(ids[2])).toBeLessThan(version(ids[3]));
    expect(version(ids[3])).toBeLessThan(version(ids[0]));
  });

  it('rejects only the new case the database refuses when a run of new cases is inserted together', async () => {
    // A rule only the database knows (no schema check sees it coming), so the run's one
    // insert fails and the batch must fall back to one mutation at a time.
    await sql`alter table cases add constraint push_batch_test_refusal check (patient_name is distinct from 'Refused by the database') not valid`.execute(
      t.db,
    );
    try {
      const device = new Device(alice);
      const ids = [uuid(), uuid(), uuid()];
      const res = await device.push(
        device.m('case.upsert', {
          id: ids[0]!,
          humanId: humanId('C'),
          fields: { patientName: 'Bongani' },
        }),
        device.m('case.upsert', {
          id: ids[1]!,
          humanId: humanId('C'),
          fields: { patientName: 'Refused by the database' },
        }),
        device.m('case.upsert', {
          id: ids[2]!,
          humanId: humanId('C'),
          fields: { patientName: 'Nomsa' },
        }),
      );
      expect(res.results.map((r) => [r.status, r.code])).toEqual([
        ['applied', undefined],
        ['rejected', RejectionCode.VALIDATION_FAILED],
        ['applied', undefined],
      ]);
      expect(res.lastAppliedSeq).toBe(3);
      const rows = await t.db
        .selectFrom('cases')
        .select(['id', 'patientName'])
        .where('id', 'in', ids)
        .execute();
      expect(rows.map((r) => r.patientName).sort()).toEqual(['Bongani', 'Nomsa']);
      const audit = await auditOf(device.deviceId);
      expect(audit.map((e) => e.outcome)).toEqual(['success', 'failure', 'success']);
    } finally {
      await sql`alter table cases drop constraint push_batch_test_refusal`.execute(t.db);
    }
  });
  it('answers a push of 200 new cases only once case search finds every one of them', async () => {
    // Brief of decision 040: whatever makes a push cheaper, a new case must be findable by
    // search (GET /api/cases, decision 010) as soon as its push is answered.
    const device = new Device(alice);
    const token = `Findable${uuid().slice(0, 8)}`;
    const pushed = Array.from({ length: 200 }, (_, i) => ({
      id: uuid(),
      caseId: humanId('C'),
      patientName: `${token} ${String(i).padStart(3, '0')}`,
    }));
    const res = await device.push(
      ...pushed.map((c) =>
        device.m('case.upsert', {
          id: c.id,
          humanId: c.caseId,
          fields: { patientName: c.patientName, incidentType: 'Fall' },
        }),
      ),
    );
    expect(res.results.every((r) => r.status === 'applied')).toBe(true);
    const search = async (query: string): Promise<string[]> => {
      const found = await alice.client.get(`/api/cases?limit=200&${query}`);
      expect(found.status, await found.clone().text()).toBe(200);
      return caseListSchema.parse(await found.json()).map((c) => c.caseId);
    };
    expect((await search(`patientName=${token}`)).sort()).toEqual(
      pushed.map((c) => c.caseId).sort(),
    );
    const last = pushed[199]!;
    expect(await search(`patientName=${encodeURIComponent(last.patientName)}`)).toEqual([
      last.caseId,
    ]);
    expect(await search(`caseId=${last.caseId}`)).toEqual([last.caseId]);
    expect(await search(`incidentType=Fall&patientName=${token}%20137`)).toEqual([
      pushed[137]!.caseId,
    ]);
  });
});
