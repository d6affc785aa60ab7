// A compact copy of every case's list fields (number, patient, incident type, status, times,
// owner, responder) in its own table, `caseSummaries`, so case search and Recent Cases read
// small rows instead of whole case records (~150 fields each): 5,000 full rows took hundreds
// of milliseconds to read in Chromium, far over the 100 ms target (docs/decisions/009).
//
// The copy is kept by a Dexie DBCore middleware, below every API the engine and the screens
// use: any write to `cases` (a local save, a pull, a rebuild after a rejection, in the page or
// in the service worker) writes the matching summary in the same IndexedDB transaction, so the
// two cannot disagree. Readers still check that the counts match and rebuild if not.
import type {
  DBCore,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';
import { z } from 'zod';
import '../zod-config';
import { CASE_STATUSES, type CaseStatus, type CaseSummary } from './api';
import { caseRecordSchema } from './case-schema';
import { uuidSchema } from '../platform/values';

export const CASE_SUMMARY_TABLE = 'caseSummaries';

// LOCAL_RECORD_SCHEMAS.case (every field optional but the id), narrowed to the summary.
const localSummarySchema = caseRecordSchema
  .pick({
    id: true,
    caseId: true,
    patientName: true,
    incidentType: true,
    status: true,
    createdAt: true,
    completedAt: true,
    userId: true,
    responderName: true,
    responderCallSign: true,
    deletedAt: true,
  })
  .partial()
  .extend({ id: uuidSchema });

/**
 * A stored summary, flat (one small object per case reads fastest): the list fields, whether
 * the case is `listed` (not deleted, has its number) or `unreadable` (its row does not parse),
 * and `stamp`, the summaries' version when this copy was written (see below).
 */
export const storedCaseSummarySchema = z.object({
  id: z.string(),
  stamp: z.number(),
  listed: z.boolean(),
  unreadable: z.boolean(),
  caseId: z.string().nullable(),
  patientName: z.string().nullable(),
  incidentType: z.string().nullable(),
  status: z.enum(CASE_STATUSES),
  createdAt: z.string().optional(),
  completedAt: z.string().nullable(),
  userId: z.number().nullable(),
  responderName: z.string().nullable(),
  responderCallSign: z.string().nullable(),
});
export type StoredCaseSummary = z.output<typeof storedCaseSummarySchema>;

/**
 * The version row: one reserved row of the summary table holding a counter that every write
 * transaction raises (read and written in that transaction, so IndexedDB's one-writer-at-a-
 * time rule makes it strictly increase across tabs and the worker). Summaries written by that
 * transaction carry the new value as their stamp, so a reader that kept a list at version v
 * fetches exactly the rows with a stamp above v. Not a case: readers skip it.
 */
export const SUMMARY_VERSION_ID = '~version';
export const summaryVersionSchema = z.object({
  id: z.literal(SUMMARY_VERSION_ID),
  stamp: z.number().int().nonnegative(),
});

/**
 * The whole case list as a reader last read it, kept between app starts (case-search.ts):
 * one row of the `caseLists` table (database version 5), `version` being the summaries'
 * version it was read at. Opening the app reads this one row and the summaries stamped since
 * (the `stamp` index) instead of every summary: one IndexedDB value of ~5,000 entries reads in
 * a few ms where 5,000 small rows took ~100 ms in Chromium. Readers write it (a save never
 * does), in list order and column by column: arrays of strings parse fast and store small.
 */
export const CASE_LIST_TABLE = 'caseLists';
export const CASE_LIST_ID = 'cases';

/**
 * A column: an array whose every element passes `check`, tested in one loop. z.array(z.string())
 * runs zod's per-value machinery for each of ~5,000 values per column (~10 ms on a freshly
 * loaded page in Chromium, where the app's CSP keeps zod from compiling its parsers); this is
 * one type test per value. Holes (sparse arrays) fail like any other non-matching value.
 */
function column<T>(check: (value: unknown) => value is T) {
  return z.custom<T[]>((value) => {
    if (!Array.isArray(value)) return false;
    for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
    return true;
  });
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isNumberOrNull = (v: unknown): v is number | null => v === null || Number.isFinite(v);
const isStatus = (v: unknown): v is CaseStatus => (CASE_STATUSES as readonly unknown[]).includes(v);
const strings = column(isString);
const nullableStrings = column(isStringOrNull);
const LISTED_COLUMNS = [
  'ids',
  'caseIds',
  'patientNames',
  'incidentTypes',
  'statuses',
  'createdAts',
  'completedAts',
  'userIds',
  'responderNames',
  'responderCallSigns',
] as const;
export const storedCaseListSchema = z
  .object({
    id: z.literal(CASE_LIST_ID),
    /** Raised if this layout ever changes: a row of another layout is then read afresh. */
    layout: z.literal(1),
    version: z.number().int().nonnegative(),
    /** The listed cases (listedCase), newest first, one array per field. */
    ids: strings,
    caseIds: strings,
    patientNames: nullableStrings,
    incidentTypes: nullableStrings,
    statuses: column(isStatus),
    createdAts: nullableStrings,
    completedAts: nullableStrings,
    userIds: column(isNumberOrNull),
    responderNames: nullableStrings,
    responderCallSigns: nullableStrings,
    /** The other summaries: not listed (deleted, no case number yet), and unreadable rows. */
    unlisted: strings,
    unreadable: strings,
  })
  .refine((row) => LISTED_COLUMNS.every((c) => row[c].length === row.ids.length), {
    message: 'Invalid input',
    path: ['ids'],
  });
export type StoredCaseList = z.output<typeof storedCaseListSchema>;

/** The stored row of a case list read at `version` (`cases` newest first). */
export function caseListRow(
  version: number,
  cases: readonly CaseSummary[],
  unlisted: Iterable<string>,
  unreadable: Iterable<string>,
): StoredCaseList {
  return {
    id: CASE_LIST_ID,
    layout: 1,
    version,
    ids: cases.map((c) => c.id),
    caseIds: cases.map((c) => c.caseId),
    patientNames: cases.map((c) => c.patientName),
    incidentTypes: cases.map((c) => c.incidentType),
    statuses: cases.map((c) => c.status),
    createdAts: cases.map((c) => c.createdAt),
    completedAts: cases.map((c) => c.completedAt),
    userIds: cases.map((c) => c.userId),
    responderNames: cases.map((c) => c.responderName),
    responderCallSigns: cases.map((c) => c.responderCallSign),
    unlisted: [...unlisted],
    unreadable: [...unreadable],
  };
}

/** The listed cases of a stored case list, in its order. */
export function casesOfList(list: StoredCaseList): CaseSummary[] {
  const cases: CaseSummary[] = new Array<CaseSummary>(list.ids.length);
  for (let i = 0; i < list.ids.length; i++) {
    cases[i] = {
      id: list.ids[i] as string,
      caseId: list.caseIds[i] as string,
      patientName: list.patientNames[i] ?? null,
      incidentType: list.incidentTypes[i] ?? null,
      status: list.statuses[i] ?? 'in_progress',
      createdAt: list.createdAts[i] ?? null,
      completedAt: list.completedAts[i] ?? null,
      userId: list.userIds[i] ?? null,
      responderName: list.responderNames[i] ?? null,
      responderCallSign: list.responderCallSigns[i] ?? null,
    };
  }
  return cases;
}

/** The case as listed, or null when it is not listed. */
export function listedCase(s: StoredCaseSummary): CaseSummary | null {
  if (!s.listed || s.caseId === null) return null;
  return {
    id: s.id,
    caseId: s.caseId,
    patientName: s.patientName,
    incidentType: s.incidentType,
    status: s.status,
    createdAt: s.createdAt ?? null,
    completedAt: s.completedAt,
    userId: s.userId,
    responderName: s.responderName,
    responderCallSign: s.responderCallSign,
  };
}

function rowId(row: unknown): string {
  return typeof row === 'object' && row !== null && typeof (row as { id?: unknown }).id === 'string'
    ? (row as { id: string }).id
    : '';
}

/** The summary row of a stored case row (a whole case record, as the device keeps it). */
export function caseSummaryRow(row: unknown, stamp: number): StoredCaseSummary {
  const id = rowId(row);
  const empty = {
    caseId: null,
    patientName: null,
    incidentType: null,
    status: 'in_progress' as const,
    completedAt: null,
    userId: null,
    responderName: null,
    responderCallSign: null,
  };
  const parsed = localSummarySchema.safeParse(row);
  if (!parsed.success) return { id, stamp, listed: false, unreadable: true, ...empty };
  const r = parsed.data;
  return {
    id: r.id,
    stamp,
    listed: (r.deletedAt === null || r.deletedAt === undefined) && r.caseId !== undefined,
    unreadable: false,
    caseId: r.caseId ?? null,
    patientName: r.patientName ?? null,
    incidentType: r.incidentType ?? null,
    status: r.status ?? 'in_progress',
    ...(r.createdAt ? { createdAt: r.createdAt } : {}),
    completedAt: r.completedAt ?? null,
    userId: r.userId ?? null,
    responderName: r.responderName ?? null,
    responderCallSign: r.responderCallSign ?? null,
  };
}

/** Whether the native transaction behind `trans` includes the summary table. */
function transactionHasSummaries(trans: DBCoreTransaction): boolean {
  const names = (trans as { objectStoreNames?: { contains(name: string): boolean } })
    .objectStoreNames;
  return names === undefined || names.contains(CASE_SUMMARY_TABLE);
}

/** Whether two summaries list the same (their stamps aside). */
function sameSummary(a: StoredCaseSummary, b: unknown): boolean {
  const parsed = storedCaseSummarySchema.safeParse(b);
  if (!parsed.success) return false;
  const o = parsed.data;
  return (
    a.id === o.id &&
    a.listed === o.listed &&
    a.unreadable === o.unreadable &&
    a.caseId === o.caseId &&
    a.patientName === o.patientName &&
    a.incidentType === o.incidentType &&
    a.status === o.status &&
    a.createdAt === o.createdAt &&
    a.completedAt === o.completedAt &&
    a.userId === o.userId &&
    a.responderName === o.responderName &&
    a.responderCallSign === o.responderCallSign
  );
}

/** One case row put at a time (a save): its old summary is read to skip an unchanged one. */
const COMPARE_UP_TO = 1;

/**
 * Writes the summaries of a cases mutation. Its reads (the version row, and for a single
 * put the case's current summary) are sent together with the case write itself, and the
 * summaries and the new version go in one write: two round trips to IndexedDB instead of
 * four. A put that changes no list field (most autosaves of a case being documented) writes
 * nothing here: readers keep the same list at the same version.
 */
async function mirrored(
  table: DBCoreTable,
  summaries: DBCoreTable,
  req: DBCoreMutateRequest,
): Promise<DBCoreMutateResponse> {
  if (!transactionHasSummaries(req.trans)) return table.mutate(req);
  const puts = req.type === 'add' || req.type === 'put' ? req.values : [];
  const compare = puts.length > 0 && puts.length <= COMPARE_UP_TO;
  const failed = Symbol('failed');
  const quiet = <T>(p: Promise<T>): Promise<T | typeof failed> => p.catch(() => failed);
  const [res, versionRow, previous] = await Promise.all([
    table.mutate(req),
    quiet(summaries.get({ trans: req.trans, key: SUMMARY_VERSION_ID })),
    compare
      ? quiet(summaries.getMany({ trans: req.trans, keys: puts.map(rowId) }))
      : Promise.resolve(failed),
  ]);
  // Without the version the summaries cannot be stamped: left as they are (a gap readers
  // notice and rebuild), never stamped with a version that went back.
  if (versionRow === failed) return res;
  try {
    const current = summaryVersionSchema.safeParse(versionRow);
    const stamp = (current.success ? current.data.stamp : 0) + 1;
    switch (req.type) {
      case 'add':
      case 'put': {
        const values = puts.flatMap((v: unknown, i) => {
          if (i in res.failures) return [];
          const row = caseSummaryRow(v, stamp);
          const before: unknown = previous === failed ? undefined : previous[i];
          return before !== undefined && sameSummary(row, before) ? [] : [row];
        });
        if (values.length === 0) return res;
        await summaries.mutate({
          type: 'put',
          trans: req.trans,
          values: [...values, { id: SUMMARY_VERSION_ID, stamp }],
        });
        break;
      }
      case 'delete':
        await summaries.mutate({ type: 'delete', trans: req.trans, keys: req.keys });
        await summaries.mutate({
          type: 'put',
          trans: req.trans,
          values: [{ id: SUMMARY_VERSION_ID, stamp }],
        });
        break;
      case 'deleteRange':
        await summaries.mutate({ type: 'deleteRange', trans: req.trans, range: req.range });
        await summaries.mutate({
          type: 'put',
          trans: req.trans,
          values: [{ id: SUMMARY_VERSION_ID, stamp }],
        });
        break;
    }
  } catch {
    // Never fail a case save for its list copy: readers notice the gap (counts differ) and
    // rebuild the copy from the cases.
  }
  return res;
}

/** The middleware SyncDatabase installs (see the file comment). */
export const caseSummaryMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'CaseSummaries',
  create(down) {
    const hasTable = down.schema.tables.some((t) => t.name === CASE_SUMMARY_TABLE);
    if (!hasTable) return {};
    return {
      // Every read-write transaction over cases also covers their summaries.
      transaction(stores, mode, options) {
        const scope =
          mode === 'readwrite' && stores.includes('cases') && !stores.includes(CASE_SUMMARY_TABLE)
            ? [...stores, CASE_SUMMARY_TABLE]
            : stores;
        return down.transaction(scope, mode, options);
      },
      table(name) {
        const table = down.table(name);
        if (name !== 'cases') return table;
        const summaries = down.table(CASE_SUMMARY_TABLE);
        return {
          ...table,
          mutate: (req) => mirrored(table, summaries, req),
        };
      },
    };
  },
};
