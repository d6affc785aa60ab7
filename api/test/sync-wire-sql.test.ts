// The pull page, the push answers' records and the rows a mutator reads are JSON built by
// the database (services/sync/wire-sql.ts, issue 12). This keeps that boundary honest, on the
// embedded database and on PostgreSQL:
// - for every kind, the SQL record is exactly what the JavaScript mapping (toWireRecord over
//   the row the driver returns) makes of the same row: timestamps with microseconds, numeric
//   with its scale, jsonb, nulls, booleans, bigint ids, tombstones;
// - the pull answer as sent parses with pullResponseSchema (protocol 1) or
//   pullRowsResponseSchema (protocol 2, decision 051), the two hold the same changes, and
//   every change parses with its kind's record schema, which drops nothing and changes nothing;
// - pages across kinds keep version order with tombstones, and the SQL applies the access
//   rule (decision 024: a member sees only their own cases without a grant).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  parseChange,
  pullAnswerSchema,
  pullResponseSchema,
  pullRowsResponseSchema,
  type SyncChange,
} from '@rescuelog/sync-protocol/platform/push-pull';
import {
  PROTOCOL_VERSION,
  PULL_ROWS_PROTOCOL_VERSION,
  SCHEMA_VERSION,
} from '@rescuelog/sync-protocol/platform/versions';
import type { MutationEnvelope as Mutation } from '@rescuelog/sync-protocol/platform/envelope';
import { appRegistry, type SyncEntity } from '@rescuelog/sync-protocol/records/registry';
import { dynamic, toWireRecord } from '../src/services/sync/sync-tables';
import { recordRows, wireShapes } from '../src/services/sync/wire-sql';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  completedCase,
  completeCaseFields,
  Device,
  humanId,
  pullAll,
  RESPONDER,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

let t: TestApp;
let alice: SyncUser;
let bob: SyncUser;
let admin: SyncUser;
let member: SyncUser;
let viewer: SyncUser;

/** The ids the examples share (a child names its parent). */
interface ExampleIds {
  open: { id: string; caseId: string };
  gone: { id: string; caseId: string };
  done: { id: string };
  vitalId: string;
  cprSessionId: string;
  mciId: string;
  reportId: string;
  sopId: string;
  itemId: string;
  batchId: string;
  doneReportId: string;
}

/**
 * Per record kind of the registry, the mutations that make its example records, with values
 * at the edges (pushed in the registry's order: a parent before its children). The map is
 * over every kind the devices write, so a new kind without an example fails the typecheck;
 * seed() also fails, naming it, for a kind of the registry it has no example for.
 * Conflicts (syncConflict) are made by two people's writes in seed().
 */
type DeviceKind = Exclude<SyncEntity, 'syncConflict'>;
const EXAMPLES: { [K in DeviceKind]: (a: Device, ids: ExampleIds) => Mutation[] } = {
  case: (a, { open, gone }) => [
    a.m('case.upsert', {
      id: open.id,
      humanId: open.caseId,
      fields: {
        ...completeCaseFields(),
        incidentLatitude: '-33.123456789',
        incidentLongitude: 18.5,
        capillaryRefillTime: 2,
        symptoms: ['chest pain', 'nausea'],
        triageCounts: { RED: 1, GREEN: 0 },
        cprPerformed: true,
        patientName: 'Naledi "Nala" \\ Dlamini — ü',
      },
    }),
    a.m('case.upsert', { id: gone.id, humanId: gone.caseId, fields: { patientName: 'Gone' } }),
    a.m('case.delete', { id: gone.id }),
  ],
  vitalSign: (a, { open, vitalId }) => [
    a.m('vitalSign.record', {
      id: vitalId,
      caseId: open.id,
      type: 'temperature',
      value: '36.60',
      numericValue: 36.6,
      timestamp: '2026-11-21T08:15:00.000Z',
    }),
    a.m('vitalSign.void', { id: vitalId, reason: 'Wrong patient' }),
  ],
  cprSession: (a, { cprSessionId }) => [
    a.m('cprSession.upsert', {
      id: cprSessionId,
      humanId: humanId('S'),
      fields: { startTime: '2026-11-21T08:00:00.000Z' },
    }),
  ],
  cprEvent: (a, { cprSessionId }) => [
    a.m('cprEvent.record', {
      id: uuid(),
      cprSessionId,
      type: 'shock',
      at: '2026-11-21T08:01:00.000Z',
      details: { energyJoules: 200 },
    }),
  ],
  incidentReport: (a, { reportId, doneReportId }) => [
    a.m('incidentReport.upsert', {
      id: reportId,
      humanId: humanId('I'),
      fields: {
        incidentType: 'fire-support',
        typeSpecificData: { fireType: 'Structure', structuresAffected: 3 },
      },
    }),
    a.m('incidentReport.delete', { id: reportId }),
    a.m('incidentReport.upsert', {
      id: doneReportId,
      humanId: humanId('I'),
      fields: {
        incidentType: 'water-rescue',
        title: 'Swift water — "Liesbeek" \\ ü',
        description: 'Two people on a car roof',
        latitude: -33.123456789,
        longitude: 18.5,
        responderName: 'Thandi Nkosi',
        incidentStartTime: '2026-11-21T08:00:00.000Z',
        incidentEndTime: '2026-11-21T09:30:00.000Z',
        priority: 'critical',
        typeSpecificData: {
          waterType: 'Swift water',
          victims: 2,
          rescueTechnique: 'Boat',
          craftUsed: null,
        },
      },
    }),
    a.m('incidentReport.complete', { id: doneReportId, completedAt: '2026-11-21T10:00:00.000Z' }),
  ],
  mciIncident: (a, { mciId }) => [
    a.m('mciIncident.upsert', {
      id: mciId,
      humanId: humanId('I'),
      fields: { startedAt: '2026-11-21T08:00:00.000Z', latitude: -33.9, longitude: 18.42 },
    }),
  ],
  mciCasualty: (a, { mciId }) => [
    a.m('mciCasualty.record', {
      id: uuid(),
      mciIncidentId: mciId,
      tagNumber: 'T-1',
      triageColour: 'RED',
    }),
  ],
  mciTriage: (a, { mciId }) => {
    const casualty = uuid();
    return [
      a.m('mciCasualty.record', {
        id: casualty,
        mciIncidentId: mciId,
        tagNumber: 'T-2',
        triageColour: 'GREY',
      }),
      a.m('mciTriage.record', {
        id: uuid(),
        mciIncidentId: mciId,
        mciCasualtyId: casualty,
        colour: 'RED',
        method: 'START',
        proposedColour: 'YELLOW',
        answers: { walking: 'no', breathing: 'yes' },
        previousTriageIds: [uuid()],
        triagedAt: '2026-11-21T08:02:00.000Z',
      }),
    ];
  },
  caseAddendum: (a, { done }) => [
    a.m('case.addendum', {
      id: uuid(),
      caseId: done.id,
      reason: 'Spelling',
      changes: [{ field: 'patientName', before: 'Thandi', after: 'Thandiwe' }],
    }),
  ],
  sopVersion: (a, { sopId }) => [
    a.m('sopVersion.publish', {
      id: sopId,
      sopId,
      title: 'Radio check — “Zulu” ü',
      category: 'Communications',
      body: '# Radio\n- **Daily** check\n\n[Guide](https://example.org/a?b=1)',
    }),
    a.m('sopVersion.publish', {
      id: uuid(),
      sopId,
      title: 'Radio check',
      category: 'Communications',
      body: 'Second version.',
    }),
  ],
  sopAcknowledgement: (a, { sopId }) => [
    a.m('sopAcknowledgement.record', { id: uuid(), sopVersionId: sopId }),
  ],
  inventoryItem: (a, { itemId }) => {
    const goneItem = uuid();
    return [
      a.m('inventoryItem.upsert', {
        id: itemId,
        fields: {
          description: 'Saline 0,9 % "bag" — ü',
          minimumQty: 2.5,
          unit: 'ml',
          location: 'vehicle',
          locationName: 'Vehicle 2',
        },
      }),
      a.m('inventoryItem.upsert', { id: goneItem, fields: { description: 'Gone' } }),
      a.m('inventoryItem.delete', { id: goneItem }),
    ];
  },
  inventoryBatch: (a, { itemId, batchId }) => [
    a.m('inventoryBatch.save', { id: batchId, itemId, lot: 'L-1', expiryDate: '2028-02-29' }),
  ],
  inventoryMovement: (a, { itemId, batchId, open }) => [
    a.m('inventoryMovement.book', {
      id: uuid(),
      itemId,
      batchId,
      quantity: 12.345,
      reason: 'received',
      at: '2026-11-21T08:00:00.000Z',
    }),
    a.m('inventoryMovement.book', {
      id: uuid(),
      itemId,
      quantity: -20,
      reason: 'used_on_case',
      caseId: open.id,
      at: '2026-11-21T08:05:00.000Z',
      note: 'Below zero',
    }),
  ],
  incidentReportAddendum: (a, { doneReportId }) => [
    a.m('incidentReport.addendum', {
      id: uuid(),
      incidentReportId: doneReportId,
      reason: 'Three people, not two',
      changes: [
        {
          field: 'typeSpecificData',
          before: {
            waterType: 'Swift water',
            victims: 2,
            rescueTechnique: 'Boat',
            craftUsed: null,
          },
          after: { waterType: 'Swift water', victims: 3, rescueTechnique: 'Boat', craftUsed: null },
        },
      ],
    }),
  ],
};

function isDeviceKind(kind: string): kind is DeviceKind {
  return kind in EXAMPLES;
}

/** A record of every kind, a conflict, tombstones of three kinds, and values at the edges. */
async function seed(): Promise<void> {
  const a = new Device(alice);
  const b = new Device(bob);
  const ids: ExampleIds = {
    done: await completedCase(a),
    open: { id: uuid(), caseId: humanId('C') },
    gone: { id: uuid(), caseId: humanId('C') },
    vitalId: uuid(),
    cprSessionId: uuid(),
    mciId: uuid(),
    reportId: uuid(),
    sopId: uuid(),
    itemId: uuid(),
    batchId: uuid(),
    doneReportId: uuid(),
  };
  const open = ids.open;
  const mutations = appRegistry.definitions
    .filter((def) => def.mutators.length > 0)
    .flatMap((def) => {
      if (!isDeviceKind(def.kind))
        throw new Error(`${def.kind} has no example record in sync-wire-sql.test.ts EXAMPLES`);
      return EXAMPLES[def.kind](a, ids);
    });
  const res = await a.push(...mutations);
  expect(res.results.filter((r) => r.status !== 'applied')).toEqual([]);
  // A conflict (Bob, who may change anyone's case, and Alice change the same field from one base).
  const base = (
    await t.db
      .selectFrom('cases')
      .select('version')
      .where('id', '=', open.id)
      .executeTakeFirstOrThrow()
  ).version;
  await b.push(
    b.m('case.upsert', { id: open.id, fields: { allergies: 'Penicillin' } }, { baseVersion: base }),
  );
  const clash = await a.push(
    a.m('case.upsert', { id: open.id, fields: { allergies: 'None known' } }, { baseVersion: base }),
  );
  expect(clash.results[0]?.conflicts).toHaveLength(1);
  // Values no mutation writes: microseconds, and the numeric's scale as stored.
  await sql`update cases set arrival_time = '2026-11-21 10:00:00.987654+00',
    departure_time = '2026-11-21 10:30:00.000001+00' where id = ${open.id}`.execute(t.db);
}

beforeAll(async () => {
  t = await buildSyncApp();
  alice = await syncUser(t, {
    ...RESPONDER,
    incidentReports: { read: true, create: true, edit: true, delete: true },
    // Publishes the example SOP versions (systemAdmin: reference/sop.ts SOP_ACCESS).
    systemAdmin: true,
    medicalInventory: { read: true, create: true, edit: true, delete: true },
  });
  bob = await syncUser(t, { ...RESPONDER, casesLogged: { view: true, edit: true, delete: false } });
  admin = await syncUser(t, {}, 'administrator');
  // May log cases, and has no casesLogged entry: sees only their own (decision 024).
  member = await syncUser(t, { newCase: RESPONDER.newCase });
  // The same with an explicit grant of Cases Logged view: sees everyone's.
  viewer = await syncUser(t, { newCase: RESPONDER.newCase, casesLogged: { view: true } });
  await seed();
});

afterAll(() => t.close());

async function pullBody(
  user: SyncUser,
  cursor: string | null,
  limit: number,
  protocolVersion = PROTOCOL_VERSION,
): Promise<unknown> {
  const res = await user.client.post('/api/sync/pull', {
    protocolVersion,
    schemaVersion: SCHEMA_VERSION,
    deviceId: uuid(),
    cursor,
    limit,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(await res.text()) as unknown;
}

describe('the wire shape built in SQL', () => {
  it('is, for every kind, exactly what the JavaScript mapping makes of the same rows', async () => {
    const shapes = await wireShapes(t.db, appRegistry.definitions);
    for (const def of appRegistry.definitions) {
      const shape = shapes.get(def.kind);
      if (!shape) throw new Error(`no shape for ${def.kind}`);
      const rows = await dynamic(t.db).selectFrom(def.table).selectAll().execute();
      expect(rows.length, `${def.kind} rows seeded`).toBeGreaterThan(0);
      const built = await recordRows(shape, sql.table(def.sqlTable)).execute(t.db);
      const byId = new Map(built.rows.map((r) => [r.id, r]));
      for (const row of rows) {
        const fromSql = byId.get(String(row.id));
        if (!fromSql) throw new Error(`${def.kind} ${String(row.id)} missing from the SQL rows`);
        // Through JSON, as both travel.
        const fromJs = JSON.parse(JSON.stringify(toWireRecord(def, row))) as unknown;
        expect(JSON.parse(fromSql.record), `${def.kind} ${String(row.id)}`).toEqual(fromJs);
        expect(fromSql.version).toBe(String(row.version));
        expect(fromSql.deleted).toBe(row.deletedAt !== null);
        expect(fromSql.fieldVersions === null ? null : JSON.parse(fromSql.fieldVersions)).toEqual(
          row.fieldVersions ?? null,
        );
      }
    }
  });

  it('writes timestamps as toISOString does: UTC, milliseconds truncated, four-digit years', async () => {
    const open = await t.db
      .selectFrom('cases')
      .select('id')
      .where('patientName', 'like', 'Naledi%')
      .executeTakeFirstOrThrow();
    const cases = appRegistry.get('case');
    const shape = (await wireShapes(t.db, [cases])).get('case');
    if (!shape) throw new Error('no case shape');
    const read = async (value: string): Promise<unknown> => {
      await sql`update cases set arrival_time = ${value}::timestamptz where id = ${open.id}`.execute(
        t.db,
      );
      const { rows } = await recordRows(
        shape,
        sql`(select * from cases where id = ${open.id})`,
      ).execute(t.db);
      return (JSON.parse(rows[0]?.record ?? '{}') as { arrivalTime: unknown }).arrivalTime;
    };
    expect(await read('2026-11-21 10:00:00.987654+00')).toBe('2026-11-21T10:00:00.987Z');
    expect(await read('2026-11-21 12:00:00.5+02')).toBe('2026-11-21T10:00:00.500Z');
    // What a JavaScript Date prints for the same instants (the pg driver's Date of them).
    expect(await read('0999-03-04 05:06:07.008+00')).toBe(
      new Date(Date.UTC(999, 2, 4, 5, 6, 7, 8)).toISOString(),
    );
    await sql`update cases set arrival_time = '2026-11-21 10:00:00.987654+00' where id = ${open.id}`.execute(
      t.db,
    );
    // A year past 9999 (toISOString's '+010000-…') cannot be stored through the protocol: the
    // timestamp schema refuses it (decision 057), so the wire never has to write one.
    const a = new Device(alice);
    const res = await a.push(
      a.m('case.upsert', { id: open.id, fields: { arrivalTime: '9999-12-31T23:00:00-05:00' } }),
    );
    expect(res.results[0]).toMatchObject({
      status: 'rejected',
      code: 'VALIDATION_FAILED',
      message: 'args.fields.arrivalTime: Use a date between 1900 and 9999',
    });
  });

  it('answers a pull the contract accepts: every change parses with its kind and loses nothing', async () => {
    const body = await pullBody(admin, null, 1000);
    const page = pullAnswerSchema.parse(body);
    expect(page.hasMore).toBe(false);
    const kinds = new Set(page.changes.map((c) => c.entity));
    expect([...kinds].sort()).toEqual(appRegistry.kinds.sort());
    for (const change of page.changes) {
      const parsed = parseChange(appRegistry, change);
      expect(parsed).not.toBeNull();
      if (change.data === null) {
        expect(change.deleted).toBe(true);
        continue;
      }
      expect(change.deleted).toBe(false);
      // The record schema strips unknown keys and normalises values: nothing to strip or change.
      expect(parsed?.data, `${change.entity} ${change.id}`).toEqual(change.data);
      expect(change.version).toBe(String(change.data.version));
      expect(change.id).toBe(String(change.data.id));
    }
  });

  it('answers protocol 2 with rows and protocol 1 with objects: the same changes, the keys once', async () => {
    const rowsBody = await pullBody(admin, null, 1000);
    const objectsBody = await pullBody(admin, null, 1000, PULL_ROWS_PROTOCOL_VERSION - 1);
    // Each form as its own schema reads it: a protocol 1 device gets no `keys` and no `values`.
    const rows = pullRowsResponseSchema.parse(rowsBody);
    const objects = pullResponseSchema.strict().parse(objectsBody);
    expect(objects.changes.every((c) => !('values' in c))).toBe(true);
    expect(Object.keys(rows.keys).sort()).toEqual(appRegistry.kinds.sort());
    for (const def of appRegistry.definitions) {
      const record: unknown = def.record;
      if (!(record instanceof z.ZodObject)) throw new Error(`${def.kind}: not an object schema`);
      expect(rows.keys[def.kind]).toEqual(Object.keys(record.shape));
    }
    // Read as the device reads either: the same page, change by change, value by value.
    expect(pullAnswerSchema.parse(rowsBody)).toEqual(objects);
    const tombstone = rows.changes.find((c) => c.deleted);
    expect(tombstone?.values).toBeNull();
    // The keys are written once per page, not once per record: every record is an array of
    // values, and the page with its keys is smaller than the same page as objects (how much
    // smaller depends on how many records each kind has; one or two each here).
    expect(rows.changes.every((c) => c.values === null || Array.isArray(c.values))).toBe(true);
    const bytes = (value: unknown): number => JSON.stringify(value).length;
    expect(bytes(rows.changes) + bytes(rows.keys)).toBeLessThan(bytes(objects.changes));
  });

  it('pages across kinds in version order, tombstones of three kinds included', async () => {
    const whole = pullAnswerSchema.parse(await pullBody(admin, null, 1000)).changes;
    const paged: SyncChange[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const page = pullAnswerSchema.parse(await pullBody(admin, cursor, 3));
      pages += 1;
      expect(page.changes.length).toBeLessThanOrEqual(3);
      paged.push(...page.changes);
      if (!page.hasMore) break;
      expect(page.changes).toHaveLength(3);
      expect(page.cursor).toBe(page.changes.at(-1)?.version);
      cursor = page.cursor;
    }
    expect(pages).toBe(Math.ceil(whole.length / 3));
    expect(paged).toEqual(whole);
    const versions = whole.map((c) => BigInt(c.version));
    expect(versions).toEqual([...versions].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    const tombstones = whole.filter((c) => c.deleted);
    expect(new Set(tombstones.map((c) => c.entity))).toEqual(
      new Set(['case', 'incidentReport', 'inventoryItem']),
    );
    expect(tombstones.every((c) => c.data === null)).toBe(true);
    // An exhausted cursor: nothing, the same cursor back; so for one past any version.
    const last = whole.at(-1)?.version ?? '0';
    for (const cursor of [last, '9223372036854775807', '9999999999999999999'])
      expect(pullAnswerSchema.parse(await pullBody(admin, cursor, 3))).toEqual({
        cursor,
        hasMore: false,
        changes: [],
      });
  });

  it("applies the access rule in SQL: a member without a grant sees their own cases, not Alice's", async () => {
    const own = new Device(member);
    const mine = { id: uuid(), caseId: humanId('C') };
    const pushed = await own.push(
      own.m('case.upsert', { id: mine.id, humanId: mine.caseId, fields: { patientName: 'Mine' } }),
      own.m('vitalSign.record', {
        id: uuid(),
        caseId: mine.id,
        type: 'heartRate',
        value: '90',
        numericValue: 90,
        timestamp: '2026-11-21T08:15:00.000Z',
      }),
    );
    expect(pushed.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    const seen = (await pullAll(member.client, null, 2)).changes;
    const cases = seen.filter((c) => c.entity === 'case');
    expect(cases.map((c) => c.id)).toEqual([mine.id]);
    const vitals = seen.filter((c) => c.entity === 'vitalSign');
    expect(vitals.map((c) => c.data?.caseId)).toEqual([mine.id]);
    expect(seen.some((c) => c.entity === 'caseAddendum')).toBe(false);
    // An explicit grant shows everyone's (every one of Alice's cases, tombstone included).
    const granted = (await pullAll(viewer.client, null, 2)).changes;
    const aliceCases = await t.db
      .selectFrom('cases')
      .select('id')
      .where('userId', '=', alice.id)
      .execute();
    expect(granted.filter((c) => c.entity === 'case').map((c) => c.id)).toEqual(
      expect.arrayContaining([mine.id, ...aliceCases.map((c) => c.id)]),
    );
    expect(granted.some((c) => c.entity === 'caseAddendum')).toBe(true);
  });
});
