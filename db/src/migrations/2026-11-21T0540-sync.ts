// Sync bookkeeping: devices and their last applied mutation seq, idempotency records,
// rejected mutations and field-level conflicts kept for review.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('devices')
    .addColumn('device_id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('last_applied_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('devices_user_idx').on('devices').column('user_id').execute();

  await db.schema
    .createTable('applied_mutations')
    .addColumn('mutation_id', 'uuid', (c) => c.primaryKey())
    .addColumn('device_id', 'uuid', (c) => c.notNull().references('devices.device_id'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('applied_mutations_device_seq_idx')
    .on('applied_mutations')
    .columns(['device_id', 'seq'])
    .execute();

  await db.schema
    .createTable('sync_rejections')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('device_id', 'uuid', (c) => c.notNull().references('devices.device_id'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('mutation_id', 'uuid', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sync_rejections_device_idx')
    .on('sync_rejections')
    .columns(['device_id', 'seq'])
    .execute();

  await db.schema
    .createTable('sync_conflicts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'uuid', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('base_version', 'bigint')
    .addColumn('server_value', 'jsonb')
    .addColumn('client_value', 'jsonb')
    .addColumn('server_author', 'integer', (c) => c.references('users.id'))
    .addColumn('client_author', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id'))
    .addColumn('resolution', 'text')
    .execute();
  await db.schema
    .createIndex('sync_conflicts_entity_idx')
    .on('sync_conflicts')
    .columns(['entity_type', 'entity_id'])
    .execute();
  await sql`create index sync_conflicts_unresolved_idx on sync_conflicts (created_at) where resolved_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sync_conflicts').execute();
  await db.schema.dropTable('sync_rejections').execute();
  await db.schema.dropTable('applied_mutations').execute();
  await db.schema.dropTable('devices').execute();
}
