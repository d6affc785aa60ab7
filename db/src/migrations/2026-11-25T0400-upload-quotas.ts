// Upload quotas (docs/decisions/025): which client address spent an upload URL, when its PUT
// began, and how many bytes that PUT may still write while it runs (its reservation against
// the account, address and pending-accounts quotas; 0 once it has ended either way).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('client_ip', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('reserved_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // The quota sums read stored and in-progress uploads only; lapsed URLs are the bulk.
  await db.schema
    .createIndex('uploads_quota_idx')
    .on('uploads')
    .columns(['status', 'stored_at'])
    .where(sql.ref('status'), '=', 'stored')
    .execute();
  await db.schema
    .createIndex('uploads_client_ip_idx')
    .on('uploads')
    .columns(['client_ip', 'claimed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('uploads_client_ip_idx').execute();
  await db.schema.dropIndex('uploads_quota_idx').execute();
  await db.schema
    .alterTable('uploads')
    .dropColumn('reserved_bytes')
    .dropColumn('claimed_at')
    .dropColumn('client_ip')
    .execute();
}
