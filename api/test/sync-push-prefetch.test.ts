// A push reads the records its batch names once, before the first mutation, and answers the
// mutators from that (batch-records.ts, issue 12). The outcome must stay exactly that of
// applying the mutations one at a time: these tests push the same changes as one batch and
// one per push and compare, and make a mutation write and then fail after the read, to show
// the next mutation of the batch sees the record as the database holds it.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineMutator } from '@rescuelog/sync-protocol/platform/mutator';
import { defineRecord } from '@rescuelog/sync-protocol/platform/record';
import { createRegistry } from '@rescuelog/sync-protocol/platform/registry';
import { Rejection, RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import { uuidSchema } from '@rescuelog/sync-protocol/platform/values';
import { upsertMutator } from '@rescuelog/sync-protocol/platform/verbs';
import { pushResponseSchema, type PushResponse } from '@rescuelog/sync-protocol/platform/push-pull';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  completeCaseFields,
  Device,
  humanId,
  migrateNotes,
  noteFields,
  noteKind,
  pullAll,
  RESPONDER,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

// A throwaway kind whose `gearCheck.stamp` writes the record and then fails: refused (a
// rejection) or broken (a TypeError, a fault in the server's code), as the test asks.
const gearKind = noteKind('gearCheck', 'gearChecks', 'gear_checks');
const stamp = defineMutator({
  name: 'gearCheck.stamp',
  label: 'Gear check stamp',
  kind: 'gearCheck',
  args: z.strictObject({ id: uuidSchema, title: z.string(), fail: z.enum(['refuse', 'break']) }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    await tx.require('gearCheck', a.id, 'change');
    await tx.update('gearCheck', a.id, { title: a.title });
    if (tx.location !== 'server') return;
    if (a.fail === 'refuse')
      throw new Rejection(RejectionCode.VALIDATION_FAILED, 'Stamped and refused.');
    throw new TypeError("Cannot read properties of undefined (reading 'stamp')");
  },
});
// `gearCheck.snapshot` writes what the mutator read of one record into a new one: what a
// mutator sees in the middle of a batch, for the test to compare with the database.
const snapshot = defineMutator({
  name: 'gearCheck.snapshot',
  label: 'Gear check snapshot',
  kind: 'gearCheck',
  args: z.strictObject({ id: uuidSchema, of: uuidSchema }),
  entityIds: (a) => [a.id, a.of],
  async apply(tx, a) {
    const seen = await tx.get('gearCheck', a.of);
    await tx.insert('gearCheck', {
      id: a.id,
      title: 'snapshot',
      body: JSON.stringify(seen ?? null),
    });
  },
});
const gearCheck = defineRecord({
  ...gearKind,
  mutators: [upsertMutator(gearKind, noteFields, { requiredOnCreate: ['title'] }), stamp, snapshot],
});
const registry = createRegistry([...APP_RECORDS, gearCheck]);

let t: TestApp;
let alice: SyncUser;

beforeAll(async () => {
  t = await buildSyncApp({
    registry,
    migrate: migrateNotes('gear_checks'),
  });
  alice = await syncUser(t, {
    ...RESPONDER,
    incidentReports: { read: true, create: true, edit: true, delete: true },
  });
});

afterAll(() => t.close());

/** A device speaking the raw protocol (the test's own kind has no typed mutation names). */
class RawDevice {
  readonly deviceId = randomUUID();
  seq = 0;

  m(name: string, args: Record<string, unknown>, baseVersion: string | null = null) {
    this.seq += 1;
    return {
      mutationId: randomUUID(),
      deviceId: this.deviceId,
      seq: this.seq,
      actorUserId: alice.id,
      name,
      args,
      entityIds: [String(args.id)],
      baseVersion,
      clientTime: new Date().toISOString(),
      schemaVersion: SCHEMA_VERSION,
    };
  }

  async push(...mutations: unknown[]): Promise<PushResponse> {
    const res = await alice.client.post('/api/sync/push', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId: this.deviceId,
      mutations,
    });
    expect(res.status).toBe(200);
    return pushResponseSchema.parse(await res.json());
  }
}

async function gear(id: string) {
  const { rows } = await sql<{
    title: string;
    body: string | null;
    fieldVersions: Record<string, { by: number }>;
  }>`select title, body, field_versions from gear_checks where id = ${id}`.execute(t.db);
  return rows[0];
}

/** The audit entries of a device's mutations: action, outcome, and the fields each wrote. */
async function auditOf(deviceId: string) {
  const rows = await t.db
    .selectFrom('auditLog')
    .select(['action', 'outcome', 'details'])
    .where(({ ref }) => ref('details', '->>').key('deviceId'), '=', deviceId)
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const details = r.details as { seq?: number; fields?: string[]; code?: string };
    return [r.action, r.outcome, details.seq, details.fields ?? details.code ?? null];
  });
}

/** What a record is, whatever its ids and times: for comparing two runs of the same changes. */
function content(row: Record<string, unknown> | undefined, drop: readonly string[]) {
  if (!row) return row;
  const out = { ...row };
  for (const key of drop) delete out[key];
  const versions = out.fieldVersions as Record<string, { by: number }> | undefined;
  if (versions)
    out.fieldVersions = Object.fromEntries(
      Object.entries(versions)
        .map(([field, v]) => [field, v.by])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  return out;
}

const VOLATILE = ['id', 'caseId', 'sessionId', 'version', 'updatedAt', 'createdAt'];

describe('a push that reads its batch once', () => {
  it('ends as one mutation per push would: one record touched many times, several kinds mixed', async () => {
    // The same story twice: as one batch, and one mutation per push.
    async function story(device: Device, batched: boolean) {
      const c = uuid();
      const gone = uuid();
      const vital = uuid();
      const cpr = uuid();
      const shock = uuid();
      const mutations = [
        device.m('case.upsert', {
          id: c,
          humanId: humanId('C'),
          fields: { ...completeCaseFields(), patientName: 'Thandi' },
        }),
        device.m('case.upsert', {
          id: c,
          fields: { patientName: 'Thandi Dube', allergies: 'None' },
        }),
        device.m('vitalSign.record', {
          id: vital,
          caseId: c,
          type: 'heartRate',
          value: '88',
          numericValue: 88,
          timestamp: '2026-11-21T08:15:00.000Z',
        }),
        // The same value again: no change, no field version, no audit entry.
        device.m('case.upsert', { id: c, fields: { patientName: 'Thandi Dube' } }),
        device.m('cprSession.upsert', {
          id: cpr,
          humanId: humanId('S'),
          fields: { caseId: c, startTime: '2026-11-21T08:00:00.000Z' },
        }),
        device.m('cprEvent.record', {
          id: shock,
          cprSessionId: cpr,
          type: 'shock',
          at: '2026-11-21T08:01:00.000Z',
          details: { energyJoules: 200 },
        }),
        device.m('vitalSign.void', { id: vital, reason: 'Wrong patient' }),
        device.m('vitalSign.record', {
          id: uuid(),
          caseId: c,
          type: 'heartRate',
          value: '92',
          numericValue: 92,
          timestamp: '2026-11-21T08:20:00.000Z',
        }),
        device.m('case.upsert', {
          id: gone,
          humanId: humanId('C'),
          fields: { patientName: 'Gone' },
        }),
        device.m('case.delete', { id: gone }),
        // An edit of the record deleted just before: refused.
        device.m('case.upsert', { id: gone, fields: { patientName: 'Back' } }),
        device.m('case.upsert', { id: c, fields: { allergies: 'Penicillin', approximateAge: 41 } }),
        device.m('case.complete', { id: c, completedAt: '2026-11-21T09:30:00.000Z' }),
        // Completed (locked) by the mutation just before: refused.
        device.m('case.upsert', { id: c, fields: { patientName: 'Too late' } }),
      ];
      const results: PushResponse['results'] = [];
      if (batched) results.push(...(await device.push(...mutations)).results);
      else for (const m of mutations) results.push(...(await device.push(m)).results);
      const row = (table: 'cases' | 'vitalSigns' | 'cprSessions' | 'cprEvents', id: string) =>
        t.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
      return {
        results: results.map((r) => [r.status, r.code ?? null, r.conflicts?.length ?? 0]),
        case: content(await row('cases', c), VOLATILE),
        gone: content(await row('cases', gone), [...VOLATILE, 'deletedAt']),
        goneDeleted: (await row('cases', gone))?.deletedAt !== null,
        vital: content(await row('vitalSigns', vital), [...VOLATILE, 'caseId', 'voidedAt']),
        cpr: content(await row('cprSessions', cpr), [...VOLATILE]),
        shock: content(await row('cprEvents', shock), [...VOLATILE, 'cprSessionId']),
        audit: (await auditOf(device.deviceId)).map(([action, outcome, , fields]) => [
          action,
          outcome,
          fields,
        ]),
      };
    }
    const batched = await story(new Device(alice), true);
    const oneByOne = await story(new Device(alice), false);
    expect(batched).toEqual(oneByOne);
    expect(batched.results.map((r) => r[1])).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      RejectionCode.DELETED,
      null,
      null,
      RejectionCode.CASE_LOCKED,
    ]);
    expect(batched.case).toMatchObject({
      patientName: 'Thandi Dube',
      allergies: 'Penicillin',
      approximateAge: 41,
      status: 'completed',
    });
    expect(batched.goneDeleted).toBe(true);
  });

  it('shows a mutator, in the middle of a batch, exactly the record the database holds', async () => {
    const device = new RawDevice();
    const id = uuid();
    const fresh = uuid();
    await device.push(device.m('gearCheck.upsert', { id, fields: { title: 'Rope', body: null } }));
    // Read by the batch's first statement, then written twice (the second write keeps what the
    // update returned), then read by the snapshot; and one created by this very batch.
    const snapshots = [uuid(), uuid(), uuid()];
    const res = await device.push(
      device.m('gearCheck.snapshot', { id: snapshots[0], of: id }),
      device.m('gearCheck.upsert', { id, fields: { title: 'Rope 2' } }),
      device.m('gearCheck.upsert', { id, fields: { body: 'Frayed at 3 m' } }),
      device.m('gearCheck.snapshot', { id: snapshots[1], of: id }),
      device.m('gearCheck.upsert', { id: fresh, fields: { title: 'Carabiner', body: null } }),
      device.m('gearCheck.snapshot', { id: snapshots[2], of: fresh }),
    );
    expect(res.results.every((r) => r.status === 'applied')).toBe(true);
    const { changes } = await pullAll(alice.client);
    const record = (of: string) => changes.find((c) => c.id === of)?.data;
    const seen = (snap: string | undefined) =>
      JSON.parse(String(record(snap ?? '')?.body)) as unknown;
    // The last two snapshots saw the records as they are now (nothing wrote them since).
    expect(seen(snapshots[1])).toEqual(record(id));
    expect(seen(snapshots[2])).toEqual(record(fresh));
    // The first saw it before the batch's writes: its first version.
    expect(seen(snapshots[0])).toMatchObject({ id, title: 'Rope', body: null });
    expect((seen(snapshots[0]) as { version: string }).version).not.toBe(record(id)?.version);
  });

  it('shows the next mutation the record as the database holds it after one wrote and was refused', async () => {
    const device = new RawDevice();
    const id = uuid();
    await device.push(device.m('gearCheck.upsert', { id, fields: { title: 'Rope', body: null } }));
    const before = await gear(id);
    // One batch: the record is read before the first mutation; the stamp writes the title and
    // is then refused (rolled back to its savepoint); the upserts after it must not see the
    // stamped title: writing 'Rope' again is no change, and the body is written.
    const res = await device.push(
      device.m('gearCheck.upsert', { id, fields: { body: 'Checked' } }),
      device.m('gearCheck.stamp', { id, title: 'Stamped', fail: 'refuse' }),
      device.m('gearCheck.upsert', { id, fields: { title: 'Rope' } }),
      device.m('gearCheck.upsert', { id, fields: { body: 'Checked twice' } }),
    );
    expect(res.results.map((r) => [r.seq, r.status, r.code])).toEqual([
      [2, 'applied', undefined],
      [3, 'rejected', RejectionCode.VALIDATION_FAILED],
      [4, 'applied', undefined],
      [5, 'applied', undefined],
    ]);
    const after = await gear(id);
    expect(after).toMatchObject({ title: 'Rope', body: 'Checked twice' });
    // The title's field version is still the create's: nothing wrote it since.
    expect(after?.fieldVersions.title).toEqual(before?.fieldVersions.title);
    expect(await auditOf(device.deviceId)).toEqual([
      ['sync.gearCheck.upsert', 'success', 1, ['title', 'body']],
      ['sync.gearCheck.upsert', 'success', 2, ['body']],
      ['sync.rejected', 'failure', 3, RejectionCode.VALIDATION_FAILED],
      ['sync.gearCheck.upsert', 'success', 5, ['body']],
    ]);
  });

  it('stops at a mutation that wrote and then broke, keeps what came before, and stores it once fixed', async () => {
    const device = new RawDevice();
    const id = uuid();
    const first = device.m('gearCheck.upsert', { id, fields: { title: 'Harness', body: null } });
    const second = device.m('gearCheck.upsert', { id, fields: { body: 'Buckles ok' } });
    const broken = device.m('gearCheck.stamp', { id, title: 'Stamped', fail: 'break' });
    const after = device.m('gearCheck.upsert', { id, fields: { title: 'Harness 2' } });
    const res = await device.push(first, second, broken, after);
    expect(res.results.map((r) => [r.seq, r.status])).toEqual([
      [1, 'applied'],
      [2, 'applied'],
    ]);
    expect(res.lastAppliedSeq).toBe(2);
    expect(res.failed).toMatchObject({ seq: 3, mutationId: broken.mutationId });
    expect(await gear(id)).toMatchObject({ title: 'Harness', body: 'Buckles ok' });
    // The device sends the rest again (here without the broken change, as after a set-aside's
    // marker): the record is read afresh, as the database holds it.
    const rest = await device.push({ ...after, seq: 3 });
    expect(rest.results.map((r) => [r.seq, r.status])).toEqual([[3, 'applied']]);
    expect(await gear(id)).toMatchObject({ title: 'Harness 2', body: 'Buckles ok' });
    expect((await auditOf(device.deviceId)).map(([action, , seq]) => [action, seq])).toEqual([
      ['sync.gearCheck.upsert', 1],
      ['sync.gearCheck.upsert', 2],
      ['sync.gearCheck.upsert', 3],
    ]);
  });

  it('audits an access event once, when the batch names it twice or an earlier push recorded it', async () => {
    const device = new Device(alice);
    const c = uuid();
    await device.push(device.m('case.upsert', { id: c, humanId: humanId('C'), fields: {} }));
    const earlier = uuid();
    await device.push(device.m('case.access', { id: earlier, caseId: c, action: 'view' }));
    const twice = uuid();
    const other = uuid();
    const res = await device.push(
      device.m('case.access', { id: twice, caseId: c, action: 'print' }),
      device.m('case.access', { id: earlier, caseId: c, action: 'view' }),
      device.m('case.access', { id: twice, caseId: c, action: 'print' }),
      device.m('case.access', { id: other, caseId: c, action: 'pdf' }),
      // The same event id for another action: refused (append-only).
      device.m('case.access', { id: other, caseId: c, action: 'export' }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      RejectionCode.APPEND_ONLY,
    ]);
    const entries = await t.db
      .selectFrom('auditLog')
      .select(['action', sql<string>`details->>'accessEventId'`.as('event')])
      .where('entityId', '=', c)
      .where('action', 'like', 'case.%')
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      { action: 'case.view', event: earlier },
      { action: 'case.print', event: twice },
      { action: 'case.pdf', event: other },
    ]);
  });
});
