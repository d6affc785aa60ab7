// Reading the crew's values as FHIR wants them: trimmed text, UTC instants, plain decimals,
// and the words crews write for "none" and "not known".

export function text(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A FHIR dateTime/instant (UTC, milliseconds), or undefined for anything unparseable. */
export function dateTime(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export function isAfterOrSame(later: string, earlier: string): boolean {
  return Date.parse(later) >= Date.parse(earlier);
}

/** A plain decimal (no exponent, no sign other than minus) as FHIR's decimal allows. */
export function parseDecimal(value: string): number | undefined {
  const v = value.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
}

// What crews write for "none" and "not known" (an answer, not an allergy or a medicine).
export const NO_KNOWN_ALLERGY_TEXT =
  /^(none|nil|no|nka|none known|no known allerg(y|ies)|no allerg(y|ies))\.?$/i;
export const NO_KNOWN_DRUG_ALLERGY_TEXT =
  /^(nkda|no known drug allerg(y|ies)|no drug allerg(y|ies))\.?$/i;
export const NO_MEDICATIONS =
  /^(none|nil|no|none known|no (chronic |regular |current )?medications?|no meds)\.?$/i;
export const UNKNOWN_ANSWER = /^(unknown|unk|not known|n\/a|unable to obtain)\.?$/i;
