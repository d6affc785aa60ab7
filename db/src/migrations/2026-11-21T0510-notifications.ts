// Notifications, push subscriptions and one delivery row per (notification, user).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('general')
        .check(sql`type in ('general', 'emergency', 'system', 'maintenance')`),
    )
    .addColumn('priority', 'text', (c) =>
      c
        .notNull()
        .defaultTo('normal')
        .check(sql`priority in ('low', 'normal', 'high', 'critical')`),
    )
    .addColumn('target_user_ids', sql`integer[]`)
    .addColumn('target_roles', sql`text[]`)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('scheduled_for', 'timestamptz')
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo('/icons/icon-192.png'))
    .addColumn('badge', 'text', (c) => c.notNull().defaultTo('/icons/icon-192.png'))
    .addColumn('url', 'text')
    .addColumn('sound', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('notifications_status_scheduled_idx')
    .on('notifications')
    .columns(['status', 'scheduled_for'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_idx')
    .on('push_subscriptions')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('notification_id', 'integer', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('clicked_at', 'timestamptz')
    .addColumn('read_at', 'timestamptz')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('notification_deliveries_notification_user_key', [
      'notification_id',
      'user_id',
    ])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_user_read_idx')
    .on('notification_deliveries')
    .columns(['user_id', 'read_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('notifications').execute();
}
