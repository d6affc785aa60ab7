// Medical inventory and its stock movements (who, when, delta, reason).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('medical_inventory')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('minimum_qty', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`minimum_qty >= 0`),
    )
    .addColumn('stock_on_hand', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`stock_on_hand >= 0`),
    )
    .addColumn('category', 'text')
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo('pieces'))
    .addColumn('notes', 'text')
    .addColumn('expiry_date', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('inventory_movements')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('item_id', 'integer', (c) =>
      c.notNull().references('medical_inventory.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('inventory_movements_item_idx')
    .on('inventory_movements')
    .columns(['item_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inventory_movements').execute();
  await db.schema.dropTable('medical_inventory').execute();
}
