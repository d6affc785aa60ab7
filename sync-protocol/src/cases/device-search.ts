// Case search over the cases this device holds (Cases Logged offline, and the dashboard's
// Recent Cases, which must show a case made offline at once). Same filters and order as the
// server's GET /api/cases (case/search.ts holds the shared semantics). It reads the compact
// case summaries (case-summaries.ts: the local case schema's list fields, parsed when the case
// was written, parsed again here as IndexedDB is a boundary), not the ~150-field case rows,
// and keeps the last list read until a case changes.
import { Dexie } from 'dexie';
import type { CaseSummary } from './api';
import {
  caseSearchMatcher,
  compareCasesNewestFirst,
  sortCasesNewestFirst,
  type CaseSearchContext,
  type CaseSearchFilters,
} from './search';
import {
  CASE_LIST_ID,
  caseListRow,
  casesOfList,
  caseSummaryRow,
  listedCase,
  storedCaseListSchema,
  storedCaseSummarySchema,
  SUMMARY_VERSION_ID,
  summaryVersionSchema,
  type StoredCaseSummary,
} from './device-summaries';
import type { SyncDatabase } from '../client/local-db';

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
 * The case list at a summaries version (case-summaries.ts): the listed cases in order, and
 * every other summary's id (true: its case row is unreadable), so that the list accounts for
 * every summary. The same version means the same list (searching again while typing filters
 * reads one row); a newer one means reading only the summaries stamped since (and the keys of
 * all of them if a case was removed).
 */
interface KeptList {
  version: number;
  list: CaseList;
  others: Map<string, boolean>;
  /** Summaries read since the list was last stored: what the next app start reads on top. */
  unstored: number;
}
/** The last list read, per database object. */
const kept = new WeakMap<SyncDatabase, KeptList>();
const rebuilding = new WeakSet<SyncDatabase>();
const storing = new WeakSet<SyncDatabase>();

/** The list is stored again once the next start would read this many summaries on top. */
const STORE_AFTER_CHANGES = 50;
/** Changed cases up to this many are placed by binary search; more, and the list is sorted. */
const PLACE_UP_TO = 64;

/** Rewrites every case summary from the cases (after a gap was found; normally never). */
export async function rebuildCaseSummaries(db: SyncDatabase): Promise<void> {
  await db.transaction('rw', [db.store('cases'), db.store('caseSummaries')], async () => {
    const version = summaryVersionSchema.safeParse(
      await db.store('caseSummaries').get(SUMMARY_VERSION_ID),
    );
    const stamp = (version.success ? version.data.stamp : 0) + 1;
    const rows = await db.store('cases').toArray();
    await db.store('caseSummaries').clear();
    await db
      .store('caseSummaries')
      .bulkPut([
        ...rows.map((row) => caseSummaryRow(row, stamp)),
        { id: SUMMARY_VERSION_ID, stamp },
      ]);
  });
}

/** Runs `work` soon, outside the caller's (possibly read-only, live) query. */
function soon(work: () => Promise<void>): void {
  setTimeout(() => void Dexie.ignoreTransaction(work).catch(() => undefined), 0);
}

function scheduleRebuild(db: SyncDatabase): void {
  if (rebuilding.has(db)) return;
  rebuilding.add(db);
  soon(() => rebuildCaseSummaries(db).finally(() => rebuilding.delete(db)));
}

/** Stores `list` for the next app start, unless a list as new is stored already (`replace`:
 * the stored one was not trusted, whatever its version). */
function scheduleStore(db: SyncDatabase, list: KeptList, replace: boolean): void {
  if (storing.has(db)) return;
  storing.add(db);
  soon(async () => {
    try {
      const row = caseListRow(
        list.version,
        list.list.cases,
        [...list.others].filter(([, bad]) => !bad).map(([id]) => id),
        list.list.unreadable,
      );
      await db.transaction('rw', db.store('caseLists'), async () => {
        const stored = storedCaseListSchema.safeParse(
          await db.store('caseLists').get(CASE_LIST_ID),
        );
        if (replace || !stored.success || stored.data.version < list.version)
          await db.store('caseLists').put(row);
      });
    } finally {
      // Not retried before more changes if it failed (full storage): it is only a shortcut.
      list.unstored = 0;
      storing.delete(db);
    }
  });
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

/** The kept list of every summary, read at `version`. */
function listOfSummaries(version: number, rows: readonly StoredCaseSummary[]): KeptList {
  const others = new Map<string, boolean>();
  for (const row of rows)
    if (row.unreadable || !listedCase(row)) others.set(row.id, row.unreadable);
  return { version, list: toList(rows), others, unstored: rows.length };
}

function isNewestFirst(cases: readonly LocalCaseSummary[]): boolean {
  for (let i = 1; i < cases.length; i++)
    if (compareCasesNewestFirst(cases[i - 1] as LocalCaseSummary, cases[i] as LocalCaseSummary) > 0)
      return false;
  return true;
}

/** The list stored at the last app start or since, if it parses, has each case once, and is
 * not newer than the summaries (`version`); put back in order if it is not. */
function storedList(row: unknown, version: number): KeptList | null {
  const parsed = storedCaseListSchema.safeParse(row);
  if (!parsed.success || parsed.data.version > version) return null;
  const { unlisted, unreadable } = parsed.data;
  const cases = casesOfList(parsed.data);
  const others = new Map<string, boolean>();
  for (const id of unlisted) others.set(id, false);
  for (const id of unreadable) others.set(id, true);
  const ids = new Set(parsed.data.ids);
  if (
    ids.size !== cases.length ||
    others.size !== unlisted.length + unreadable.length ||
    [...others.keys()].some((id) => ids.has(id))
  )
    return null;
  return {
    version: parsed.data.version,
    list: {
      cases: isNewestFirst(cases) ? cases : sortCasesNewestFirst(cases),
      unreadable: [...unreadable],
    },
    others,
    unstored: 0,
  };
}

/** `cases` (newest first) with `added` placed in order. */
function placeInOrder(
  cases: LocalCaseSummary[],
  added: readonly LocalCaseSummary[],
): LocalCaseSummary[] {
  if (added.length > PLACE_UP_TO) return sortCasesNewestFirst([...cases, ...added]);
  for (const c of added) {
    let lo = 0;
    let hi = cases.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCasesNewestFirst(cases[mid] as LocalCaseSummary, c) <= 0) lo = mid + 1;
      else hi = mid;
    }
    cases.splice(lo, 0, c);
  }
  return cases;
}

/** `base` brought to `version` with the summaries written since (each case at most once). */
function withChanges(
  base: KeptList,
  version: number,
  changed: readonly StoredCaseSummary[],
): KeptList {
  if (changed.length === 0) return { ...base, version };
  const ids = new Set(changed.map((r) => r.id));
  const others = new Map(base.others);
  const added: LocalCaseSummary[] = [];
  for (const row of changed) {
    const listed = row.unreadable ? null : listedCase(row);
    if (listed) {
      added.push(listed);
      others.delete(row.id);
    } else others.set(row.id, row.unreadable);
  }
  const cases = placeInOrder(
    base.list.cases.filter((c) => !ids.has(c.id)),
    added,
  );
  const unreadable = base.list.unreadable.filter((id) => !ids.has(id));
  for (const row of changed) if (row.unreadable) unreadable.push(row.id);
  return { version, list: { cases, unreadable }, others, unstored: base.unstored + changed.length };
}

function sizeOf(list: KeptList): number {
  return list.list.cases.length + list.others.size;
}

/** `list` without the cases whose summary is gone; stored again soon (a stored list with them
 * would have every start read the keys). */
function withoutRemoved(list: KeptList, present: ReadonlySet<string>): KeptList {
  const others = new Map([...list.others].filter(([id]) => present.has(id)));
  const cases = list.list.cases.filter((c) => present.has(c.id));
  const unreadable = list.list.unreadable.filter((id) => present.has(id));
  return {
    version: list.version,
    list: { cases, unreadable },
    others,
    unstored: Math.max(list.unstored, STORE_AFTER_CHANGES),
  };
}

/**
 * Every case on the device as listed, newest first: from the list kept in memory or stored
 * at the last start, brought up to date from the summaries written since (and their keys, if
 * cases were removed); from every summary if neither can be (then stored for the next start);
 * from the cases themselves (slower) if the summaries have a gap, which is then rebuilt.
 */
async function readCaseList(db: SyncDatabase): Promise<CaseList> {
  const previous = kept.get(db);
  // Read on its own, only at the first search of this database object: a transaction over
  // caseLists waits while a list is being stored, which searches while typing never should.
  // Any stored list is a consistent one at its version, so it need not be read with the rest.
  const stored: unknown = previous ? undefined : await db.store('caseLists').get(CASE_LIST_ID);
  // A stored list not trusted (damaged, a case twice, newer than the summaries) is replaced
  // even at the same or a newer version: kept, every start would read every summary again.
  let untrusted = false;
  const read = await db.transaction(
    'r',
    [db.store('cases'), db.store('caseSummaries')],
    async (): Promise<KeptList | CaseList> => {
      const [caseCount, summaryCount, versionRow] = await Promise.all([
        db.store('cases').count(),
        db.store('caseSummaries').count(),
        db.store('caseSummaries').get(SUMMARY_VERSION_ID),
      ]);
      const parsedVersion = summaryVersionSchema.safeParse(versionRow);
      const version = parsedVersion.success ? parsedVersion.data.stamp : 0;
      const rowCount = summaryCount - (versionRow === undefined ? 0 : 1);
      if (caseCount === rowCount) {
        if (previous && previous.version === version) return previous;
        const base = previous
          ? previous.version < version
            ? previous
            : null
          : storedList(stored, version);
        untrusted = !previous && stored !== undefined && !base;
        if (base) {
          const changed =
            base.version === version
              ? []
              : parseSummaries(
                  await db
                    .store('caseSummaries')
                    .where('stamp')
                    .between(base.version, version, false, true)
                    .toArray(),
                );
          const list = changed && withChanges(base, version, changed);
          // Every summary accounted for: nothing was removed since. More: cases were removed
          // (a pull applying the server's deletes), found from the summaries' keys alone.
          if (list && sizeOf(list) === rowCount) return list;
          if (list && sizeOf(list) > rowCount) {
            const trimmed = withoutRemoved(
              list,
              new Set(await db.store('caseSummaries').toCollection().primaryKeys()),
            );
            if (sizeOf(trimmed) === rowCount) return trimmed;
          }
        }
        const all = parseSummaries(await db.store('caseSummaries').toArray());
        if (all) return listOfSummaries(version, all);
      }
      scheduleRebuild(db);
      return toList((await db.store('cases').toArray()).map((row) => caseSummaryRow(row, 0)));
    },
  );
  if (!('version' in read)) return read;
  kept.set(db, read);
  if (read.unstored >= STORE_AFTER_CHANGES) scheduleStore(db, read, untrusted);
  return read.list;
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
  return {
    cases: options.limit === undefined ? found : found.slice(0, options.limit),
    total: found.length,
  };
}

/**
 * The newest `n` cases on the device (the dashboard's Recent Cases), read through the
 * summaries' createdAt index: the first `n` listed, then every one from that createdAt on (so
 * equal times are ordered by case number like the server does).
 */
export async function recentLocalCases(db: SyncDatabase, n: number): Promise<LocalCaseSummary[]> {
  if (n <= 0) return [];
  const read = await db.transaction(
    'r',
    [db.store('cases'), db.store('caseSummaries')],
    async () => {
      const [caseCount, summaryCount, versionRow] = await Promise.all([
        db.store('cases').count(),
        db.store('caseSummaries').count(),
        db.store('caseSummaries').get(SUMMARY_VERSION_ID),
      ]);
      // The summary table also holds its version row, which is no case.
      if (caseCount !== summaryCount - (versionRow === undefined ? 0 : 1)) return null;
      const newest = await db
        .store('caseSummaries')
        .orderBy('createdAt')
        .reverse()
        .filter((row) => row.listed === true)
        .limit(n)
        .toArray();
      const boundary = newest.at(-1)?.createdAt;
      if (newest.length < n || typeof boundary !== 'string') return null;
      return db.store('caseSummaries').where('createdAt').aboveOrEqual(boundary).toArray();
    },
  );
  if (read === null) {
    // A gap in the summaries, or fewer than n cases with a createdAt (those without one are
    // not in the index): the whole list.
    return (await readCaseList(db)).cases.slice(0, n);
  }
  return toList(parseSummaries(read) ?? []).cases.slice(0, n);
}
