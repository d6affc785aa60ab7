// Synced rows as the wire carries them, built by the database (issue 12). A pull page, the
// records a push answers with and the rows a mutator reads are JSON made in SQL: the server
// never turns a wide row into JavaScript values and back (a case has ~190 columns; parsing
// them was most of a pull's time). The shape is the one the contract defines:
// - the keys are the kind's record schema (the registry), each read from the column the
//   driver would name it (CamelCasePlugin: `case_id` -> `caseId`);
// - each value is written as the drivers hand it to JavaScript (db/src/type-parsers.ts) and
//   as toWireRecord sends it: timestamps as `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC, milliseconds
//   truncated), bigint as a decimal string, numeric as a number for the kind's
//   `numericColumns` and as its exact text otherwise, date as its text, jsonb as JSON;
// - a change is `{ entity, id, version, deleted, data }`, data null for a tombstone; a pull
//   page for protocol 2 and later writes `values` (the record's values in its keys' order)
//   instead of `data`, and each kind's keys once (decision 051).
// The column types come from the catalog (read once per database and table).
// api/test/sync-wire-sql.test.ts proves, on both databases, that this is exactly what the
// JavaScript mapping (toWireRecord) makes of the same rows and that pullResponseSchema and
// each kind's record schema accept it.
import { CamelCasePlugin, sql, type OperationNodeSource, type RawBuilder } from 'kysely';
import { z } from 'zod';
import type { DbExecutor } from '@rescuelog/db/schema';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import { PULL_ROW_CHUNK } from '@rescuelog/sync-protocol/platform/push-pull';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';

/** The mapping the database connection applies to result columns (db/src/connect.ts). */
class ColumnNames extends CamelCasePlugin {
  keyOf(column: string): string {
    return this.camelCase(column);
  }
}
const columnNames = new ColumnNames();

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

interface CatalogColumn {
  column: string;
  type: string;
  generated: boolean;
}

interface CatalogTable {
  columns: CatalogColumn[];
  /** The functions of the table's own (not constraint) triggers. */
  triggers: string[];
}

/** The triggers every synced table has (db/src/synced-table.ts): version and updated_at. */
const SYNC_TRIGGERS = new Set(['sync_assign_version', 'touch_updated_at']);

/** Column types written as they are; any other type not handled in valueSql fails the request
 * that reads it, with its name (never a guessed value). */
const AS_IS = new Set([
  'uuid',
  'text',
  'character varying',
  'character',
  'integer',
  'smallint',
  'boolean',
  'jsonb',
  'json',
  'double precision',
  'real',
  'text[]',
  'integer[]',
]);

/**
 * A timestamptz as JavaScript's toISOString writes the Date the driver makes of it. Only years
 * 1900-9999 can be stored through the protocol (timestampSchema, decision 057; PostgreSQL
 * refuses toISOString's extended years), and there the two agree, to the millisecond (both
 * truncate the microseconds). One to_char per value: a guard for other years made the
 * statement several times longer to plan.
 */
function isoTimestamp(ref: string): string {
  return `to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function valueSql(def: RecordDefinition, key: string, column: CatalogColumn, ref: string): string {
  const { type } = column;
  if (type === 'timestamp with time zone') return isoTimestamp(ref);
  if (type === 'bigint' || type === 'date') return `${ref}::text`;
  if (type === 'numeric') return def.numericColumns?.includes(key) ? ref : `${ref}::text`;
  if (AS_IS.has(type)) return ref;
  throw new Error(
    `${def.sqlTable}.${column.column} has type ${type}, which the sync wire shape (wire-sql.ts) does not write`,
  );
}

/** One kind's wire shape, ready to be put into SQL. */
export interface WireShape {
  def: RecordDefinition;
  /** `<value> as "<key>", …` of the row aliased `t` (the record's fields). */
  fields: string;
  /** The same, one field at a time. */
  field: ReadonlyMap<string, string>;
  /** The record's keys, in the order of `values`. */
  keys: readonly string[];
  /** The record's values in the order of `keys`, as a JSON array of chunks of at most
   * PULL_ROW_CHUNK (a rows page, push-pull.ts pullRowsResponseSchema; decision 051). */
  values: string;
  /**
   * An update changes nothing but the columns it sets, `version` and `updatedAt` (the sync
   * triggers; no trigger of its own, no generated column): what it returns can be only those.
   */
  plainUpdates: boolean;
  /** Whether the table keeps field versions (last-write-wins kinds). */
  fieldVersions: boolean;
  /** Whether the ids are uuids (made on the device), which a push may look up by any uuid. */
  uuidIds: boolean;
  /** Every column of the table by the key the engine names it (`caseId`): its name and type. */
  columns: ReadonlyMap<string, { column: string; type: string }>;
}

function recordKeys(def: RecordDefinition): string[] {
  const record: unknown = def.record;
  if (!(record instanceof z.ZodObject))
    throw new Error(`${def.kind}: the record schema must be an object for the sync wire shape`);
  return Object.keys(record.shape);
}

function buildShape(def: RecordDefinition, table: CatalogTable): WireShape {
  const byKey = new Map(table.columns.map((c) => [columnNames.keyOf(c.column), c]));
  const field = new Map<string, string>();
  const values: string[] = [];
  const keys = recordKeys(def);
  for (const key of keys) {
    const column = byKey.get(key);
    if (!column)
      throw new Error(`${def.kind}.${key}: the table ${def.sqlTable} has no column for this field`);
    const value = valueSql(def, key, column, `t.${quoteIdent(column.column)}`);
    values.push(value);
    field.set(key, `${value} as ${quoteIdent(key)}`);
  }
  const chunks: string[] = [];
  for (let at = 0; at < values.length; at += PULL_ROW_CHUNK)
    chunks.push(`json_build_array(${values.slice(at, at + PULL_ROW_CHUNK).join(', ')})`);
  return {
    def,
    fields: [...field.values()].join(', '),
    field,
    keys,
    values: `json_build_array(${chunks.join(', ')})`,
    plainUpdates:
      table.columns.every((c) => !c.generated) &&
      table.triggers.every((fn) => SYNC_TRIGGERS.has(fn)),
    fieldVersions: table.columns.some((c) => c.column === 'field_versions'),
    uuidIds: table.columns.some((c) => c.column === 'id' && c.type === 'uuid'),
    columns: new Map(
      table.columns.map((c) => [columnNames.keyOf(c.column), { column: c.column, type: c.type }]),
    ),
  };
}

/** Column types and triggers per database (the root Kysely instance) and table, read once;
 * and the shapes built from them, per kind's definition. */
const catalogs = new WeakMap<object, Map<string, CatalogTable>>();
const built = new WeakMap<object, WeakMap<RecordDefinition, WireShape>>();

async function readCatalog(
  db: DbExecutor,
  tables: readonly string[],
): Promise<Map<string, CatalogTable>> {
  const names = sql.join(tables.map((t) => sql`${t}`));
  const { rows } = await sql<{ table: string; column: string; type: string; generated: boolean }>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, null) as type,
      a.attgenerated <> '' as generated
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relname in (${names}) and c.relkind in ('r', 'p') and pg_table_is_visible(c.oid)
      and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`.execute(db);
  const triggers = await sql<{ table: string; fn: string }>`
    select c.relname as table, p.proname as fn
    from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_proc p on p.oid = tg.tgfoid
    where c.relname in (${names}) and pg_table_is_visible(c.oid) and not tg.tgisinternal`.execute(
    db,
  );
  const out = new Map<string, CatalogTable>();
  for (const row of rows) {
    const entry = out.get(row.table) ?? { columns: [], triggers: [] };
    entry.columns.push({ column: row.column, type: row.type, generated: row.generated });
    out.set(row.table, entry);
  }
  for (const row of triggers.rows) out.get(row.table)?.triggers.push(row.fn);
  return out;
}

/** The wire shapes of these kinds on this database. Read with the database, not inside a
 * transaction on it (the embedded database has one connection). */
export async function wireShapes(
  db: DbExecutor,
  defs: readonly RecordDefinition[],
): Promise<Map<string, WireShape>> {
  let catalog = catalogs.get(db);
  if (!catalog) {
    catalog = new Map();
    catalogs.set(db, catalog);
  }
  const missing = [...new Set(defs.map((d) => d.sqlTable))].filter((t) => !catalog.has(t));
  if (missing.length > 0) {
    const read = await readCatalog(db, missing);
    for (const table of missing) {
      const found = read.get(table);
      if (!found) throw new Error(`The synced table ${table} does not exist`);
      catalog.set(table, found);
    }
  }
  let shapes = built.get(db);
  if (!shapes) {
    shapes = new WeakMap();
    built.set(db, shapes);
  }
  const cache = shapes;
  const shapeOf = (def: RecordDefinition): WireShape => {
    const cached = cache.get(def);
    if (cached) return cached;
    const table = catalog.get(def.sqlTable);
    if (!table) throw new Error(`The synced table ${def.sqlTable} does not exist`);
    const shape = buildShape(def, table);
    cache.set(def, shape);
    return shape;
  };
  return new Map(defs.map((def) => [def.kind, shapeOf(def)]));
}

/** Every kind of the registry (the server's reads need the kinds its mutators name). */
export function registryShapes(
  db: DbExecutor,
  registry: Registry,
): Promise<Map<string, WireShape>> {
  return wireShapes(db, registry.definitions);
}

/**
 * The rows `from` selects (a subquery of the kind's table, or the table) with their wire
 * record as JSON text: `record` (tombstones keep their data: what a mutator reads), the row's
 * `id` and `version` as text, `deleted`, and its field versions as JSON text (or null).
 * With `keys`, the record holds only those fields.
 */
export function recordRows(
  shape: WireShape,
  from: OperationNodeSource,
  keys?: readonly string[],
): RawBuilder<WireRow> {
  const fieldVersions = shape.fieldVersions ? sql.raw('t.field_versions::text') : sql`null::text`;
  const fields = keys
    ? keys.flatMap((key) => {
        const value = shape.field.get(key);
        return value === undefined ? [] : [value];
      })
    : [shape.fields];
  return sql<WireRow>`select t.id::text as id, t.version::text as version,
    t.deleted_at is not null as deleted, row_to_json(r)::text as record, ${fieldVersions} as field_versions
    from ${from} t cross join lateral (select ${sql.raw(fields.join(', '))}) r`;
}

export interface WireRow {
  id: string;
  version: string;
  deleted: boolean;
  record: string;
  fieldVersions: string | null;
}

/** How a pull page writes its records: objects (every protocol) or rows (protocol 2 and
 * later: the values only, the keys once per page; decision 051). */
export type ChangeForm = 'objects' | 'rows';

/**
 * The rows `from` selects as pull changes: `change` is the change's JSON (json type, for
 * json_agg), with `entity`, `id` and `version` beside it for ordering and the audit. As
 * objects, `data` is the record (pullResponseSchema); as rows, `values` are its values in the
 * order of the shape's `keys` (pullRowsResponseSchema). Null for a tombstone either way.
 */
export function changeRows(
  shape: WireShape,
  from: OperationNodeSource,
  form: ChangeForm = 'objects',
): RawBuilder<unknown> {
  const head = sql`select ${shape.def.kind}::text as entity, t.id::text as id, t.version,
    json_build_object('entity', ${shape.def.kind}::text, 'id', t.id::text,
      'version', t.version::text, 'deleted', t.deleted_at is not null,`;
  if (form === 'rows')
    return sql`${head} 'values', case when t.deleted_at is null then ${sql.raw(shape.values)} end) as change
    from ${from} t`;
  return sql`${head} 'data', case when t.deleted_at is null then row_to_json(r) end) as change
    from ${from} t cross join lateral (select ${sql.raw(shape.fields)}) r`;
}
