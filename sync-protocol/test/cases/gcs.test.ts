import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  computeGcsTotal,
  formatGcs,
  gcsEyeOptions,
  gcsMotorOptions,
  gcsPartsOf,
  gcsVerbalOptions,
} from '../../src/cases/gcs';

const parts = (
  eye: number | null,
  verbal: number | null,
  motor: number | null,
  verbalIntubated = false,
) => ({
  eye,
  verbal,
  motor,
  verbalIntubated,
});

describe('GCS options', () => {
  it('offers eye 4–1, verbal 5–1 and motor 6–1, best first', () => {
    expect(gcsEyeOptions().map((o) => o.score)).toEqual([4, 3, 2, 1]);
    expect(gcsVerbalOptions(30).map((o) => o.score)).toEqual([5, 4, 3, 2, 1]);
    expect(gcsMotorOptions().map((o) => o.score)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(gcsVerbalOptions(30)[0]?.label).toBe('Oriented');
    expect(gcsMotorOptions()[0]?.label).toBe('Obeys commands');
  });

  it('uses the modified verbal scale under 5 years, the adult one from 5 and for unknown age', () => {
    const toddler = gcsVerbalOptions(2).map((o) => o.label);
    expect(toddler[0]).toMatch(/babbles, coos/);
    expect(toddler[1]).toMatch(/irritable cry/);
    expect(gcsVerbalOptions(0)[0]?.label).toBe(toddler[0]);
    expect(gcsVerbalOptions(4.9)[0]?.label).toBe(toddler[0]);
    expect(gcsVerbalOptions(5)[0]?.label).toBe('Oriented');
    expect(gcsVerbalOptions(null)[0]?.label).toBe('Oriented');
  });

  it('has a distinct label for every score', () => {
    for (const options of [
      gcsEyeOptions(),
      gcsVerbalOptions(1),
      gcsVerbalOptions(40),
      gcsMotorOptions(2),
    ]) {
      expect(new Set(options.map((o) => o.label)).size).toBe(options.length);
    }
  });
});

describe('computeGcsTotal', () => {
  it('is 15 at best and 3 at worst', () => {
    expect(computeGcsTotal(parts(4, 5, 6))).toBe(15);
    expect(computeGcsTotal(parts(1, 1, 1))).toBe(3);
  });

  it('is null until eye, verbal and motor are all scored', () => {
    expect(computeGcsTotal(parts(null, null, null))).toBeNull();
    expect(computeGcsTotal(parts(4, null, 6))).toBeNull();
    expect(computeGcsTotal(parts(null, 5, 6))).toBeNull();
    expect(computeGcsTotal(parts(4, 5, null))).toBeNull();
  });

  it('is null for a part out of its range', () => {
    expect(computeGcsTotal(parts(5, 5, 6))).toBeNull();
    expect(computeGcsTotal(parts(0, 5, 6))).toBeNull();
    expect(computeGcsTotal(parts(4, 6, 6))).toBeNull();
    expect(computeGcsTotal(parts(4, 5, 7))).toBeNull();
    expect(computeGcsTotal(parts(4, 4.5, 6))).toBeNull();
  });

  it('counts an intubated verbal (VT) as 1 and needs no verbal score: 3T to 11T', () => {
    expect(computeGcsTotal(parts(1, null, 1, true))).toBe(3);
    expect(computeGcsTotal(parts(4, null, 6, true))).toBe(11);
    expect(computeGcsTotal(parts(2, null, 4, true))).toBe(7);
    // a verbal score left over from before intubation does not count
    expect(computeGcsTotal(parts(2, 5, 4, true))).toBe(7);
    expect(computeGcsTotal(parts(null, null, 4, true))).toBeNull();
  });

  it('is the sum of the parts, always within 3–15 (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (e, v, m, intubated) => {
          const total = computeGcsTotal(parts(e, intubated ? null : v, m, intubated));
          expect(total).toBe(e + (intubated ? 1 : v) + m);
          expect(total).toBeGreaterThanOrEqual(3);
          expect(total).toBeLessThanOrEqual(15);
        },
      ),
    );
  });
});

describe('formatGcs', () => {
  it('charts the parts and the total', () => {
    expect(formatGcs(parts(4, 5, 6))).toBe('E4 V5 M6 = 15');
    expect(formatGcs(parts(1, 1, 1))).toBe('E1 V1 M1 = 3');
  });

  it("charts intubated as VT with a 'T' total", () => {
    expect(formatGcs(parts(2, null, 4, true))).toBe('E2 VT M4 = 7T');
    expect(formatGcs(parts(1, null, 1, true))).toBe('E1 VT M1 = 3T');
  });

  it('shows a missing part as ? and no total; nothing when nothing is scored', () => {
    expect(formatGcs(parts(4, null, 6))).toBe('E4 V? M6');
    expect(formatGcs(parts(null, null, null))).toBe('');
  });

  it('reads the parts from a case', () => {
    expect(
      formatGcs(
        gcsPartsOf({
          gcsEyeOpening: 3,
          gcsVerbalResponse: 4,
          gcsMotorResponse: 5,
          gcsVerbalIntubated: false,
        }),
      ),
    ).toBe('E3 V4 M5 = 12');
    expect(gcsPartsOf({})).toEqual(parts(null, null, null, false));
  });
});
