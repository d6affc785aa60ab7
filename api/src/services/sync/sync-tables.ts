// How synced records map to tables, and how values cross between the database and the
// wire. The sync engine treats every kind alike, through its definition in the registry and
// one dynamically typed view of the database; every value written has been validated by the
// kind's mutator schema first.
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Database, DbExecutor } from '@rescuelog/db/schema';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';

export type Row = Record<string, unknown>;
type DynamicDatabase = Record<string, Row>;

/** The database as the generic engine sees it: any synced table, rows as records. */
export function dynamic(db: DbExecutor): Kysely<DynamicDatabase> | Transaction<DynamicDatabase> {
  return db as unknown as Kysely<DynamicDatabase>;
}

/** A condition on a synced table's rows (camelCase columns, as the rest of the engine). */
export type RowCondition = (eb: ExpressionBuilder<DynamicDatabase, string>) => Expression<SqlBool>;

/** { field: { version, by } }: the version of each field's last write and its author. */
export type FieldVersions = Record<string, { version: string; by: number }>;

export function readFieldVersions(row: Row): FieldVersions {
  const value = row.fieldVersions;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as FieldVersions)
    : {};
}

type Columns = Pick<RecordDefinition, 'numericColumns'>;

/** A column's value as the wire carries it: timestamps as ISO strings, numeric as numbers. */
export function toWireValue(def: Columns, column: string, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && def.numericColumns?.includes(column)) return Number(value);
  return value;
}

/** A row as pull sends it: wire values, version as a decimal string, no bookkeeping columns. */
export function toWireRecord(def: Columns, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'fieldVersions') continue;
    out[column] = column === 'version' ? String(value) : toWireValue(def, column, value);
  }
  return out;
}

/** jsonb columns take JSON text (see db/src/schema.ts: pg would send a JS array as a PostgreSQL array). */
export function toDbValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !(value instanceof Date))
    return JSON.stringify(value);
  return value;
}

export function toDbValues(values: Record<string, unknown>): Row {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, toDbValue(v)]));
}

/**
 * Every write to a synced table happens under this transaction-scoped lock, so versions
 * (sync_version_seq, assigned by trigger) become visible in the order they were taken: a
 * pull snapshot then always sees a prefix of the version sequence and its cursor can never
 * skip a change committed later with a smaller version. Any code that writes a synced
 * table outside the sync routes must take it too.
 */
export const SYNC_WRITE_LOCK_KEY = 7_447_001;

export async function lockSyncWrites(tx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${SYNC_WRITE_LOCK_KEY})`.execute(tx);
}

/** Versions taken ahead for one transaction (reserveVersions), handed out in ascending order. */
const reservedVersions = new WeakMap<Transaction<Database>, string[]>();

/**
 * Takes `count` values of the version sequence in one statement, for a push that will need
 * about that many field versions (one per applied write): one read for the batch instead of
 * one per mutation. Only under the sync write lock, which makes this safe: every value is
 * above every version a device could have pulled before this transaction commits, and below
 * the row versions the trigger assigns later in it, so a device that pulled the written row
 * has a base version at or above the field's version and one that did not has one below it
 * (the only comparison field versions take part in). Values left unused are skipped numbers,
 * as after a rolled-back nextval; cursors never need the sequence to be dense.
 */
export async function reserveVersions(tx: Transaction<Database>, count: number): Promise<void> {
  const { rows } = await sql<{
    v: string;
  }>`select nextval('sync_version_seq')::text as v from generate_series(1, ${count}::int)`.execute(
    tx,
  );
  const values = rows
    .map((row) => BigInt(row.v))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map(String);
  reservedVersions.set(tx, [...(reservedVersions.get(tx) ?? []), ...values]);
}

/** Takes the next value of the version sequence (for field versions written with a row). */
export async function nextVersion(tx: Transaction<Database>): Promise<string> {
  const reserved = reservedVersions.get(tx)?.shift();
  if (reserved !== undefined) return reserved;
  const { rows } = await sql<{ v: string }>`select nextval('sync_version_seq')::text as v`.execute(
    tx,
  );
  const v = rows[0]?.v;
  if (v === undefined) throw new Error('sync_version_seq returned no value');
  return v;
}
