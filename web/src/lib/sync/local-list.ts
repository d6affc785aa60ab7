// One read of a list of records of any kind from the device's database: the whole store or
// an index range, rows parsed with the kind's local schema, sorted and cut to a page. The
// live hook (useLocalList, use-local-records.ts) runs it inside a Dexie live query; tests
// run it as it is. Decision 058 gives the shape and its limits:
// - IndexedDB keys are strings, numbers and dates, never booleans: a row whose field holds
//   a boolean is not in that field's index at all. `equals: true | false` therefore reads
//   the store and compares the field after parsing (no 0/1 mapping: rows are stored as the
//   mutators write them, and a second spelling of a value would have to be kept everywhere).
// - Sorting and paging happen after the read, in memory, so a row without the sort field is
//   listed last instead of missing (an index leaves such rows out). Stores of thousands of
//   large rows keep a summary store for their list instead (cases: decision 009).
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import type { Collection, Table } from 'dexie';

/** What an index can be matched on (booleans: see the file comment). */
export type IndexValue = string | number;
export type MatchValue = IndexValue | boolean;

/** Field names of a record type (typed from the kind's schema). */
export type FieldOf<R> = Extract<keyof R, string>;

export interface LocalListQuery<R = Row> {
  /** An index the kind declares (its definition's `device.indexes`); the whole store when
   * omitted. The field is typed from the schema; that it is an index is checked when read. */
  where?: FieldOf<R>;
  /** Rows whose `where` field is this value. */
  equals?: MatchValue;
  /** Rows whose `where` field lies in this range, both ends included. */
  between?: readonly [IndexValue, IndexValue];
  /** Rows whose `where` field is above (after) this value, exclusive. */
  above?: IndexValue;
  /** Rows whose `where` field is below (before) this value, exclusive. */
  below?: IndexValue;
  /** Order by this field (rows without it come last); store order when omitted. */
  sortBy?: FieldOf<R>;
  /** Default 'asc'. Lists of things that happened use 'desc' (newest first). */
  direction?: 'asc' | 'desc';
  /** Skip this many rows of the sorted (and filtered) list. */
  offset?: number;
  /** At most this many rows (after `offset`). */
  limit?: number;
  /** Keep tombstoned rows (default: left out). */
  includeDeleted?: boolean;
}

/** A row the kind's schema refused: counted and named, never silently dropped. */
export interface UnreadableRow {
  id: string;
  message: string;
}

export interface LocalList<T> {
  /** The page asked for. */
  records: T[];
  /** How many rows matched, before offset and limit. */
  total: number;
  /** Matching rows (by the index) that no longer parse. */
  unreadable: UnreadableRow[];
}

/** The plain field names of a Dexie index spec ('caseId, &code, *tags, [a+b]' → caseId, code, tags). */
export function indexNames(spec: string): string[] {
  return spec
    .split(',')
    .map((part) => part.trim().replace(/^(\+\+|&|\*)/, ''))
    .filter((name) => name !== '' && !name.startsWith('['));
}

/** Throws a clear error unless `field` is an index the kind declares. */
export function assertIndex(registry: Registry, kind: string, field: string): void {
  const declared = indexNames(registry.get(kind).device.indexes);
  if (field === 'id' || declared.includes(field)) return;
  throw new Error(
    `useLocalList: "${field}" is not an index of ${kind} (its device indexes: ${
      declared.join(', ') || 'none'
    }). Declare it in the definition's device.indexes, or filter the rows on the screen.`,
  );
}

function rangeOf<R>(
  table: Table,
  q: LocalListQuery<R>,
): Collection | { booleanField: string; value: boolean } {
  if (q.where === undefined) return table.toCollection();
  const clause = table.where(q.where);
  if (typeof q.equals === 'boolean') return { booleanField: q.where, value: q.equals };
  if (q.equals !== undefined) return clause.equals(q.equals);
  if (q.between) return clause.between(q.between[0], q.between[1], true, true);
  if (q.above !== undefined && q.below !== undefined)
    return clause.between(q.above, q.below, false, false);
  if (q.above !== undefined) return clause.above(q.above);
  if (q.below !== undefined) return clause.below(q.below);
  // An index named with no value: every row that has the field.
  return table.orderBy(q.where);
}

/** The fields of a kind whose schema is an object (null: cannot tell). */
function fieldNames(registry: Registry, kind: string): string[] | null {
  const shape = (registry.get(kind).record as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : null;
}

/** Orders any two field values: absent last, then numbers, strings, booleans by value. */
function compareValues(a: unknown, b: unknown): number {
  const absentA = a === undefined || a === null;
  const absentB = b === undefined || b === null;
  if (absentA || absentB) return absentA === absentB ? 0 : absentA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The order of `field` (absent values last whatever the direction), ties by id: stable. */
export function compareBy<T extends { id: string }>(
  field: string,
  direction: 'asc' | 'desc',
): (x: T, y: T) => number {
  const sign = direction === 'desc' ? -1 : 1;
  const absent = (v: unknown) => v === undefined || v === null;
  return (x, y) => {
    const a = (x as Record<string, unknown>)[field];
    const b = (y as Record<string, unknown>)[field];
    if (absent(a) || absent(b)) return compareValues(a, b) || compareValues(x.id, y.id);
    return sign * compareValues(a, b) || compareValues(x.id, y.id);
  };
}

/** The matching rows of a kind, parsed and sorted, before paging. */
export async function readLocalRows<R extends Row>(
  db: Pick<SyncDatabase, 'records' | 'registry'>,
  kind: string,
  query: LocalListQuery<LocalRecord<R>> = {},
): Promise<{ records: LocalRecord<R>[]; unreadable: UnreadableRow[] }> {
  const { registry } = db;
  if (query.where !== undefined) assertIndex(registry, kind, query.where);
  const fields = fieldNames(registry, kind);
  if (query.sortBy !== undefined && fields !== null && !fields.includes(query.sortBy))
    throw new Error(`useLocalList: ${kind} has no field "${query.sortBy}" to sort by.`);
  const table = db.records(kind);
  const range = rangeOf(table, query);
  const rows: unknown[] = 'booleanField' in range ? await table.toArray() : await range.toArray();
  const schema = registry.localSchema(kind);
  const records: LocalRecord<R>[] = [];
  const unreadable: UnreadableRow[] = [];
  for (const row of rows) {
    const deleted = (row as { deletedAt?: unknown }).deletedAt;
    if (!query.includeDeleted && deleted !== null && deleted !== undefined) continue;
    const parsed = schema.safeParse(row);
    if (!parsed.success) {
      const id = (row as { id?: unknown }).id;
      unreadable.push({
        id: typeof id === 'string' ? id : '',
        message: parsed.error.issues[0]?.message ?? 'Invalid data',
      });
      continue;
    }
    const record = parsed.data as LocalRecord<R>;
    if ('booleanField' in range && (record as Row)[range.booleanField] !== range.value) continue;
    records.push(record);
  }
  if (query.sortBy !== undefined) records.sort(compareBy(query.sortBy, query.direction ?? 'asc'));
  return { records, unreadable };
}

/** A page of already sorted rows. */
export function pageOf<T>(
  records: readonly T[],
  offset: number | undefined,
  limit: number | undefined,
): T[] {
  const start = Math.max(0, offset ?? 0);
  return records.slice(start, limit === undefined ? undefined : start + Math.max(0, limit));
}

/** `readLocalRows` cut to the query's page: what useLocalList returns. */
export async function readLocalList<R extends Row>(
  db: Pick<SyncDatabase, 'records' | 'registry'>,
  kind: string,
  query: LocalListQuery<LocalRecord<R>> = {},
): Promise<LocalList<LocalRecord<R>>> {
  const { records, unreadable } = await readLocalRows<R>(db, kind, query);
  return {
    records: pageOf(records, query.offset, query.limit),
    total: records.length,
    unreadable,
  };
}
