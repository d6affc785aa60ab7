// What every synced table has, for the migration of a new record kind: a uuid key made on
// the device, its owner and creation time, the version from the global sequence (assigned
// by trigger on every insert and update: the pull cursor), updated_at (kept by trigger),
// the tombstone, and for last-write-wins kinds the per-field versions. A new kind's
// migration is `createSyncedTable(db, 'field_notes', (t) => t.addColumn(...))` — nothing else.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

type Builder = CreateTableBuilder<string, never>;

export interface SyncedTableOptions {
  /** Per-field last write wins (field_versions). Append-only kinds leave it out. */
  lww: boolean;
  /** The parent a child row belongs to: column and table, indexed, on delete restrict. */
  parent?: { column: string; table: string };
}

export async function createSyncedTable(
  db: Kysely<unknown>,
  table: string,
  options: SyncedTableOptions,
  columns: (t: Builder) => Builder,
): Promise<void> {
  let t: Builder = db.schema
    .createTable(table)
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('sync_version_seq')`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz');
  if (options.lww)
    t = t.addColumn('field_versions', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`));
  if (options.parent) {
    const { column, table: parentTable } = options.parent;
    t = t.addColumn(column, 'uuid', (c) => c.notNull().references(`${parentTable}.id`));
  }
  await columns(t).execute();
  await addSyncTriggers(db, table);
  if (options.parent)
    await db.schema
      .createIndex(`${table}_${options.parent.column}_idx`)
      .on(table)
      .column(options.parent.column)
      .execute();
}

/** The version and updated_at triggers and the pull's version index of a synced table. */
export async function addSyncTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`create trigger ${sql.raw(`${table}_assign_version`)} before insert or update on ${sql.table(table)}
    for each row execute function sync_assign_version()`.execute(db);
  await sql`create trigger ${sql.raw(`${table}_touch_updated_at`)} before update on ${sql.table(table)}
    for each row execute function touch_updated_at()`.execute(db);
  await db.schema.createIndex(`${table}_version_idx`).on(table).column('version').execute();
}
