import { describe, expect, it } from 'vitest';
import {
  chartScale,
  chartSummary,
  formatReading,
  readingStatus,
  trendOf,
  typesWithReadings,
  type ReadingLike,
} from './vital-display';

let n = 0;
function reading(
  type: ReadingLike['type'],
  value: string,
  minute: number,
  extra: Partial<ReadingLike> = {},
): ReadingLike {
  n += 1;
  return {
    id: `r${String(n)}`,
    type,
    value,
    timestamp: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`,
    ...extra,
  };
}

describe('vital sign display', () => {
  it('summarises a chart in words: count, latest with unit and flag, direction', () => {
    const hr = [
      reading('heartRate', '96', 0),
      reading('heartRate', '110', 5),
      reading('heartRate', '128', 10),
    ];
    expect(chartSummary('heartRate', hr, 40)).toBe(
      'Heart rate 3 readings, latest 128 /min HIGH, rising',
    );
    expect(chartSummary('heartRate', hr.slice(0, 1), 40)).toBe(
      'Heart rate 1 reading, latest 96 /min',
    );
    expect(chartSummary('heartRate', [], 40)).toBe('Heart rate: no readings');
    expect(chartSummary('spo2', [reading('spo2', '97', 0), reading('spo2', '89', 5)], 40)).toBe(
      'SpO2 2 readings, latest 89 % LOW, falling',
    );
    expect(chartSummary('bloodPressure', [reading('bloodPressure', '150/95', 0)], 40)).toBe(
      'Blood pressure 1 reading, latest 150/95 mmHg HIGH',
    );
  });

  it('leaves voided readings out of the count, the latest and the trend', () => {
    const hr = [
      reading('heartRate', '80', 0),
      reading('heartRate', '180', 5, {
        voidedAt: '2026-11-20T10:06:00.000Z',
        voidReason: 'Typing error',
      }),
      reading('heartRate', '80', 6),
    ];
    expect(chartSummary('heartRate', hr, 40)).toBe('Heart rate 2 readings, latest 80 /min, steady');
  });

  it("flags a reading for the patient's current age, falling back to the stored flag", () => {
    expect(readingStatus({ type: 'heartRate', value: '130', status: 'high' }, 2)).toBe('normal');
    expect(readingStatus({ type: 'heartRate', value: '130', status: null }, 40)).toBe('high');
    // A value the parser cannot judge keeps what was stored with it.
    expect(readingStatus({ type: 'heartRate', value: 'irregular', status: 'low' }, 40)).toBe('low');
  });

  it('formats values with their units and orders the columns', () => {
    expect(formatReading('temperature', '36.5')).toBe('36.5 °C');
    expect(formatReading('painScore', '3')).toBe('3/10');
    expect(formatReading('gcs', '14')).toBe('14');
    expect(trendOf([5])).toBeNull();
    expect(typesWithReadings([{ type: 'spo2' }, { type: 'heartRate' }, { type: 'spo2' }])).toEqual([
      'heartRate',
      'spo2',
    ]);
  });
});

describe('chartScale', () => {
  it('puts the ends on round numbers that hold every value (issue 37: not 54.9–129.1)', () => {
    expect(chartScale('heartRate', [60, 100, 128, 72])).toEqual({ min: 60, max: 140, step: 20 });
    expect(chartScale('temperature', [36.4, 38.9])).toEqual({ min: 36, max: 39, step: 1 });
  });

  it('draws GCS on 3–15 and pain on 0–10 whatever was recorded', () => {
    expect(chartScale('gcs', [14, 15])).toMatchObject({ min: 3, max: 15 });
    expect(chartScale('painScore', [0])).toMatchObject({ min: 0, max: 10 });
  });

  it('widens a single value to a readable span', () => {
    const scale = chartScale('spo2', [97]);
    expect(scale.min).toBeLessThan(97);
    expect(scale.max).toBeGreaterThan(97);
  });
});
