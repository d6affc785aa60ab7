// An untouched case: started with New Case and left before anything was written into it
// (issue 37). It holds nothing a crew would miss, so it is not kept and never counts: its
// author discards it when they leave it, and the server checks the same rule before it lets
// the discard through. The responder fields do not count: New Case fills them in itself.
import { CASE_FIELDS, CASE_FIELD_DEFAULTS, type CaseField } from './case-schema';

/** Fields New Case writes on its own (the signed-in responder), so they do not count. */
const STARTED_WITH: ReadonlySet<CaseField> = new Set(['responderName', 'responderCallSign']);

function isEmptyValue(value: unknown, fallback: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return value === fallback;
}

/**
 * Whether a case holds nothing but what New Case put there: every field empty or at its
 * default, and no readings or addenda attached (counted by the caller, on its own store).
 */
export function caseHoldsNothing(
  row: Readonly<Record<string, unknown>>,
  attached: { readings: number; addenda: number } = { readings: 0, addenda: 0 },
): boolean {
  if (row.status === 'completed') return false;
  if (attached.readings > 0 || attached.addenda > 0) return false;
  return CASE_FIELDS.every(
    (field) => STARTED_WITH.has(field) || isEmptyValue(row[field], CASE_FIELD_DEFAULTS[field]),
  );
}
