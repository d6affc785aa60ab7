// The dates the product accepts (time.ts, decision 057) and the one timestamp schema every
// synced time parses with (platform/values.ts): a real day of the calendar, years 1900-9999.
// The calendar here is an independent oracle (the Gregorian leap-year rule written out), not
// the Date arithmetic the code uses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseSearchQuerySchema } from '../src/cases/api';
import { timestampSchema } from '../src/platform/values';
import { Rejection, RejectionCode } from '../src/platform/rejections';
import { appRegistry } from '../src/records/registry';
import { SCHEMA_VERSION } from '../src/platform/versions';
import { checkCalendarDay, checkIsoInstant, DATE_MESSAGES } from '../src/time';

const OUT_OF_RANGE = 'Use a date between 1900 and 9999';
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const lengthOf = (y: number, m: number) =>
  m === 2 ? (leap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
const two = (n: number) => String(n).padStart(2, '0');
const written = (y: number, m: number, d: number) => `${String(y)}-${two(m)}-${two(d)}`;

describe('timestampSchema', () => {
  it.each([
    ['2026-02-30T00:00:00.000Z', 'There is no 30 February 2026'],
    ['2026-04-31T10:00:00.000Z', 'There is no 31 April 2026'],
    ['2026-02-29T10:00:00+02:00', 'There is no 29 February 2026'],
    ['1900-02-29T10:00:00.000Z', 'There is no 29 February 1900'],
    ['0001-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['1899-12-31T23:59:59.999Z', OUT_OF_RANGE],
    ['1900-01-01T00:30:00+01:00', OUT_OF_RANGE],
    ['10000-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['+010000-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['-000001-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['9999-12-31T23:00:00-05:00', OUT_OF_RANGE],
    ['2026-13-01T00:00:00.000Z', 'Invalid date and time'],
    ['2026-00-10T00:00:00.000Z', 'Invalid date and time'],
    ['2026-01-00T00:00:00.000Z', 'Invalid date and time'],
    ['2026-01-01T25:00:00.000Z', 'Invalid date and time'],
  ])('refuses %s: %s', (text, message) => {
    const parsed = timestampSchema.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([message]);
  });

  it('refuses a Date outside the years too', () => {
    expect(timestampSchema.safeParse(new Date(Date.UTC(1899, 11, 31))).error?.message).toContain(
      OUT_OF_RANGE,
    );
    expect(timestampSchema.safeParse(new Date(Number.NaN)).success).toBe(false);
  });

  it('accepts the edges of the range and a leap day', () => {
    expect(timestampSchema.parse('1900-01-01T00:00:00.000Z')).toBe('1900-01-01T00:00:00.000Z');
    expect(timestampSchema.parse('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
    expect(timestampSchema.parse('2028-02-29T10:00:00+02:00')).toBe('2028-02-29T08:00:00.000Z');
    expect(timestampSchema.parse('2000-02-29T00:00:00.000Z')).toBe('2000-02-29T00:00:00.000Z');
  });

  it('accepts exactly the real days of the calendar (any year, month, day 1-31 in range)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const text = `${written(y, m, d)}T12:00:00.000Z`;
          const parsed = timestampSchema.safeParse(text);
          if (d <= lengthOf(y, m)) expect(parsed.data).toBe(text);
          else expect(parsed.error?.issues[0]?.message).toBe(DATE_MESSAGES.noSuchDay(y, m, d));
        },
      ),
    );
  });

  it('is what a case change on the device and the server parse with', () => {
    const mutation = {
      mutationId: '6a0d6c1e-2b0a-4c52-9d7a-1f6f7a0d9e11',
      deviceId: '0b9b6f0e-8f43-4f4b-9a52-6d5d3f0a2c21',
      seq: 1,
      actorUserId: 1,
      name: 'case.upsert',
      args: {
        id: '2f0e7c3a-5d41-4b8e-a3c2-9e1f6b7d8a01',
        fields: { callReceivedTime: '2026-02-30T00:00:00.000Z' },
      },
      entityIds: ['2f0e7c3a-5d41-4b8e-a3c2-9e1f6b7d8a01'],
      baseVersion: null,
      clientTime: '2026-11-21T08:00:00.000Z',
      schemaVersion: SCHEMA_VERSION,
    };
    let refusal: unknown;
    try {
      appRegistry.parseMutation(mutation);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Rejection);
    expect(refusal).toMatchObject({
      code: RejectionCode.VALIDATION_FAILED,
      message: 'args.fields.callReceivedTime: There is no 30 February 2026',
    });
  });
});

describe('checkCalendarDay and the case search days', () => {
  it.each([
    ['0001-01-01', OUT_OF_RANGE],
    ['0000-01-01', OUT_OF_RANGE],
    ['1899-12-31', OUT_OF_RANGE],
    ['10000-01-01', OUT_OF_RANGE],
    ['2026-02-30', 'There is no 30 February 2026'],
    ['2026-04-31', 'There is no 31 April 2026'],
    ['2026-02-29', 'There is no 29 February 2026'],
    ['2026-13-01', 'Use a date like 2026-11-21'],
    ['2026-1-01', 'Use a date like 2026-11-21'],
    ['21-11-2026', 'Use a date like 2026-11-21'],
  ])('refuses %s: %s', (day, message) => {
    expect(checkCalendarDay(day)).toEqual({ ok: false, message });
    expect(caseSearchQuerySchema.safeParse({ from: day }).error?.issues[0]?.message).toBe(message);
  });

  it('accepts real days from 1900 to 9999', () => {
    for (const day of ['1900-01-01', '2028-02-29', '2000-02-29', '9999-12-31'])
      expect(checkCalendarDay(day).ok, day).toBe(true);
    expect(checkIsoInstant('2026-11-21T09:30:00.123456Z')).toEqual({
      ok: true,
      ms: Date.parse('2026-11-21T09:30:00.123Z'),
    });
  });
});
