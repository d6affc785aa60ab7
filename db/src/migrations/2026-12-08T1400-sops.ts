// Internal SOPs (issue 42, decision 080): two append-only synced kinds. sop_versions holds
// every published version of an SOP (sop_id groups them; revision counts from 1, the server
// numbering each new one); sop_acknowledgements a member's "read and understood" of one
// version (one per member and version: the mutator refuses a second).
import type { Kysely } from 'kysely';
import { createSyncedTable } from '../synced-table';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createSyncedTable(db, 'sop_versions', { lww: false }, (t) =>
    t
      .addColumn('sop_id', 'uuid', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull()),
  );
  await db.schema.createIndex('sop_versions_sop_idx').on('sop_versions').column('sop_id').execute();
  await createSyncedTable(db, 'sop_acknowledgements', { lww: false }, (t) =>
    t
      .addColumn('sop_version_id', 'uuid', (c) => c.notNull().references('sop_versions.id'))
      .addColumn('sop_id', 'uuid', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull()),
  );
  await db.schema
    .createIndex('sop_acknowledgements_of_version_idx')
    .on('sop_acknowledgements')
    .columns(['sop_version_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('sop_acknowledgements_sop_idx')
    .on('sop_acknowledgements')
    .column('sop_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sop_acknowledgements').execute();
  await db.schema.dropTable('sop_versions').execute();
}
