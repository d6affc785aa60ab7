// The Kysely table types of the synced kinds (db/src/schema.ts) checked against their one
// definition (sync-protocol) by the compiler: db may not import sync-protocol, so the check
// lives here, where both are seen (decision 056). For every kind of APP_RECORDS and the
// conflicts: its `table` is a table of Database and a synced one (id, version, updatedAt,
// deletedAt: a non-synced table of that name, such as medicalInventory, is in the way), every
// field of its record is a column and every column (but fieldVersions) a field, and each
// column takes the field's value as the wire carries it (timestamps as ISO strings, numeric
// columns as numbers) with the same nullability. A mismatch fails `typecheck` with a sentence
// naming the kind, the table and the field.
import type { Selectable } from 'kysely';
import type { Database, PlatformTable } from '@rescuelog/db/schema';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type {
  Definitions,
  RecordOf,
  RegisteredOf,
} from '@rescuelog/sync-protocol/platform/record-types';
import type { APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';

/** A column's selected value as the wire carries it. */
type WireValue<V, Numeric extends boolean> = V extends Date
  ? string
  : V extends string
    ? Numeric extends true
      ? number
      : V
    : V;

type Numerics<D extends RecordDefinition> = D['numericColumns'] extends readonly (infer C)[]
  ? C
  : never;

/** Columns the server keeps beside the record (never on the wire). */
type ServerOnly = 'fieldVersions';

type SyncedColumns = { id: string; version: string; updatedAt: Date; deletedAt: Date | null };

type Nullable<T> = null extends T ? true : false;

type FieldProblems<D extends RecordDefinition, Row> = {
  [K in keyof RecordOf<D> & string]: K extends keyof Row
    ? [Nullable<RecordOf<D>[K]>] extends [Nullable<Row[K]>]
      ? [RecordOf<D>[K]] extends [WireValue<Row[K], K extends Numerics<D> ? true : false>]
        ? never
        : `${D['kind']}.${K}: the column ${D['table']}.${K} does not take the record's value (db/src/schema.ts)`
      : `${D['kind']}.${K}: the record and the column ${D['table']}.${K} differ in whether it may be null`
    : `${D['kind']}.${K}: the table ${D['table']} has no column for this field (db/src/schema.ts)`;
}[keyof RecordOf<D> & string];

type ColumnProblems<D extends RecordDefinition, Row> = {
  [K in Exclude<keyof Row & string, ServerOnly>]: K extends keyof RecordOf<D>
    ? never
    : `${D['kind']}: the column ${D['table']}.${K} is no field of its record`;
}[Exclude<keyof Row & string, ServerOnly>];

/** Each kind on its own (distributed over a union of definitions). */
type KindProblems<D extends RecordDefinition, DB> = D extends RecordDefinition
  ? TableProblems<D, DB>
  : never;

type TableProblems<D extends RecordDefinition, DB> = D['table'] extends keyof DB
  ? Selectable<DB[D['table']]> extends SyncedColumns
    ? FieldProblems<D, Selectable<DB[D['table']]>> | ColumnProblems<D, Selectable<DB[D['table']]>>
    : `${D['kind']}: Database['${D['table']}'] is not a synced table (no uuid id, version, updatedAt and deletedAt): another table of that name is in the way`
  : `${D['kind']}: Database has no table '${D['table']}' (add its table type to db/src/schema.ts)`;

/** Every problem between a registry's definitions and a database's table types (never: none). */
export type TableProblemsOf<L extends Definitions, DB> =
  KindProblems<RegisteredOf<L>, DB> | UnclaimedTables<L, DB>;

/** A table of Database that is neither the platform's (PLATFORM_TABLES) nor a kind's. */
type UnclaimedTables<L extends Definitions, DB> = {
  [
    T in Exclude<keyof DB & string, PlatformTable | RegisteredOf<L>['table']>
  ]: `Database['${T}'] is neither in PLATFORM_TABLES (db/src/schema.ts) nor the table of a registered kind`;
}[Exclude<keyof DB & string, PlatformTable | RegisteredOf<L>['table']>];

/**
 * `true` only when there is no problem; otherwise the problems themselves, so the compiler's
 * error ("Type 'true' is not assignable to type ...") lists each one.
 */
// (Written out, not as an alias: the compiler names an alias instead of listing its members.)
export const appTablesMatchTheirDefinitions: [
  TableProblemsOf<typeof APP_RECORDS, Database>,
] extends [never]
  ? true
  : `${TableProblemsOf<typeof APP_RECORDS, Database>}` = true;
