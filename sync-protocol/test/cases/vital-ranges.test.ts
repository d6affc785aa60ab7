import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VITAL_SIGN_TYPES, type VitalSignType } from '../../src/cases/clinical';
import {
  ageBand,
  classifyVital,
  formatNormalRange,
  normalRange,
  parseVitalValue,
} from '../../src/cases/vital-ranges';

type Case = [value: string, expected: 'low' | 'normal' | 'high'];
function expectFlags(type: VitalSignType, age: number | null, cases: Case[]) {
  for (const [value, expected] of cases) {
    expect(classifyVital(type, value, age), `${type} ${value} at age ${age}`).toBe(expected);
  }
}

describe('age bands', () => {
  it('maps ages to PALS bands; unknown or nonsense age is adult', () => {
    expect(ageBand(0.05)).toBe('neonate');
    expect(ageBand(0)).toBe('infant'); // whole years: 0 means "under a year"
    expect(ageBand(0.5)).toBe('infant');
    expect(ageBand(1)).toBe('toddler');
    expect(ageBand(2)).toBe('toddler');
    expect(ageBand(3)).toBe('preschool');
    expect(ageBand(5)).toBe('preschool');
    expect(ageBand(6)).toBe('school');
    expect(ageBand(12)).toBe('school');
    expect(ageBand(13)).toBe('adolescent');
    expect(ageBand(17)).toBe('adolescent');
    expect(ageBand(18)).toBe('adult');
    expect(ageBand(null)).toBe('adult');
    expect(ageBand(-1)).toBe('adult');
    expect(ageBand(Number.NaN)).toBe('adult');
  });
});

describe('vital flags at the band edges', () => {
  it('a 6-month-old (infant)', () => {
    expectFlags('heartRate', 0.5, [
      ['99', 'low'],
      ['100', 'normal'],
      ['180', 'normal'],
      ['181', 'high'],
    ]);
    expectFlags('respiratoryRate', 0.5, [
      ['29', 'low'],
      ['30', 'normal'],
      ['53', 'normal'],
      ['54', 'high'],
    ]);
    expectFlags('bloodPressure', 0.5, [
      ['69/45', 'low'],
      ['70/45', 'normal'],
      ['104/56', 'normal'],
      ['105/50', 'high'],
      ['80/36', 'low'],
      ['80/57', 'high'],
    ]);
    // an adult's normal heart rate is slow for a baby, and a baby's normal is fast for an adult
    expect(classifyVital('heartRate', '70', 0.5)).toBe('low');
    expect(classifyVital('heartRate', '150', 0.5)).toBe('normal');
    expect(classifyVital('heartRate', '150', 40)).toBe('high');
  });

  it('a 4-year-old (preschool; hypotension below 70 + 2 × age = 78)', () => {
    expectFlags('heartRate', 4, [
      ['79', 'low'],
      ['80', 'normal'],
      ['120', 'normal'],
      ['121', 'high'],
    ]);
    expectFlags('respiratoryRate', 4, [
      ['19', 'low'],
      ['20', 'normal'],
      ['28', 'normal'],
      ['29', 'high'],
    ]);
    expectFlags('bloodPressure', 4, [
      ['77/50', 'low'],
      ['78/50', 'normal'],
      ['112/72', 'normal'],
      ['113/60', 'high'],
      ['100/45', 'low'],
      ['100/73', 'high'],
    ]);
  });

  it('a 10-year-old (school age, preadolescent blood pressure)', () => {
    expectFlags('heartRate', 10, [
      ['74', 'low'],
      ['75', 'normal'],
      ['118', 'normal'],
      ['119', 'high'],
    ]);
    expectFlags('respiratoryRate', 10, [
      ['17', 'low'],
      ['18', 'normal'],
      ['25', 'normal'],
      ['26', 'high'],
    ]);
    expectFlags('bloodPressure', 10, [
      ['89/70', 'low'],
      ['90/70', 'normal'],
      ['120/80', 'normal'],
      ['121/70', 'high'],
      ['100/60', 'low'],
      ['100/81', 'high'],
    ]);
  });

  it('an adult (domain.md table)', () => {
    expectFlags('heartRate', 40, [
      ['59', 'low'],
      ['60', 'normal'],
      ['100', 'normal'],
      ['101', 'high'],
    ]);
    expectFlags('respiratoryRate', 40, [
      ['11', 'low'],
      ['12', 'normal'],
      ['20', 'normal'],
      ['21', 'high'],
    ]);
    expectFlags('bloodPressure', 40, [
      ['89/60', 'low'],
      ['90/60', 'normal'],
      ['140/90', 'normal'],
      ['141/80', 'high'],
      ['120/59', 'low'],
      ['120/91', 'high'],
      // an out-of-range systolic decides (wide pulse pressure reads high)
      ['150/55', 'high'],
    ]);
    expectFlags('spo2', 40, [
      ['93', 'low'],
      ['94', 'normal'],
      ['100', 'normal'],
    ]);
    expectFlags('temperature', 40, [
      ['35.9', 'low'],
      ['36.0', 'normal'],
      ['37.5', 'normal'],
      ['37.6', 'high'],
    ]);
    expectFlags('bloodGlucose', 40, [
      ['3.9', 'low'],
      ['4.0', 'normal'],
      ['7.8', 'normal'],
      ['7.9', 'high'],
    ]);
    expectFlags('gcs', 40, [
      ['14', 'low'],
      ['15', 'normal'],
    ]);
    expectFlags('painScore', 40, [
      ['0', 'normal'],
      ['1', 'high'],
    ]);
    expectFlags('capillaryRefill', 40, [
      ['2', 'normal'],
      ['2.1', 'high'],
    ]);
    expectFlags('etco2', 40, [
      ['34', 'low'],
      ['35', 'normal'],
      ['45', 'normal'],
      ['46', 'high'],
    ]);
  });

  it('unknown age uses the adult ranges', () => {
    for (const type of VITAL_SIGN_TYPES)
      expect(normalRange(type, null)).toEqual(normalRange(type, 40));
    expectFlags('heartRate', null, [
      ['59', 'low'],
      ['100', 'normal'],
      ['101', 'high'],
    ]);
    expectFlags('bloodPressure', null, [
      ['89/60', 'low'],
      ['141/80', 'high'],
    ]);
  });

  it('gives a neonate (fractional age under a month) its own band', () => {
    expectFlags('heartRate', 0.05, [
      ['99', 'low'],
      ['205', 'normal'],
      ['206', 'high'],
    ]);
    expectFlags('respiratoryRate', 0.05, [
      ['60', 'normal'],
      ['61', 'high'],
    ]);
    expectFlags('bloodPressure', 0.05, [
      ['59/40', 'low'],
      ['60/40', 'normal'],
      ['85/40', 'high'],
    ]);
  });

  it('flags a glucose meter LO / HI', () => {
    expect(classifyVital('bloodGlucose', 'LO', 40)).toBe('low');
    expect(classifyVital('bloodGlucose', 'hi', 3)).toBe('high');
  });

  it('gives no flag for a reading it cannot parse', () => {
    expect(classifyVital('heartRate', 'fast', 40)).toBeNull();
    expect(classifyVital('bloodPressure', '120', 40)).toBeNull();
  });

  it('never flags a higher reading lower than a lower one (property)', () => {
    const order = { low: 0, normal: 1, high: 2 } as const;
    const types = VITAL_SIGN_TYPES.filter((t) => t !== 'bloodPressure');
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
        fc.integer({ min: 0, max: 350 }),
        fc.integer({ min: 0, max: 350 }),
        (type, age, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const fa = classifyVital(type, String(lo), age);
          const fb = classifyVital(type, String(hi), age);
          if (fa && fb) expect(order[fa]).toBeLessThanOrEqual(order[fb]);
        },
      ),
    );
  });
});

describe('normal ranges', () => {
  it('describe the band and print as a range', () => {
    const adultBp = normalRange('bloodPressure', 30);
    expect(adultBp).toMatchObject({
      low: 90,
      high: 140,
      diastolic: { low: 60, high: 90 },
      unit: 'mmHg',
      label: 'Adult',
    });
    expect(formatNormalRange(adultBp!)).toBe('90–140 / 60–90 mmHg');
    expect(formatNormalRange(normalRange('spo2', 30)!)).toBe('≥ 94 %');
    expect(formatNormalRange(normalRange('capillaryRefill', 30)!)).toBe('≤ 2 s');
    // Pain has no 'at most 0': the range is 0, with '/10' on the number (issue 37).
    expect(formatNormalRange(normalRange('painScore', 30)!)).toBe('0/10');
    expect(normalRange('heartRate', 4)).toMatchObject({
      low: 80,
      high: 120,
      label: 'Preschool child (3–5 years)',
    });
  });
});

describe('parseVitalValue', () => {
  it('reads blood pressure as systolic/diastolic, or palpated systolic', () => {
    expect(parseVitalValue('bloodPressure', '120/80')).toEqual({
      value: '120/80',
      numericValue: 120,
      systolic: 120,
      diastolic: 80,
    });
    expect(parseVitalValue('bloodPressure', ' 120 / 80 mmHg')).toMatchObject({
      value: '120/80',
      systolic: 120,
      diastolic: 80,
    });
    expect(parseVitalValue('bloodPressure', '90/P')).toEqual({
      value: '90/P',
      numericValue: 90,
      systolic: 90,
    });
    expect(parseVitalValue('bloodPressure', '90/palp')).toMatchObject({ value: '90/P' });
  });

  it.each([
    ['120', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['120/', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['/80', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['120-80', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['abc', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['120/80/60', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['12.5/8', 'Enter blood pressure as systolic/diastolic, e.g. 120/80'],
    ['80/120', 'Systolic must be higher than diastolic'],
    ['120/120', 'Systolic must be higher than diastolic'],
    ['400/80', 'Systolic must be between 20 and 300 mmHg'],
    ['120/5', 'Diastolic must be between 10 and 250 mmHg'],
    ['', 'Enter the blood pressure'],
  ])('rejects blood pressure %j', (raw, error) => {
    expect(parseVitalValue('bloodPressure', raw)).toEqual({ error });
  });

  it('checks plausible ranges and whole numbers', () => {
    expect(parseVitalValue('spo2', '101')).toEqual({ error: 'SpO2 must be between 0 and 100 %' });
    expect(parseVitalValue('spo2', '-1')).toHaveProperty('error');
    expect(parseVitalValue('spo2', '98%')).toEqual({ value: '98', numericValue: 98 });
    expect(parseVitalValue('heartRate', '72.5')).toEqual({
      error: 'Heart rate: enter a whole number',
    });
    expect(parseVitalValue('heartRate', '88 bpm')).toEqual({ value: '88', numericValue: 88 });
    expect(parseVitalValue('heartRate', '351')).toEqual({
      error: 'Heart rate must be between 0 and 350/min',
    });
    expect(parseVitalValue('gcs', '2')).toHaveProperty('error');
    expect(parseVitalValue('painScore', '11')).toHaveProperty('error');
    expect(parseVitalValue('temperature', '36,5 °C')).toEqual({
      value: '36.5',
      numericValue: 36.5,
    });
    expect(parseVitalValue('temperature', 'warm')).toEqual({
      error: 'Temperature: enter a number',
    });
    expect(parseVitalValue('bloodGlucose', 'LO')).toEqual({
      value: 'LO',
      numericValue: null,
      beyondMeter: 'low',
    });
    expect(parseVitalValue('capillaryRefill', '3 s')).toEqual({ value: '3', numericValue: 3 });
  });

  it('reads back any well-formed blood pressure (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 300 }), fc.integer({ min: 10, max: 250 }), (s, d) => {
        const parsed = parseVitalValue('bloodPressure', `${s}/${d}`);
        if (d < s)
          expect(parsed).toEqual({
            value: `${s}/${d}`,
            numericValue: s,
            systolic: s,
            diastolic: d,
          });
        else expect(parsed).toEqual({ error: 'Systolic must be higher than diastolic' });
      }),
    );
  });
});
