// Vital sign readings: parsing what a responder types, the normal range for the patient's
// age, and the flag ('low' | 'normal' | 'high') a reading gets (domain.md "Vital signs").
//
// Adults (18 and over, and anyone whose age is unknown) use the domain.md table
// (VITAL_SIGNS in cases/clinical.ts). Children use age bands for heart rate, respiratory
// rate and blood pressure, from the American Heart Association PALS Provider Manual (2020)
// tables "Normal heart rates" (awake), "Normal respiratory rates", "Normal blood pressures"
// and "Definition of hypotension by systolic blood pressure and age":
//
// | band        | age              | HR      | RR     | systolic (low = hypotension) | diastolic |
// |-------------|------------------|---------|--------|------------------------------|-----------|
// | neonate     | under 1 month    | 100–205 | 30–60* | ≥ 60, ≤ 84                   | 35–53     |
// | infant      | 1 month – 1 year | 100–180 | 30–53  | ≥ 70, ≤ 104                  | 37–56     |
// | toddler     | 1–2 years        | 98–140  | 22–37  | ≥ 70 + 2×age, ≤ 106          | 42–63     |
// | preschool   | 3–5 years        | 80–120  | 20–28  | ≥ 70 + 2×age, ≤ 112          | 46–72     |
// | school age  | 6–12 years       | 75–118  | 18–25  | 6–9: ≥ 70 + 2×age, ≤ 115     | 57–76     |
// |             |                  |         |        | 10–12: ≥ 90, ≤ 120           | 61–80     |
// | adolescent  | 13–17 years      | 60–100  | 12–20  | ≥ 90, ≤ 131                  | 64–83     |
// | adult       | 18+ / unknown    | 60–100  | 12–20  | 90–140                       | 60–90     |
//
// * PALS gives no separate neonatal respiratory rate; 60/min is the WHO IMCI "fast
//   breathing" threshold for infants under 2 months.
// PALS groups school age as 6–11 and adolescents as 12–15; the bands here follow the
// service's groups (6–12, 13–17), so a 12-year-old keeps the school-age heart and breathing
// rates and the preadolescent blood pressure. PALS ranges are narrower than the centiles of
// Fleming et al. (Lancet 2011) and flag some well children: a flag asks for a second look,
// it never blocks anything.
// The systolic low bound is the PALS hypotension threshold, not the low end of the normal
// table: as with the adult 90 mmHg, the flag should mean "act on this", and the 5th-centile
// table ends would flag many well children. The other vital signs (SpO2, temperature, blood
// glucose, GCS, pain, capillary refill ≤ 2 s, EtCO2) use the adult range at every age.
//
// Age is the case's approximateAge in whole years; 0 means "under a year" and gets the
// infant band (the record cannot tell a 3-day-old from a 6-month-old). The neonate band
// applies to fractional ages under one month (e.g. 0.05), for screens that ask in days.
// Bounds are inclusive: a reading equal to a bound is normal.
import { VITAL_SIGNS, type VitalSignStatus, type VitalSignType } from './clinical';

export interface NormalRange {
  low?: number;
  high?: number;
  unit: string;
  /** The age band the range is for, e.g. 'Adult' or 'Preschool child (3–5 years)'. */
  label: string;
  /** Blood pressure only: the diastolic range (low/high above are systolic). */
  diastolic?: { low?: number; high?: number };
}

export type AgeBand =
  'neonate' | 'infant' | 'toddler' | 'preschool' | 'school' | 'adolescent' | 'adult';

export const AGE_BAND_LABELS: Record<AgeBand, string> = {
  neonate: 'Neonate (under 1 month)',
  infant: 'Infant (under 1 year)',
  toddler: 'Toddler (1–2 years)',
  preschool: 'Preschool child (3–5 years)',
  school: 'School-age child (6–12 years)',
  adolescent: 'Adolescent (13–17 years)',
  adult: 'Adult',
};

const ONE_MONTH_YEARS = 1 / 12;

/** The age band for an age in years; unknown (null or not a sensible age) is adult. */
export function ageBand(ageYears: number | null): AgeBand {
  if (ageYears === null || !Number.isFinite(ageYears) || ageYears < 0) return 'adult';
  if (ageYears > 0 && ageYears < ONE_MONTH_YEARS) return 'neonate';
  if (ageYears < 1) return 'infant';
  if (ageYears < 3) return 'toddler';
  if (ageYears < 6) return 'preschool';
  if (ageYears < 13) return 'school';
  if (ageYears < 18) return 'adolescent';
  return 'adult';
}

interface Bounds {
  low?: number;
  high?: number;
}

const CHILD_HEART_RATE: Record<Exclude<AgeBand, 'adult'>, Bounds> = {
  neonate: { low: 100, high: 205 },
  infant: { low: 100, high: 180 },
  toddler: { low: 98, high: 140 },
  preschool: { low: 80, high: 120 },
  school: { low: 75, high: 118 },
  adolescent: { low: 60, high: 100 },
};

const CHILD_RESPIRATORY_RATE: Record<Exclude<AgeBand, 'adult'>, Bounds> = {
  neonate: { low: 30, high: 60 },
  infant: { low: 30, high: 53 },
  toddler: { low: 22, high: 37 },
  preschool: { low: 20, high: 28 },
  school: { low: 18, high: 25 },
  adolescent: { low: 12, high: 20 },
};

/** Systolic low (PALS hypotension) and high, and the diastolic range, by age. */
function childBloodPressure(
  band: Exclude<AgeBand, 'adult'>,
  ageYears: number,
): {
  systolic: Bounds;
  diastolic: Bounds;
} {
  const hypotensionBelow = (years: number) => 70 + 2 * Math.floor(years);
  switch (band) {
    case 'neonate':
      return { systolic: { low: 60, high: 84 }, diastolic: { low: 35, high: 53 } };
    case 'infant':
      return { systolic: { low: 70, high: 104 }, diastolic: { low: 37, high: 56 } };
    case 'toddler':
      return {
        systolic: { low: hypotensionBelow(ageYears), high: 106 },
        diastolic: { low: 42, high: 63 },
      };
    case 'preschool':
      return {
        systolic: { low: hypotensionBelow(ageYears), high: 112 },
        diastolic: { low: 46, high: 72 },
      };
    case 'school':
      return ageYears < 10
        ? {
            systolic: { low: hypotensionBelow(ageYears), high: 115 },
            diastolic: { low: 57, high: 76 },
          }
        : { systolic: { low: 90, high: 120 }, diastolic: { low: 61, high: 80 } };
    case 'adolescent':
      return { systolic: { low: 90, high: 131 }, diastolic: { low: 64, high: 83 } };
  }
}

function adultBounds(type: VitalSignType): Bounds {
  const { min, max } = VITAL_SIGNS[type].adultNormal;
  return {
    ...(min !== undefined ? { low: min } : {}),
    ...(max !== undefined ? { high: max } : {}),
  };
}

/**
 * The normal range of a vital sign for a patient of this age (null age → adult). Never
 * null for the known types; the `| null` is for callers holding an unchecked type string.
 */
export function normalRange(type: VitalSignType, ageYears: number | null): NormalRange | null {
  const info = VITAL_SIGNS[type] as (typeof VITAL_SIGNS)[VitalSignType] | undefined;
  if (!info) return null;
  const band = ageBand(ageYears);
  const base = { unit: info.unit, label: AGE_BAND_LABELS[band] };
  if (band === 'adult' || ageYears === null) {
    const range: NormalRange = { ...adultBounds(type), ...base };
    if (type === 'bloodPressure' && info.adultNormalDiastolic) {
      range.diastolic = {
        low: info.adultNormalDiastolic.min,
        high: info.adultNormalDiastolic.max,
      };
    }
    return range;
  }
  switch (type) {
    case 'heartRate':
      return { ...CHILD_HEART_RATE[band], ...base };
    case 'respiratoryRate':
      return { ...CHILD_RESPIRATORY_RATE[band], ...base };
    case 'bloodPressure': {
      const bp = childBloodPressure(band, ageYears);
      return { ...bp.systolic, ...base, diastolic: bp.diastolic };
    }
    default:
      return { ...adultBounds(type), ...base };
  }
}

/** '60–100 /min', '≥ 94 %', '≤ 2 s', BP '90–140 / 60–90 mmHg'. */
export function formatNormalRange(range: NormalRange): string {
  const bounds = (b: Bounds) =>
    b.low !== undefined && b.high !== undefined
      ? b.low === b.high
        ? `${b.low}`
        : `${b.low}–${b.high}`
      : b.low !== undefined
        ? `≥ ${b.low}`
        : b.high !== undefined
          ? // Nothing reads below 0 (pain): 'at most 0' is just 0.
            b.high === 0
            ? '0'
            : `≤ ${b.high}`
          : 'any';
  // '/10' sits on its number ('0/10'); other units after a space ('12–20 /min').
  const unit = range.unit ? (range.unit.startsWith('/10') ? range.unit : ` ${range.unit}`) : '';
  if (range.diastolic) return `${bounds(range)} / ${bounds(range.diastolic)}${unit}`;
  return `${bounds(range)}${unit}`;
}

// ---------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------

export type ParsedVital = {
  /** The reading as it should be stored, e.g. '36.5' for '36,5 °C', '120/80' for '120 / 80'. */
  value: string;
  /** The number charts and flags use (systolic for blood pressure); null for a meter's LO/HI. */
  numericValue: number | null;
  systolic?: number;
  diastolic?: number;
  /** Blood glucose meters read 'LO' / 'HI' outside what they can measure. */
  beyondMeter?: 'low' | 'high';
};
export type VitalParseResult = ParsedVital | { error: string };

interface Plausible {
  min: number;
  max: number;
  integer: boolean;
}

/** What a reading can physically be (wider than normal: it catches typos, not illness). */
const PLAUSIBLE: Record<Exclude<VitalSignType, 'bloodPressure'>, Plausible> = {
  heartRate: { min: 0, max: 350, integer: true },
  respiratoryRate: { min: 0, max: 150, integer: true },
  spo2: { min: 0, max: 100, integer: false },
  temperature: { min: 10, max: 45, integer: false },
  bloodGlucose: { min: 0, max: 60, integer: false },
  gcs: { min: 3, max: 15, integer: true },
  painScore: { min: 0, max: 10, integer: true },
  capillaryRefill: { min: 0, max: 30, integer: false },
  etco2: { min: 0, max: 150, integer: false },
};

export const BLOOD_PRESSURE_LIMITS = {
  systolic: { min: 20, max: 300 },
  diastolic: { min: 10, max: 250 },
} as const;

// Units a responder may type after the number; removed before parsing.
const TRAILING_UNIT =
  /\s*(bpm|beats?\/min|breaths?\/min|\/\s*min|%|°\s*c|°|c|mmol\/l|mmhg|secs?|s|\/\s*10)$/i;
const NUMBER = /^\d{1,4}(?:[.,]\d{1,3})?$/;

function isNumberText(text: string): boolean {
  return NUMBER.test(text);
}

function toNumber(text: string): number {
  return Number(text.replace(',', '.'));
}

function formatValue(n: number): string {
  return String(n);
}

function parseBloodPressure(raw: string): VitalParseResult {
  const example = 'Enter blood pressure as systolic/diastolic, e.g. 120/80';
  const m = /^(\d{1,3})\s*\/\s*(\d{1,3}|p|palp|palpated)$/i.exec(raw.replace(/\s*mmhg$/i, ''));
  if (!m) return { error: example };
  const systolic = Number(m[1]);
  const { systolic: sLim, diastolic: dLim } = BLOOD_PRESSURE_LIMITS;
  if (systolic < sLim.min || systolic > sLim.max) {
    return { error: `Systolic must be between ${sLim.min} and ${sLim.max} mmHg` };
  }
  const second = m[2] ?? '';
  if (!/^\d+$/.test(second)) {
    // Palpated: systolic only (no diastolic without a cuff and stethoscope/monitor).
    return { value: `${systolic}/P`, numericValue: systolic, systolic };
  }
  const diastolic = Number(second);
  if (diastolic < dLim.min || diastolic > dLim.max) {
    return { error: `Diastolic must be between ${dLim.min} and ${dLim.max} mmHg` };
  }
  if (diastolic >= systolic) return { error: 'Systolic must be higher than diastolic' };
  return { value: `${systolic}/${diastolic}`, numericValue: systolic, systolic, diastolic };
}

/**
 * Parse a typed reading. Accepts a decimal comma, a trailing unit ('98 %', '36,5 °C'),
 * blood pressure as '120/80' or palpated '90/P', and a glucose meter's 'LO' / 'HI'.
 */
export function parseVitalValue(type: VitalSignType, raw: string): VitalParseResult {
  const text = raw.trim();
  const info = VITAL_SIGNS[type] as (typeof VITAL_SIGNS)[VitalSignType] | undefined;
  if (!info) return { error: 'Unknown vital sign' };
  if (text === '') return { error: `Enter the ${info.label.toLowerCase()}` };
  if (type === 'bloodPressure') return parseBloodPressure(text);
  if (type === 'bloodGlucose' && /^(lo|low)$/i.test(text)) {
    return { value: 'LO', numericValue: null, beyondMeter: 'low' };
  }
  if (type === 'bloodGlucose' && /^(hi|high)$/i.test(text)) {
    return { value: 'HI', numericValue: null, beyondMeter: 'high' };
  }
  const number = text.replace(TRAILING_UNIT, '');
  const limits = PLAUSIBLE[type];
  const unit = info.unit ? (info.unit.startsWith('/') ? info.unit : ` ${info.unit}`) : '';
  const between = `${info.label} must be between ${limits.min} and ${limits.max}${unit}`;
  if (!isNumberText(number)) {
    return {
      error: limits.integer
        ? `${info.label}: enter a whole number`
        : `${info.label}: enter a number`,
    };
  }
  const n = toNumber(number);
  if (limits.integer && !Number.isInteger(n))
    return { error: `${info.label}: enter a whole number` };
  if (n < limits.min || n > limits.max) return { error: between };
  return { value: formatValue(n), numericValue: n };
}

function compare(value: number, bounds: Bounds): VitalSignStatus {
  if (bounds.low !== undefined && value < bounds.low) return 'low';
  if (bounds.high !== undefined && value > bounds.high) return 'high';
  return 'normal';
}

/**
 * The flag for a reading at this age, or null when it cannot be parsed. Blood pressure:
 * the systolic decides when it is out of range (low first: hypotension matters most),
 * otherwise the diastolic.
 */
export function classifyVital(
  type: VitalSignType,
  value: string,
  ageYears: number | null,
): VitalSignStatus | null {
  const parsed = parseVitalValue(type, value);
  if ('error' in parsed) return null;
  if (parsed.beyondMeter) return parsed.beyondMeter;
  const range = normalRange(type, ageYears);
  if (!range || parsed.numericValue === null) return null;
  if (type === 'bloodPressure' && parsed.systolic !== undefined) {
    const systolic = compare(parsed.systolic, range);
    if (systolic !== 'normal' || parsed.diastolic === undefined || !range.diastolic)
      return systolic;
    return compare(parsed.diastolic, range.diastolic);
  }
  return compare(parsed.numericValue, range);
}
