// Case search semantics in one place (Cases Logged, /case-search). The server turns the same
// query into indexed SQL (api/src/services/cases-service.ts); the device runs this matcher
// over the cases it holds (client/case-search.ts). Both use the helpers below for anything
// that could drift (case-number folding, day bounds in the service time zone, order), and a
// test runs one data set through both and expects the same ids in the same order.
import type { CaseSearchQuery, CaseStatus } from './api';
import { zonedDayStartMs } from '../time';

/** The fields a search reads; both CaseSummary and a local case row have them. */
export interface SearchableCase {
  caseId?: string | null | undefined;
  patientName?: string | null | undefined;
  incidentType?: string | null | undefined;
  responderName?: string | null | undefined;
  responderCallSign?: string | null | undefined;
  status?: CaseStatus | null | undefined;
  createdAt?: string | null | undefined;
  userId?: number | null | undefined;
}

export interface CaseSearchContext {
  /** The signed-in user (for "Only my cases"). */
  userId: number;
  /** The service time zone the date filters count days in. */
  timeZone: string;
}

/** The filters only (no paging). */
export type CaseSearchFilters = Omit<CaseSearchQuery, 'cursor' | 'limit'>;

/**
 * A case number as it is compared: upper case, no dashes or spaces, and the read-alikes
 * O -> 0, I and L -> 1 (the case-number alphabet has none of them). The SQL twin is
 * `translate(upper(case_id), 'OIL- ', '011')`.
 */
export function foldCaseNumber(value: string): string {
  return value.toUpperCase().replace(/[- ]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** Case-insensitive text as compared (SQL twin: lower()). */
export function foldText(value: string): string {
  return value.toLowerCase();
}

function nextDay(day: string): string | null {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, date + 1);
  const y = d.getUTCFullYear();
  if (y > 9999) return null;
  return `${String(y).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** The createdAt range of `from` / `to`: [fromMs, toMs) in ms, either end open (null). */
export function caseSearchDateBounds(
  q: Pick<CaseSearchFilters, 'from' | 'to'>,
  timeZone: string,
): { fromMs: number | null; toMs: number | null } {
  const after = q.to === undefined ? null : nextDay(q.to);
  return {
    fromMs: q.from === undefined ? null : zonedDayStartMs(q.from, timeZone),
    toMs: after === null ? null : zonedDayStartMs(after, timeZone),
  };
}

function contains(haystack: string | null | undefined, foldedNeedle: string): boolean {
  return typeof haystack === 'string' && foldText(haystack).includes(foldedNeedle);
}

/**
 * A prepared matcher: folds the query once, then tests many cases (5,000 on a device).
 * Visibility (who may see which case) is the server's business; the device only holds what
 * its pulls allowed.
 */
export function caseSearchMatcher(
  q: CaseSearchFilters,
  ctx: CaseSearchContext,
): (c: SearchableCase) => boolean {
  const caseNumber = q.caseId === undefined ? undefined : foldCaseNumber(q.caseId);
  const patientName = q.patientName === undefined ? undefined : foldText(q.patientName);
  const incidentType = q.incidentType === undefined ? undefined : foldText(q.incidentType);
  const responder = q.responder === undefined ? undefined : foldText(q.responder);
  const { fromMs, toMs } = caseSearchDateBounds(q, ctx.timeZone);
  return (c) => {
    if (q.mine && c.userId !== ctx.userId) return false;
    if (q.status !== undefined && c.status !== q.status) return false;
    if (
      caseNumber !== undefined &&
      !(typeof c.caseId === 'string' && foldCaseNumber(c.caseId).startsWith(caseNumber))
    )
      return false;
    if (patientName !== undefined && !contains(c.patientName, patientName)) return false;
    if (
      incidentType !== undefined &&
      !(typeof c.incidentType === 'string' && foldText(c.incidentType) === incidentType)
    )
      return false;
    if (
      responder !== undefined &&
      !contains(c.responderName, responder) &&
      !contains(c.responderCallSign, responder)
    )
      return false;
    if (fromMs !== null || toMs !== null) {
      const created = c.createdAt ? Date.parse(c.createdAt) : Number.NaN;
      if (Number.isNaN(created)) return false;
      if (fromMs !== null && created < fromMs) return false;
      if (toMs !== null && created >= toMs) return false;
    }
    return true;
  };
}

/** Whether one case matches the query's filters (see caseSearchQuerySchema). */
export function matchesCaseSearch(
  c: SearchableCase,
  q: CaseSearchFilters,
  ctx: CaseSearchContext,
): boolean {
  return caseSearchMatcher(q, ctx)(c);
}

/**
 * Newest first: createdAt descending, then caseId descending (code-unit order, the SQL twin
 * is `case_id collate "C"`). A case without a readable createdAt sorts last.
 */
export function compareCasesNewestFirst(
  a: Pick<SearchableCase, 'createdAt' | 'caseId'>,
  b: Pick<SearchableCase, 'createdAt' | 'caseId'>,
): number {
  const ta = a.createdAt ? Date.parse(a.createdAt) : Number.NaN;
  const tb = b.createdAt ? Date.parse(b.createdAt) : Number.NaN;
  const na = Number.isNaN(ta);
  const nb = Number.isNaN(tb);
  if (na !== nb) return na ? 1 : -1;
  if (!na && ta !== tb) return tb - ta;
  const ca = a.caseId ?? '';
  const cb = b.caseId ?? '';
  return ca === cb ? 0 : ca < cb ? 1 : -1;
}

/**
 * Sorts newest first exactly as compareCasesNewestFirst does, parsing each createdAt once
 * (5,000 cases: a few ms instead of tens).
 */
export function sortCasesNewestFirst<T extends Pick<SearchableCase, 'createdAt' | 'caseId'>>(
  list: readonly T[],
): T[] {
  const keyed = list.map((c) => {
    const ms = c.createdAt ? Date.parse(c.createdAt) : Number.NaN;
    return { c, ms: Number.isNaN(ms) ? null : ms, caseId: c.caseId ?? '' };
  });
  keyed.sort((a, b) => {
    if ((a.ms === null) !== (b.ms === null)) return a.ms === null ? 1 : -1;
    if (a.ms !== null && b.ms !== null && a.ms !== b.ms) return b.ms - a.ms;
    return a.caseId === b.caseId ? 0 : a.caseId < b.caseId ? 1 : -1;
  });
  return keyed.map((k) => k.c);
}

/** True when the query has any filter at all (the screen says "No cases found" vs "No cases yet"). */
export function hasCaseSearchFilters(q: CaseSearchFilters): boolean {
  return (
    q.caseId !== undefined ||
    q.patientName !== undefined ||
    q.incidentType !== undefined ||
    q.from !== undefined ||
    q.to !== undefined ||
    q.status !== undefined ||
    q.responder !== undefined ||
    q.mine === true
  );
}
