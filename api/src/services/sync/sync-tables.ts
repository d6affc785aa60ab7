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

// With the kind: a definition without numeric columns still has a property in common.
type Columns = Pick<RecordDefinition, 'kind' | 'numericColumns'>;

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
 * The pull cursor's safe horizon (decision 033). Versions come from one sequence
 * (sync_version_seq, assigned by trigger) and sync writes run concurrently, so they may commit
 * out of version order: a pull that returned a version while a smaller one was still in flight
 * would move its cursor past a change that commits later. So every transaction that writes a
 * synced table first takes a ticket (beginSyncWrite): a value of the sequence, held as a
 * transaction-scoped advisory lock keyed by it until it commits or rolls back. It takes no
 * version before its ticket, so all of its versions are above it. A pull (syncHorizon) returns
 * only versions below the lowest ticket still held, and below every value handed out before
 * it looked at the tickets. Tickets never wait for one another (each key is new).
 */
export const TICKET_BASE = 1n << 40n;

/** Takes the transaction's ticket: call before the first statement that takes a version. */
export async function beginSyncWrite(tx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(nextval('sync_version_seq') + ${String(TICKET_BASE)}::bigint)`.execute(
    tx,
  );
}

/**
 * The versions a pull may return now: those below this. Read before the pull's snapshot, in
 * this order: (1) the last value the sequence handed out, then (2) the tickets held. A write
 * whose ticket is seen holds the horizon below all of its versions; a write that took its
 * ticket after (2) takes its versions after (1), so above it; any other write has committed
 * before (2) (a ticket is released after its transaction becomes visible), so the pull's
 * snapshot, taken later, holds it. Either way nothing below the horizon can still appear.
 * The sequence must hand out values one at a time (no CACHE above 1).
 * One round trip: the database function sync_horizon (migration 2026-11-26T1500-sync-horizon)
 * makes the two reads as two plpgsql statements, in that order (one SQL statement would not
 * order them). Run it on its own, outside a transaction, as the pull does: inside a REPEATABLE
 * READ transaction its statement's start would be the snapshot, before (1) and (2); the pull's
 * page is a statement of its own, whose snapshot is taken after this one returns.
 */
export async function syncHorizon(db: DbExecutor): Promise<bigint> {
  const { rows } = await sql<{
    below: string;
  }>`select sync_horizon(${String(TICKET_BASE)}::bigint)::text as below`.execute(db);
  const below = rows[0]?.below;
  if (below === undefined) throw new Error('sync_horizon returned no row');
  return BigInt(below);
}

/** Versions taken ahead for one transaction (reserveVersions), handed out in ascending order. */
const reservedVersions = new WeakMap<Transaction<Database>, string[]>();

/**
 * Takes `count` values of the version sequence in one statement, for a push that will need
 * about that many field versions (one per applied write): one read for the batch instead of
 * one per mutation. Only after the transaction's ticket (beginSyncWrite), and after the rows
 * the values will be written to are locked: then every value is above the version any device
 * can hold of those rows (nothing else can write them until this transaction commits) and
 * below the row versions the trigger assigns later in it, so a device that pulled the written
 * row has a base version at or above the field's version and one that did not has one below
 * it (the only comparison field versions take part in). nextVersion's `above` keeps that true
 * for a row locked after the values were taken. Values left unused are skipped numbers, as
 * after a rolled-back nextval; cursors never need the sequence to be dense.
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

/**
 * beginSyncWrite and reserveVersions(count) in one statement (one round trip for a push).
 * The ticket is taken and locked in a CTE the versions are joined to: every row of the join
 * needs the ticket's row first, so each version's nextval comes after the ticket's and is
 * above it (checked below). With `count` 0 it only takes the ticket.
 */
export async function beginSyncWriteReserving(
  tx: Transaction<Database>,
  count: number,
): Promise<void> {
  const { rows } = await sql<{ ticket: string; v: string | null }>`
    with ticket as materialized (select nextval('sync_version_seq') as t),
    held as materialized (
      select t, pg_advisory_xact_lock(t + ${String(TICKET_BASE)}::bigint) from ticket
    )
    select held.t::text as ticket, case when g > 0 then nextval('sync_version_seq')::text end as v
    from held cross join generate_series(0, ${count}::int) g`.execute(tx);
  const ticket = rows[0]?.ticket;
  if (ticket === undefined) throw new Error('The sync write ticket was not taken');
  const values = rows.flatMap((row) => (row.v === null ? [] : [BigInt(row.v)]));
  if (values.some((v) => v <= BigInt(ticket)))
    throw new Error('A version was taken before the sync write ticket');
  values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  reservedVersions.set(tx, [...(reservedVersions.get(tx) ?? []), ...values.map(String)]);
}

/**
 * The next value of the version sequence (for field versions written with a row): a reserved
 * one when there is one above `above` (the locked row's current version), else a new one.
 */
export async function nextVersion(tx: Transaction<Database>, above?: string): Promise<string> {
  const reserved = reservedVersions.get(tx);
  const floor = above === undefined ? undefined : BigInt(above);
  while (reserved && reserved.length > 0) {
    const value = reserved.shift() as string;
    if (floor === undefined || BigInt(value) > floor) return value;
  }
  const { rows } = await sql<{ v: string }>`select nextval('sync_version_seq')::text as v`.execute(
    tx,
  );
  const v = rows[0]?.v;
  if (v === undefined) throw new Error('sync_version_seq returned no value');
  return v;
}
