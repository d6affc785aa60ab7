// CPR logger (issue 39): how a session ended and the Utstein facts known from bystanders,
// and the index the CPR Logs list pages through (newest start first).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('cpr_sessions')
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('rosc', 'terminated')`))
    .addColumn('witnessed', 'boolean')
    .addColumn('bystander_cpr', 'boolean')
    .execute();
  await db.schema
    .createIndex('cpr_sessions_start_time_idx')
    .on('cpr_sessions')
    .columns(['start_time desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cpr_sessions_start_time_idx').execute();
  await db.schema
    .alterTable('cpr_sessions')
    .dropColumn('outcome')
    .dropColumn('witnessed')
    .dropColumn('bystander_cpr')
    .execute();
}
