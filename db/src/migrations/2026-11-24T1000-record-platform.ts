// The record platform (docs/decisions/014, 015):
// - sync_conflicts become a synced kind: every device whose value was replaced (and every
//   person who may settle it) pulls its conflicts, so version, updated_at and deleted_at
//   with the usual triggers; the record's kind and both authors' names (as they were when
//   it happened) travel with it.
// - the mutation-id deduplication is scoped to the device (and so to its user): another
//   user's mutation with the same id is not "already applied" for this one.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { addSyncTriggers } from '../synced-table';

/** sync_conflicts.entity_type (a table name) to the record kind, for rows made before. */
const KIND_OF_TABLE: Record<string, string> = {
  cases: 'case',
  cpr_sessions: 'cprSession',
  incident_reports: 'incidentReport',
  mci_incidents: 'mciIncident',
  mci_casualties: 'mciCasualty',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sync_conflicts')
    .addColumn('record_kind', 'text')
    .addColumn('server_author_name', 'text')
    .addColumn('client_author_name', 'text')
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('sync_version_seq')`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  for (const [table, kind] of Object.entries(KIND_OF_TABLE))
    await sql`update sync_conflicts set record_kind = ${kind} where entity_type = ${table}`.execute(
      db,
    );
  await sql`update sync_conflicts c set
      server_author_name = (select full_name from users where id = c.server_author),
      client_author_name = (select full_name from users where id = c.client_author)`.execute(db);
  await sql`update sync_conflicts set record_kind = entity_type where record_kind is null`.execute(
    db,
  );
  await sql`alter table sync_conflicts alter column record_kind set not null`.execute(db);
  await addSyncTriggers(db, 'sync_conflicts');
  await db.schema
    .createIndex('sync_conflicts_record_kind_idx')
    .on('sync_conflicts')
    .columns(['record_kind', 'resolved_at'])
    .execute();

  await sql`alter table applied_mutations drop constraint applied_mutations_pkey`.execute(db);
  await sql`alter table applied_mutations add primary key (device_id, mutation_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applied_mutations drop constraint applied_mutations_pkey`.execute(db);
  await sql`alter table applied_mutations add primary key (mutation_id)`.execute(db);
  await db.schema.dropIndex('sync_conflicts_record_kind_idx').execute();
  await db.schema.dropIndex('sync_conflicts_version_idx').execute();
  await sql`drop trigger sync_conflicts_touch_updated_at on sync_conflicts`.execute(db);
  await sql`drop trigger sync_conflicts_assign_version on sync_conflicts`.execute(db);
  for (const column of [
    'deleted_at',
    'updated_at',
    'version',
    'client_author_name',
    'server_author_name',
    'record_kind',
  ])
    await db.schema.alterTable('sync_conflicts').dropColumn(column).execute();
}
