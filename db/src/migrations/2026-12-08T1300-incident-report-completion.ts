// Incident reports complete and lock (issue 41): when a report was completed, and its
// corrections as addenda (reason, author, each field before and after), like a case's.
import { sql, type Kysely } from 'kysely';
import { createSyncedTable } from '../synced-table';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('incident_reports').addColumn('completed_at', 'timestamptz').execute();
  await createSyncedTable(
    db,
    'incident_report_addenda',
    { lww: false, parent: { column: 'incident_report_id', table: 'incident_reports' } },
    (t) =>
      t
        .addColumn('reason', 'text', (c) => c.notNull())
        // [{ field, before, after }]
        .addColumn('changes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('author_name', 'text')
        .addColumn('author_call_sign', 'text'),
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('incident_report_addenda').execute();
  await db.schema.alterTable('incident_reports').dropColumn('completed_at').execute();
}
