// How a vital sign reading reads on screen: value with its unit, the flag for the patient's
// age in words ('HIGH' / 'LOW', never colour alone), and the one-line text summary a chart
// carries for screen readers. Pure, so the table, the charts and the entry form agree.
import { classifyVital, parseVitalValue } from '@rescuelog/sync-protocol/cases/vital-ranges';
import {
  VITAL_SIGNS,
  VITAL_SIGN_TYPES,
  type VitalSignStatus,
  type VitalSignType,
} from '@rescuelog/sync-protocol/cases/clinical';

export interface ReadingLike {
  id: string;
  type: VitalSignType;
  value: string;
  numericValue?: number | null | undefined;
  status?: VitalSignStatus | null | undefined;
  timestamp?: string | undefined;
  voidedAt?: string | null | undefined;
  voidReason?: string | null | undefined;
  deletedAt?: string | null | undefined;
}

export const FLAG_TEXT: Record<Exclude<VitalSignStatus, 'normal'>, string> = {
  high: 'HIGH',
  low: 'LOW',
};

export function vitalLabel(type: VitalSignType): string {
  return VITAL_SIGNS[type].label;
}

export function isVoided(r: Pick<ReadingLike, 'voidedAt'>): boolean {
  return r.voidedAt !== null && r.voidedAt !== undefined;
}

/** Readings that count: not voided, not deleted, with a time. */
export function liveReadings<R extends ReadingLike>(readings: readonly R[]): R[] {
  return readings.filter((r) => !isVoided(r) && !r.deletedAt && r.timestamp);
}

/** '128 /min', '120/80 mmHg', '36.5 °C', '98 %', '3/10', '14' (GCS). */
export function formatReading(type: VitalSignType, value: string): string {
  const unit = VITAL_SIGNS[type].unit;
  if (!unit) return value;
  if (unit === '/10') return `${value}/10`;
  return `${value} ${unit}`;
}

/**
 * The flag a reading shows: its value judged for the patient's current age (the age may
 * have been corrected after the reading was taken), or the flag stored with it when the
 * value cannot be judged.
 */
export function readingStatus(
  r: Pick<ReadingLike, 'type' | 'value' | 'status'>,
  ageYears: number | null,
): VitalSignStatus | null {
  return classifyVital(r.type, r.value, ageYears) ?? r.status ?? null;
}

/** 'HIGH', 'LOW' or '' (normal or unknown). */
export function flagText(status: VitalSignStatus | null | undefined): string {
  return status === 'high' || status === 'low' ? FLAG_TEXT[status] : '';
}

/** Systolic and diastolic of a blood pressure, or the single number of any other reading. */
export function readingNumbers(r: Pick<ReadingLike, 'type' | 'value' | 'numericValue'>): {
  value: number | null;
  diastolic?: number;
} {
  const parsed = parseVitalValue(r.type, r.value);
  if ('error' in parsed)
    return { value: typeof r.numericValue === 'number' ? r.numericValue : null };
  return {
    value: parsed.numericValue,
    ...(parsed.diastolic !== undefined ? { diastolic: parsed.diastolic } : {}),
  };
}

export type Trend = 'rising' | 'falling' | 'steady';

/** The direction of the last two values (null with fewer than two). */
export function trendOf(values: readonly number[]): Trend | null {
  if (values.length < 2) return null;
  const last = values[values.length - 1] ?? 0;
  const previous = values[values.length - 2] ?? 0;
  if (last > previous) return 'rising';
  if (last < previous) return 'falling';
  return 'steady';
}

function byTime(a: ReadingLike, b: ReadingLike): number {
  return (a.timestamp ?? '').localeCompare(b.timestamp ?? '');
}

/**
 * 'Heart rate 3 readings, latest 128 /min HIGH, rising'; 'Heart rate 1 reading, latest 72
 * /min'; 'Heart rate: no readings'. Voided readings are not counted.
 */
export function chartSummary(
  type: VitalSignType,
  readings: readonly ReadingLike[],
  ageYears: number | null,
): string {
  const label = vitalLabel(type);
  const live = liveReadings(readings.filter((r) => r.type === type)).sort(byTime);
  const latest = live[live.length - 1];
  if (!latest) return `${label}: no readings`;
  const count = live.length === 1 ? '1 reading' : `${String(live.length)} readings`;
  const flag = flagText(readingStatus(latest, ageYears));
  const values = live.map((r) => readingNumbers(r).value).filter((v): v is number => v !== null);
  const trend = trendOf(values);
  return `${label} ${count}, latest ${formatReading(type, latest.value)}${flag ? ` ${flag}` : ''}${trend ? `, ${trend}` : ''}`;
}

/** Types in the screen's order that have at least one reading. */
export function typesWithReadings(readings: readonly Pick<ReadingLike, 'type'>[]): VitalSignType[] {
  const present = new Set(readings.map((r) => r.type));
  return VITAL_SIGN_TYPES.filter((t) => present.has(t));
}

/** Scales that have fixed ends: GCS runs 3–15 and pain 0–10 whatever was recorded. */
const FIXED_SCALES: Partial<Record<VitalSignType, { min: number; max: number }>> = {
  gcs: { min: 3, max: 15 },
  painScore: { min: 0, max: 10 },
};

/** 1, 2 or 5 times a power of ten: the tick steps people read without effort. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * A chart's vertical scale: round ends on a round step (heart rate 50–130 in tens, not
 * 54.9–129.1), covering every value and the normal band; GCS and pain on their whole scale.
 */
export function chartScale(
  type: VitalSignType,
  values: readonly number[],
): { min: number; max: number; step: number } {
  const fixed = FIXED_SCALES[type];
  if (fixed) {
    const span = fixed.max - fixed.min;
    return { ...fixed, step: span > 10 ? 3 : 2 };
  }
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (!Number.isFinite(low) || !Number.isFinite(high)) return { min: 0, max: 1, step: 1 };
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const step = niceStep((high - low) / 4);
  // toPrecision: 0.1 steps without 36.400000000000006 on the axis.
  const even = (n: number) => Number(n.toPrecision(12));
  return {
    min: even(Math.floor(low / step) * step),
    max: even(Math.ceil(high / step) * step),
    step,
  };
}
