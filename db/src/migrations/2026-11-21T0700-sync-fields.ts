// Per-field versions for last-write-wins records: field_versions holds
// { field: { version, by } } — the sync_version_seq value of the field's last write and the
// user who wrote it. The push handler compares it with a mutation's base version to tell a
// concurrent write by another person (kept in sync_conflicts) from an ordinary update.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const tables = [
  'cases',
  'cpr_sessions',
  'incident_reports',
  'mci_incidents',
  'mci_casualties',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) {
    await db.schema
      .alterTable(table)
      .addColumn('field_versions', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .execute();
  }
  // The rejected-changes inbox and the administrators' view look rejections up by mutation.
  await db.schema
    .createIndex('sync_rejections_mutation_idx')
    .on('sync_rejections')
    .column('mutation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sync_rejections_mutation_idx').execute();
  for (const table of [...tables].reverse()) {
    await db.schema.alterTable(table).dropColumn('field_versions').execute();
  }
}
