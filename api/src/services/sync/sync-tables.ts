// How synced entities map to tables, and how values cross between the database and the
// wire. The sync engine treats the eight tables alike, so it reaches them through one
// dynamically typed view of the database; every value written has been validated by the
// sync-protocol mutation schemas first.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, DbExecutor, JsonValue } from '@rescuelog/db/schema';
import type { SyncEntity } from '@rescuelog/sync-protocol/sync/entities';

export const ENTITY_TABLE = {
  case: 'cases',
  vitalSign: 'vitalSigns',
  cprSession: 'cprSessions',
  cprEvent: 'cprEvents',
  incidentReport: 'incidentReports',
  mciIncident: 'mciIncidents',
  mciCasualty: 'mciCasualties',
  caseAddendum: 'caseAddenda',
} as const satisfies Record<SyncEntity, keyof Database>;
export type SyncTable = (typeof ENTITY_TABLE)[SyncEntity];

/** sync_conflicts.entity_type holds the SQL table name. */
export const CONFLICT_ENTITY_TYPE = {
  case: 'cases',
  cprSession: 'cpr_sessions',
  incidentReport: 'incident_reports',
  mciIncident: 'mci_incidents',
  mciCasualty: 'mci_casualties',
} as const;
export type LwwEntity = keyof typeof CONFLICT_ENTITY_TYPE;

export function entityOfConflictType(type: string): LwwEntity | undefined {
  const found = (Object.entries(CONFLICT_ENTITY_TYPE) as [LwwEntity, string][]).find(
    ([, t]) => t === type,
  );
  return found?.[0];
}

export type Row = Record<string, unknown>;
type DynamicDatabase = Record<string, Row>;

/** The database as the generic engine sees it: any synced table, rows as records. */
export function dynamic(db: DbExecutor): Kysely<DynamicDatabase> | Transaction<DynamicDatabase> {
  return db as unknown as Kysely<DynamicDatabase>;
}

/** { field: { version, by } }: the version of each field's last write and its author. */
export type FieldVersions = Record<string, { version: string; by: number }>;

export function readFieldVersions(row: Row): FieldVersions {
  const value = row.fieldVersions;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as FieldVersions)
    : {};
}

/** numeric columns: exact strings from the driver, numbers on the wire. */
const NUMERIC_COLUMNS = new Set([
  'incidentLatitude',
  'incidentLongitude',
  'capillaryRefillTime',
  'latitude',
  'longitude',
  'numericValue',
]);

export function toWireValue(column: string, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && NUMERIC_COLUMNS.has(column)) return Number(value);
  return value;
}

/** A row as pull sends it: wire values, version as a decimal string, no bookkeeping columns. */
export function toWireRecord(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'fieldVersions') continue;
    out[column] = column === 'version' ? String(value) : toWireValue(column, value);
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

/** JSON with sorted keys: jsonb reorders object keys, so equality must not depend on order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

export function asJson(value: unknown): JsonValue {
  return JSON.parse(canonicalJson(value)) as JsonValue;
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
