// Medical inventory becomes three synced kinds (decision 060): inventory_items,
// inventory_batches (lot, expiry) and inventory_movements (append-only, signed quantity).
// What the old, device-less medical_inventory and inventory_movements tables hold moves over,
// nothing lost: each item keeps its fields and owner, an item with an expiry date gets one
// batch with that date, each old movement becomes a movement (its reason text kept as the
// note), and where the typed stock on hand differs from the old movements' sum one stock-take
// movement makes the derived stock equal to it. Then the old tables go.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { createSyncedTable } from '../synced-table';

const REASONS = [
  'received',
  'used',
  'used_on_case',
  'expired',
  'damaged',
  'stock_take',
  'transfer',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_movements rename to legacy_inventory_movements`.execute(db);
  await sql`alter index inventory_movements_item_idx rename to legacy_inventory_movements_item_idx`.execute(
    db,
  );
  await sql`alter index inventory_movements_pkey rename to legacy_inventory_movements_pkey`.execute(
    db,
  );

  await createSyncedTable(db, 'inventory_items', { lww: true }, (t) =>
    t
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('minimum_qty', sql`numeric(12, 3)`, (c) =>
        c
          .notNull()
          .defaultTo(1)
          .check(sql`minimum_qty >= 0`),
      )
      .addColumn('category', 'text')
      .addColumn('unit', 'text', (c) => c.notNull().defaultTo('pieces'))
      .addColumn('notes', 'text')
      .addColumn('location', 'text', (c) =>
        c
          .notNull()
          .defaultTo('station')
          .check(sql`location in ('station', 'vehicle', 'bag')`),
      )
      .addColumn('location_name', 'text'),
  );
  await createSyncedTable(
    db,
    'inventory_batches',
    { lww: true, parent: { column: 'item_id', table: 'inventory_items' } },
    (t) => t.addColumn('lot', 'text').addColumn('expiry_date', 'date'),
  );
  await createSyncedTable(
    db,
    'inventory_movements',
    { lww: false, parent: { column: 'item_id', table: 'inventory_items' } },
    (t) =>
      t
        .addColumn('batch_id', 'uuid', (c) => c.references('inventory_batches.id'))
        .addColumn('quantity', sql`numeric(12, 3)`, (c) => c.notNull().check(sql`quantity <> 0`))
        .addColumn('reason', 'text', (c) =>
          c.notNull().check(sql`reason in (${sql.join(REASONS.map((r) => sql.lit(r)))})`),
        )
        .addColumn('case_id', 'uuid')
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('below_zero', 'boolean', (c) => c.notNull().defaultTo(false)),
  );
  await db.schema
    .createIndex('inventory_movements_batch_id_idx')
    .on('inventory_movements')
    .column('batch_id')
    .execute();
  await db.schema
    .createIndex('inventory_movements_case_id_idx')
    .on('inventory_movements')
    .column('case_id')
    .execute();

  // The old rows. An item nobody owns any more goes to the first administrator (or first user).
  await sql`alter table medical_inventory add column new_id uuid not null default gen_random_uuid(),
    add column batch_id uuid`.execute(db);
  await sql`update medical_inventory set batch_id = gen_random_uuid() where expiry_date is not null`.execute(
    db,
  );
  const owner = sql`coalesce(m.user_id,
    (select u.id from users u left join roles r on r.id = u.role_id
      order by (r.name = 'administrator') desc nulls last, u.id limit 1))`;
  await sql`insert into inventory_items
      (id, description, minimum_qty, category, unit, notes, location, user_id, created_at)
    select m.new_id, m.description, m.minimum_qty, m.category, m.unit, m.notes, 'station',
      ${owner}, m.created_at
    from medical_inventory m`.execute(db);
  await sql`insert into inventory_batches (id, item_id, expiry_date, user_id, created_at)
    select m.batch_id, m.new_id, m.expiry_date, ${owner}, m.created_at
    from medical_inventory m where m.batch_id is not null`.execute(db);
  await sql`insert into inventory_movements
      (id, item_id, batch_id, quantity, reason, at, note, user_id, created_at)
    select gen_random_uuid(), m.new_id, m.batch_id, l.delta,
      case when l.reason in (${sql.join(REASONS.map((r) => sql.lit(r)))}) then l.reason
        when l.delta > 0 then 'received' else 'used' end,
      l.created_at, left(l.reason, 500),
      coalesce(l.user_id, ${owner}), l.created_at
    from legacy_inventory_movements l join medical_inventory m on m.id = l.item_id
    where l.delta <> 0`.execute(db);
  await sql`insert into inventory_movements
      (id, item_id, batch_id, quantity, reason, at, note, user_id, created_at)
    select gen_random_uuid(), m.new_id, m.batch_id, m.stock_on_hand - coalesce(s.total, 0),
      'stock_take', m.updated_at, 'Stock on hand before movements were synced', ${owner},
      m.updated_at
    from medical_inventory m
    left join (select item_id, sum(delta) as total from legacy_inventory_movements group by item_id) s
      on s.item_id = m.id
    where m.stock_on_hand - coalesce(s.total, 0) <> 0`.execute(db);
  await sql`update inventory_movements v set below_zero = true
    from (select id, sum(quantity) over (partition by item_id order by at, created_at, id) as running
      from inventory_movements) r
    where r.id = v.id and r.running < 0`.execute(db);

  await db.schema.dropTable('legacy_inventory_movements').execute();
  await db.schema.dropTable('medical_inventory').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to the old tables: each item with its stock on hand (movements' sum, at least 0)
  // and its soonest expiry; the movements' history stays only as that sum.
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
  await sql`create trigger medical_inventory_touch_updated_at before update on medical_inventory
    for each row execute function touch_updated_at()`.execute(db);
  await sql`insert into medical_inventory
      (description, minimum_qty, stock_on_hand, category, unit, notes, expiry_date, created_at, user_id)
    select i.description, ceil(i.minimum_qty), greatest(0, floor(coalesce(
        (select sum(quantity) from inventory_movements v where v.item_id = i.id), 0))),
      i.category, i.unit, i.notes,
      (select min(expiry_date) from inventory_batches b
        where b.item_id = i.id and b.deleted_at is null),
      i.created_at, i.user_id
    from inventory_items i where i.deleted_at is null`.execute(db);
  await db.schema.dropTable('inventory_movements').execute();
  await db.schema.dropTable('inventory_batches').execute();
  await db.schema.dropTable('inventory_items').execute();
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
