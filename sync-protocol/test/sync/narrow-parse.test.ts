// A mutation's args parsed by the mutator's schema narrowed to the keys they have
// (narrow-parse.ts) must give exactly what the whole schema gives: the same value, or the same
// issues (codes, messages, paths, order). Random args for every mutator of the app: valid and
// invalid values, missing and unknown keys, nested fields, values that are not objects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowedFor, narrowSafeParse } from '../../src/platform/narrow-parse';
import { APP_RECORDS } from '../../src/records/registry';
import { createRegistry } from '../../src/platform/registry';

const registry = createRegistry(APP_RECORDS);

/** Values a field may get: valid for many (null, the case's usual ones), wrong for others. */
const SAMPLES: Record<string, unknown> = {
  id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c',
  caseId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  humanId: 'C-0000-0000-0000',
  patientName: 'Thandi',
  incidentType: 'MVA',
  approximateAge: 34,
  patientGender: 'female',
  avpu: 'A',
  triageStatus: 'YELLOW',
  callReceivedTime: '2026-11-21T08:00:00.000Z',
  type: 'heartRate',
  value: '72',
  numericValue: 72,
  timestamp: '2026-11-21T08:05:00.000Z',
};
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 400 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
  fc.constant('2026-11-21T08:00:00.000Z'),
);

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
}

/** An object over some of the shape's keys (nested objects likewise), maybe with others. */
function objectFor(shape: Record<string, z.ZodType>, depth = 0): fc.Arbitrary<unknown> {
  const keys = Object.keys(shape);
  const value = (key: string): fc.Arbitrary<unknown> => {
    const inner = shapeOf(shape[key] as z.ZodType);
    if (inner && depth === 0) return fc.oneof(objectFor(inner, 1), junk);
    return key in SAMPLES ? fc.oneof(fc.constant(SAMPLES[key]), junk) : junk;
  };
  const some = fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: Math.min(keys.length, 8) })
    .chain((chosen) => fc.tuple(...chosen.map((key) => value(key).map((v) => [key, v] as const))));
  return fc
    .tuple(
      some,
      fc.oneof(
        { weight: 8, arbitrary: fc.constant([] as (readonly [string, unknown])[]) },
        fc.array(
          fc.tuple(fc.constantFrom('bogus', 'toString', 'constructor', 'Fields', ''), junk),
          { maxLength: 2 },
        ),
      ),
    )
    .map(([named, extra]) => Object.fromEntries([...named, ...extra]));
}

const answer = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? { data: result.data } : { issues: result.error.issues };

describe('narrowSafeParse', () => {
  it('gives what the whole schema gives, for every mutator', () => {
    for (const mutator of registry.mutators) {
      const schema = mutator.args as z.ZodType;
      const shape = shapeOf(schema);
      const args = shape
        ? fc.oneof({ weight: 9, arbitrary: objectFor(shape) }, junk)
        : fc.oneof(junk, fc.object());
      fc.assert(
        fc.property(args, (value) => {
          expect(answer(narrowSafeParse(schema, value))).toEqual(answer(schema.safeParse(value)));
        }),
        { numRuns: 150, seed: 36 },
      );
    }
  });

  it('accepts a case change and refuses a bad one as the whole schema does', () => {
    const schema = registry.mutator('case.upsert')?.args as z.ZodType;
    const good = { id: SAMPLES.id, fields: { patientName: 'Sipho', approximateAge: 41 } };
    expect(narrowSafeParse(schema, good)).toEqual(schema.safeParse(good));
    expect(narrowSafeParse(schema, good).data).toEqual(good);
    // Parsed by the fields it names, not the case's ~160.
    const used = narrowedFor(schema, good) as z.ZodObject<{ fields: z.ZodObject }>;
    expect(Object.keys(used.shape.fields.shape)).toEqual(['patientName', 'approximateAge']);
    expect(narrowedFor(schema, { ...good, fields: { ...good.fields } })).toBe(used);
    const bad = { id: SAMPLES.id, fields: { approximateAge: 'old', avpu: 'Q' } };
    const issues = answer(narrowSafeParse(schema, bad));
    expect(issues).toEqual(answer(schema.safeParse(bad)));
    expect(issues.issues?.map((i) => i.path.join('.'))).toEqual([
      'fields.approximateAge',
      'fields.avpu',
    ]);
    const unknown = { id: SAMPLES.id, fields: { patientName: 'Sipho', nickname: 'S' } };
    expect(answer(narrowSafeParse(schema, unknown))).toEqual(answer(schema.safeParse(unknown)));
    expect(narrowSafeParse(schema, unknown).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(narrowedFor(schema, unknown)).toBe(schema);
  });
});
