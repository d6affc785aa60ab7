import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ADVANCED_INTERVENTIONS,
  INTERVENTIONS,
  INTERVENTION_GROUPS,
  VITAL_SIGNS,
  VITAL_SIGN_TYPES,
} from '../../src/cases/clinical';
import { CASE_FIELDS, caseFieldsSchema, caseRecordSchema } from '../../src/cases/case-schema';
import { generateHumanId } from '../../src/platform/human-id';
import { appRegistry, type AppMutationName } from '../../src/records/registry';
import { Rejection } from '../../src/platform/rejections';
import {
  parseChange,
  pullAnswerSchema,
  pullResponseSchema,
  PULL_ROW_CHUNK,
  pushRequestSchema,
} from '../../src/platform/push-pull';
import { latitudeSchema, longitudeSchema, timestampSchema } from '../../src/platform/values';

const uuid = () => crypto.randomUUID();

function envelope(name: AppMutationName, args: unknown, seq = 1): unknown {
  return {
    mutationId: uuid(),
    deviceId: uuid(),
    seq,
    actorUserId: 7,
    name,
    args,
    entityIds: [],
    baseVersion: null,
    clientTime: '2026-11-21T07:00:00+02:00',
    schemaVersion: 1,
  };
}

describe('clinical vocabularies', () => {
  it('lists the full interventions checklist once, grouped as the screen shows it', () => {
    expect(INTERVENTIONS.length).toBe(52);
    expect(new Set(INTERVENTIONS).size).toBe(INTERVENTIONS.length);
    expect(Object.keys(INTERVENTION_GROUPS)).toEqual([
      'airway',
      'breathing',
      'circulation',
      'trauma',
      'medical',
      'environmentAndOther',
    ]);
    // The 14 names the spec shows are all there.
    for (const name of [
      'oxygenAdministered',
      'ivAccess',
      'cprPerformed',
      'aedUsed',
      'spinalImmobilization',
      'woundCare',
      'bleedingControl',
      'tourniquetApplication',
      'burnTreatment',
      'splintingTechniques',
      'glucogelAdministered',
      'epiPenUsed',
      'emergencyChildbirth',
      'extrication',
    ] as const) {
      expect(INTERVENTIONS).toContain(name);
    }
    expect([...ADVANCED_INTERVENTIONS].sort()).toEqual([
      'endotrachealIntubation',
      'ioAccess',
      'manualDefibrillation',
      'needleDecompression',
    ]);
  });

  it('gives every vital sign type a unit entry', () => {
    for (const type of VITAL_SIGN_TYPES) expect(VITAL_SIGNS[type].label).not.toBe('');
    expect(VITAL_SIGNS.bloodGlucose.unit).toBe('mmol/L');
    expect(VITAL_SIGNS.spo2.adultNormal.min).toBe(94);
  });

  it('makes every intervention a case field', () => {
    for (const name of INTERVENTIONS) expect(CASE_FIELDS).toContain(name);
  });
});

describe('value normalisation (what the device stores equals what the server returns)', () => {
  it('latitude and longitude accept string or number and round to 8 decimals, idempotently', () => {
    expect(latitudeSchema.parse('-33.92487')).toBe(-33.92487);
    expect(longitudeSchema.parse(18.4240553)).toBe(18.4240553);
    expect(latitudeSchema.parse('-33.123456789')).toBe(-33.12345679);
    expect(latitudeSchema.safeParse(91).success).toBe(false);
    expect(latitudeSchema.safeParse('north').success).toBe(false);
    expect(latitudeSchema.safeParse('').success).toBe(false);
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (n) => {
        const once = longitudeSchema.parse(n);
        expect(longitudeSchema.parse(once)).toBe(once);
        expect(longitudeSchema.parse(String(n))).toBe(once);
      }),
    );
  });

  it('timestamps become UTC ISO strings, idempotently; junk is refused', () => {
    expect(timestampSchema.parse('2026-11-21T07:00:00+02:00')).toBe('2026-11-21T05:00:00.000Z');
    expect(timestampSchema.parse(new Date('2026-11-21T05:00:00Z'))).toBe(
      '2026-11-21T05:00:00.000Z',
    );
    expect(timestampSchema.safeParse('yesterday').success).toBe(false);
    expect(timestampSchema.safeParse('1700000000').success).toBe(false);
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (d) => {
          const once = timestampSchema.parse(d.toISOString());
          expect(timestampSchema.parse(once)).toBe(once);
        },
      ),
    );
  });
});

describe('case fields', () => {
  it('accepts a partial update and rejects unknown fields and out-of-range GCS', () => {
    expect(caseFieldsSchema.parse({ patientName: 'Thandi', gcsEyeOpening: 4 })).toEqual({
      patientName: 'Thandi',
      gcsEyeOpening: 4,
    });
    expect(caseFieldsSchema.safeParse({ userId: 3 }).success).toBe(false);
    expect(caseFieldsSchema.safeParse({ gcsEyeOpening: 5 }).success).toBe(false);
    expect(caseFieldsSchema.safeParse({ gcsTotal: 2 }).success).toBe(false);
    expect(caseFieldsSchema.safeParse({ oxygenAdministered: null }).success).toBe(false);
  });
});

describe('mutation envelope', () => {
  it('knows every mutation by one mutator, named <kind>.<verb>, of a registered kind', () => {
    const names = appRegistry.mutators.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of appRegistry.mutators) {
      expect(appRegistry.has(m.kind)).toBe(true);
      expect(m.name).toMatch(/^[a-zA-Z]+\.[a-z]+$/);
    }
    expect(names).toEqual(
      expect.arrayContaining(['case.upsert', 'case.complete', 'case.addendum', 'vitalSign.void']),
    );
  });

  it('parses a case upsert, normalising the human id, clientTime and coordinates', () => {
    const caseId = generateHumanId('C');
    const parsed = appRegistry.parseMutation(
      envelope('case.upsert', {
        id: uuid(),
        humanId: caseId.toLowerCase(),
        fields: { incidentLatitude: '-33.9', incidentType: 'MVA' },
      }),
    );
    expect(parsed.name).toBe('case.upsert');
    expect(parsed.args).toMatchObject({ humanId: caseId, fields: { incidentLatitude: -33.9 } });
    expect(parsed.clientTime).toBe('2026-11-21T05:00:00.000Z');
  });

  it('refuses args that belong to another mutation name, with VALIDATION_FAILED', () => {
    const refused = (raw: unknown) => {
      try {
        appRegistry.parseMutation(raw);
        return null;
      } catch (error) {
        return error instanceof Rejection ? error.code : 'thrown';
      }
    };
    expect(refused(envelope('case.delete', { id: uuid(), fields: {} }))).toBe('VALIDATION_FAILED');
    expect(refused(envelope('vitalSign.void', { id: uuid() }))).toBe('VALIDATION_FAILED');
    expect(
      refused(envelope('case.upsert', { id: uuid(), humanId: 'S-0000-0000-0000', fields: {} })),
    ).toBe('VALIDATION_FAILED');
  });

  it('refuses what PostgreSQL cannot store with its own code, before parsing the args', () => {
    const code = (args: unknown) => {
      try {
        appRegistry.parseMutation(envelope('case.upsert', args));
        return null;
      } catch (error) {
        return error instanceof Rejection ? error.code : 'thrown';
      }
    };
    const id = uuid();
    const humanId = generateHumanId('C');
    expect(code({ id, humanId, fields: { patientName: 'a\uDC00b' } })).toBe('TEXT_NOT_STORABLE');
    expect(code({ id, humanId, fields: { patientName: 'a\u0000b' } })).toBe('TEXT_NOT_STORABLE');
    expect(code({ id, humanId, fields: { patientName: '\uD83D\uDE91 ok' } })).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(code({ id, humanId, fields: { triageCounts: deep } })).toBe('VALUE_TOO_DEEP');
    expect(code({ id, humanId, fields: { additionalNotes: 'x'.repeat(20 * 1024 * 1024) } })).toBe(
      'MUTATION_TOO_LARGE',
    );
  });

  it('fills append-only defaults (vital sign notes, casualty links)', () => {
    const parsed = appRegistry.parseMutation(
      envelope('vitalSign.record', {
        id: uuid(),
        caseId: uuid(),
        type: 'heartRate',
        value: '88',
        numericValue: 88,
        timestamp: '2026-11-21T05:00:00Z',
      }),
    );
    expect(parsed.args).toMatchObject({ notes: null, status: null });
  });

  it('push requests read unknown mutation names loosely so the server can reject them one by one', () => {
    const body = {
      protocolVersion: 1,
      schemaVersion: 1,
      deviceId: uuid(),
      mutations: [
        envelope('case.upsert', {}),
        { ...(envelope('case.delete', {}) as object), name: 'case.teleport' },
      ],
    };
    expect(pushRequestSchema.safeParse(body).success).toBe(true);
    expect(pushRequestSchema.safeParse({ ...body, mutations: [] }).success).toBe(false);
    expect(pushRequestSchema.safeParse({ ...body, mutations: [{ seq: 1 }] }).success).toBe(false);
  });
});

describe('pull response', () => {
  it('parses a change per entity and tombstones with null data', () => {
    const id = uuid();
    const record = caseRecordSchema.parse({
      id,
      caseId: generateHumanId('C'),
      ...Object.fromEntries(CASE_FIELDS.map((f) => [f, null])),
      ...Object.fromEntries(INTERVENTIONS.map((f) => [f, false])),
      ...Object.fromEntries(
        ['head', 'neck', 'chest', 'abdomen', 'pelvis', 'back', 'extremities'].map((r) => [
          `${r}Examined`,
          false,
        ]),
      ),
      patientRefusedTransport: false,
      symptoms: [],
      gcsVerbalIntubated: false,
      hemorrhagingInterventions: [],
      isMultiPatientIncident: false,
      triageCounts: {},
      incidentPatients: [],
      status: 'in_progress',
      createdAt: '2026-11-21T05:00:00.000Z',
      completedAt: null,
      userId: 3,
      updatedBy: null,
      version: '12',
      updatedAt: '2026-11-21T05:00:00.000Z',
      deletedAt: null,
    });
    const response = pullResponseSchema.parse({
      cursor: '13',
      hasMore: false,
      changes: [
        { entity: 'case', id, version: '12', deleted: false, data: record },
        { entity: 'vitalSign', id: uuid(), version: '13', deleted: true, data: null },
      ],
    });
    expect(response.changes).toHaveLength(2);
    // Each change's data is parsed by its kind's schema (a half record is refused) ...
    const half = { entity: 'case', id, version: '1', deleted: false, data: { id } };
    expect(() => parseChange(appRegistry, half)).toThrow();
    expect(parseChange(appRegistry, response.changes[0]!)?.data).toMatchObject({
      id,
      status: 'in_progress',
    });
    // ... and a kind this app does not know (a newer server) is skipped, not an error.
    expect(parseChange(appRegistry, { ...half, entity: 'vehicleCheck' })).toBeNull();
  });
});

describe('a pull page as rows (protocol 2, decision 051)', () => {
  const keys = Array.from({ length: 230 }, (_, i) => `field${String(i)}`);
  const record = Object.fromEntries(keys.map((key, i) => [key, i % 3 === 0 ? null : i]));
  const chunks = (values: unknown[]): unknown[][] => {
    const out: unknown[][] = [];
    for (let at = 0; at < values.length; at += PULL_ROW_CHUNK)
      out.push(values.slice(at, at + PULL_ROW_CHUNK));
    return out;
  };
  const rows = (
    values: unknown[][] | null,
    pageKeys: Record<string, string[]> = { note: keys },
  ) => ({
    cursor: '9',
    hasMore: true,
    keys: pageKeys,
    changes: [
      { entity: 'note', id: 'a', version: '8', deleted: false, values },
      { entity: 'note', id: 'b', version: '9', deleted: true, values: null },
    ],
  });

  it('reads as the objects page with the same changes, keys in order, chunks joined', () => {
    const page = pullAnswerSchema.parse(rows(chunks(keys.map((key) => record[key]))));
    expect(page).toEqual(
      pullResponseSchema.parse({
        cursor: '9',
        hasMore: true,
        changes: [
          { entity: 'note', id: 'a', version: '8', deleted: false, data: record },
          { entity: 'note', id: 'b', version: '9', deleted: true, data: null },
        ],
      }),
    );
    expect(Object.keys(page.changes[0]?.data ?? {})).toEqual(keys);
    // Two records of one kind never share an object.
    const two = pullAnswerSchema.parse({
      ...rows(null),
      changes: [
        { entity: 'note', id: 'a', version: '8', deleted: false, values: chunks(keys) },
        { entity: 'note', id: 'c', version: '9', deleted: false, values: chunks(keys) },
      ],
    });
    expect(two.changes[0]?.data).not.toBe(two.changes[1]?.data);
  });

  it('still reads an objects page (a server before protocol 2)', () => {
    const objects = {
      cursor: '9',
      hasMore: false,
      changes: [{ entity: 'note', id: 'a', version: '8', deleted: false, data: record }],
    };
    expect(pullAnswerSchema.parse(objects)).toEqual(objects);
  });

  it('refuses a page whose values do not match its keys, or that would set a prototype', () => {
    const values = keys.map((key) => record[key]);
    expect(pullAnswerSchema.safeParse(rows(chunks(values.slice(1)))).success).toBe(false);
    expect(pullAnswerSchema.safeParse(rows(chunks([...values, 1]))).success).toBe(false);
    expect(pullAnswerSchema.safeParse(rows(chunks(values), { other: keys })).success).toBe(false);
    // A kind named like an inherited property has no keys either (an issue, never a throw).
    const inherited = {
      ...rows(chunks(values)),
      changes: [{ ...rows(null).changes[0], entity: 'constructor', values: chunks(values) }],
    };
    expect(pullAnswerSchema.safeParse(inherited).success).toBe(false);
    expect(
      pullAnswerSchema.safeParse(rows([[{ polluted: true }]], { note: ['__proto__'] })).success,
    ).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
