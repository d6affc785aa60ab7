// Case search over the cases this device holds (Cases Logged offline, and the dashboard's
// Recent Cases, which must show a case made offline at once). Same filters and order as the
// server's GET /api/cases (case/search.ts holds the shared semantics). It reads the compact
// case summaries (case-summaries.ts: the local case schema's list fields, parsed when the case
// was written, parsed again here as IndexedDB is a boundary), not the ~150-field case rows,
// and keeps the last list read until a case changes.
import { Dexie } from 'dexie';
import type { CaseSummary } from '../cases';
import { caseSearchMatcher, sortCasesNewestFirst, type CaseSearchContext, type CaseSearchFilters } from '../case/search';
import { caseSummaryRow, listedCase, storedCaseSummarySchema, SUMMARY_VERSION_ID, summaryVersionSchema, type StoredCaseSummary } from './case-summaries';
import type { SyncDatabase } from './local-db';

/** A case as the device holds it, in the shape of the server's CaseSummary. */
export type LocalCaseSummary = CaseSummary;

export interface LocalCaseSearchOptions {
  /** At most this many cases (the first ones, newest first); all when omitted. */
  limit?: number;
  /** Told about a case row that no longer parses (it is left out, never crashes the list). */
  onUnreadable?: (caseUuid: string) => void;
}

export interface LocalCaseSearchResult {
  cases: LocalCaseSummary[];
  /** How many cases on the device match (before `limit`). */
  total: number;
}

/** Every listed case, newest first, and the ids of unreadable case rows. */
interface CaseList {
  cases: LocalCaseSummary[];
  unreadable: string[];
}

/**
 * The last list read per database, at a summaries version (case-summaries.ts). The same
 * version means the same list (searching again while typing filters reads one row); a newer
 * one means reading only the summaries written since, unless a case was removed.
 */
interface KeptList {
  version: number;
  byId: Map<string, StoredCaseSummary>;
  list: CaseList;
}
const kept = new WeakMap<SyncDatabase, KeptList>();
const rebuilding = new WeakSet<SyncDatabase>();

/** Rewrites every case summary from the cases (after a gap was found; normally never). */
export async function rebuildCaseSummaries(db: SyncDatabase): Promise<void> {
  await db.transaction('rw', [db.cases, db.caseSummaries], async () => {
    const version = summaryVersionSchema.safeParse(await db.caseSummaries.get(SUMMARY_VERSION_ID));
    const stamp = (version.success ? version.data.stamp : 0) + 1;
    const rows = await db.cases.toArray();
    await db.caseSummaries.clear();
    await db.caseSummaries.bulkPut([...rows.map((row) => caseSummaryRow(row, stamp)), { id: SUMMARY_VERSION_ID, stamp }]);
  });
}

function scheduleRebuild(db: SyncDatabase): void {
  if (rebuilding.has(db)) return;
  rebuilding.add(db);
  // Outside the caller's (possibly read-only, live) query.
  setTimeout(() => {
    void Dexie.ignoreTransaction(() => rebuildCaseSummaries(db))
      .catch(() => undefined)
      .finally(() => rebuilding.delete(db));
  }, 0);
}

function toList(rows: Iterable<StoredCaseSummary>): CaseList {
  const cases: LocalCaseSummary[] = [];
  const unreadable: string[] = [];
  for (const row of rows) {
    if (row.unreadable) unreadable.push(row.id);
    else {
      const listed = listedCase(row);
      if (listed) cases.push(listed);
    }
  }
  return { cases: sortCasesNewestFirst(cases), unreadable };
}

/** Parses stored summary rows, skipping the version row; null if any does not parse. */
function parseSummaries(rows: readonly unknown[]): StoredCaseSummary[] | null {
  const parsed: StoredCaseSummary[] = [];
  for (const row of rows) {
    if ((row as { id?: unknown }).id === SUMMARY_VERSION_ID) continue;
    const result = storedCaseSummarySchema.safeParse(row);
    if (!result.success) return null;
    parsed.push(result.data);
  }
  return parsed;
}

/**
 * Every case on the device as listed, newest first: from the kept list, brought up to date
 * from the summary table; from the cases themselves (slower) if the summaries have a gap,
 * which is then rebuilt.
 */
async function readCaseList(db: SyncDatabase): Promise<CaseList> {
  return db.transaction('r', [db.cases, db.caseSummaries], async () => {
    const [caseCount, summaryCount, versionRow] = await Promise.all([db.cases.count(), db.caseSummaries.count(), db.caseSummaries.get(SUMMARY_VERSION_ID)]);
    const parsedVersion = summaryVersionSchema.safeParse(versionRow);
    const version = parsedVersion.success ? parsedVersion.data.stamp : 0;
    const rowCount = summaryCount - (versionRow === undefined ? 0 : 1);
    if (caseCount === rowCount) {
      const previous = kept.get(db);
      if (previous && previous.version === version) return previous.list;
      if (previous && previous.version < version) {
        const changed = parseSummaries(await db.caseSummaries.where('stamp').between(previous.version, version, false, true).toArray());
        if (changed) {
          const byId = new Map(previous.byId);
          for (const row of changed) byId.set(row.id, row);
          // Equal sizes: nothing was removed since (a removal would leave a row here).
          if (byId.size === rowCount) {
            const list = toList(byId.values());
            kept.set(db, { version, byId, list });
            return list;
          }
        }
      }
      const all = parseSummaries(await db.caseSummaries.toArray());
      if (all) {
        const list = toList(all);
        kept.set(db, { version, byId: new Map(all.map((r) => [r.id, r])), list });
        return list;
      }
    }
    scheduleRebuild(db);
    return toList((await db.cases.toArray()).map((row) => caseSummaryRow(row, 0)));
  });
}

/**
 * Reads the case list ahead of need (the app calls it when idle after sign-in), so the first
 * search on Cases Logged finds it kept instead of reading every summary then.
 */
export async function warmLocalCaseList(db: SyncDatabase): Promise<void> {
  await readCaseList(db);
}

/** The device's cases matching `q`, newest first (deleted cases and cases without a number
 * left out). */
export async function searchLocalCases(
  db: SyncDatabase,
  q: CaseSearchFilters,
  ctx: CaseSearchContext,
  options: LocalCaseSearchOptions = {},
): Promise<LocalCaseSearchResult> {
  const list = await readCaseList(db);
  if (options.onUnreadable) for (const id of list.unreadable) options.onUnreadable(id);
  const found = list.cases.filter(caseSearchMatcher(q, ctx));
  return { cases: options.limit === undefined ? found : found.slice(0, options.limit), total: found.length };
}

/**
 * The newest `n` cases on the device (the dashboard's Recent Cases), read through the
 * summaries' createdAt index: the first `n` listed, then every one from that createdAt on (so
 * equal times are ordered by case number like the server does).
 */
export async function recentLocalCases(db: SyncDatabase, n: number): Promise<LocalCaseSummary[]> {
  if (n <= 0) return [];
  const read = await db.transaction('r', [db.cases, db.caseSummaries], async () => {
    const [caseCount, summaryCount, versionRow] = await Promise.all([db.cases.count(), db.caseSummaries.count(), db.caseSummaries.get(SUMMARY_VERSION_ID)]);
    // The summary table also holds its version row, which is no case.
    if (caseCount !== summaryCount - (versionRow === undefined ? 0 : 1)) return null;
    const newest = await db.caseSummaries
      .orderBy('createdAt')
      .reverse()
      .filter((row) => row.listed === true)
      .limit(n)
      .toArray();
    const boundary = newest.at(-1)?.createdAt;
    if (newest.length < n || typeof boundary !== 'string') return null;
    return db.caseSummaries.where('createdAt').aboveOrEqual(boundary).toArray();
  });
  if (read === null) {
    // A gap in the summaries, or fewer than n cases with a createdAt (those without one are
    // not in the index): the whole list.
    return (await readCaseList(db)).cases.slice(0, n);
  }
  return toList(parseSummaries(read) ?? []).cases.slice(0, n);
}

/** Ids of records with changes the server has not acknowledged yet (one read for a list). */
export async function pendingRecordIds(db: SyncDatabase): Promise<Set<string>> {
  const keys = await db.outbox.orderBy('entityIds').uniqueKeys();
  return new Set(keys.filter((k): k is string => typeof k === 'string'));
}
