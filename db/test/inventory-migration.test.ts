// Migration 2026-12-08T1000 (decision 060): the stock list that was never synced moves into
// the synced inventory kinds with nothing lost: items and owners, expiry as a batch, each
// old movement, and the typed stock on hand as the sum of the movements.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../src/migrate';
import { createTestDatabase, type TestDatabaseHandle } from '../src/testing';

const BEFORE = '2026-11-28T0500-approval-default-role';

const handles: TestDatabaseHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

async function databaseBefore(): Promise<Kysely<unknown>> {
  const handle = await createTestDatabase({ migrate: false });
  handles.push(handle);
  const db = handle.db as unknown as Kysely<unknown>;
  await migrateToLatest(db);
  await migrateDown(db, BEFORE);
  return db;
}

describe('the inventory becomes synced records (migration 2026-12-08T1000)', () => {
  it('moves items, expiry dates, movements and stock on hand, losing nothing', async () => {
    const db = await databaseBefore();
    await sql`insert into users (id, email, password_hash, full_name, status)
      overriding system value values (7, 'stores@example.org', 'x', 'Sam Stores', 'approved')`.execute(
      db,
    );
    await sql`insert into medical_inventory
        (id, description, minimum_qty, stock_on_hand, category, unit, notes, expiry_date, user_id)
      overriding system value values
        (1, 'Adrenaline 1 mg/ml', 4, 6, 'Medication', 'ampoules', 'Fridge door', '2027-03-31', 7),
        (2, 'Gauze swabs', 10, 0, null, 'pieces', null, null, null),
        (3, 'Glucose gel', 2, 3, 'Medication', 'tubes', null, null, 7)`.execute(db);
    // Item 1: movements add up to 5, the typed stock says 6; item 2: none; item 3: exactly 3.
    await sql`insert into inventory_movements (item_id, user_id, delta, reason, created_at) values
        (1, 7, 10, 'restock', '2026-11-01T08:00:00Z'),
        (1, null, -5, 'used', '2026-11-02T08:00:00Z'),
        (3, 7, 3, 'received', '2026-11-03T08:00:00Z')`.execute(db);

    await migrateToLatest(db);

    const items = await sql<Record<string, unknown>>`
      select description, minimum_qty, category, unit, notes, location, user_id,
        (select coalesce(sum(quantity), 0) from inventory_movements v where v.item_id = i.id)::float as stock,
        (select array_agg(expiry_date::text) from inventory_batches b where b.item_id = i.id) as expiries
      from inventory_items i order by description`.execute(db);
    expect(items.rows).toEqual([
      {
        description: 'Adrenaline 1 mg/ml',
        minimumQty: '4.000',
        category: 'Medication',
        unit: 'ampoules',
        notes: 'Fridge door',
        location: 'station',
        userId: 7,
        stock: 6,
        expiries: ['2027-03-31'],
      },
      {
        description: 'Gauze swabs',
        minimumQty: '10.000',
        category: null,
        unit: 'pieces',
        notes: null,
        location: 'station',
        userId: 7,
        stock: 0,
        expiries: null,
      },
      {
        description: 'Glucose gel',
        minimumQty: '2.000',
        category: 'Medication',
        unit: 'tubes',
        notes: null,
        location: 'station',
        userId: 7,
        stock: 3,
        expiries: null,
      },
    ]);
    const movements = await sql<Record<string, unknown>>`
      select i.description, v.quantity::float as quantity, v.reason, v.note, v.user_id,
        v.batch_id is not null as in_batch, v.below_zero
      from inventory_movements v join inventory_items i on i.id = v.item_id
      order by i.description, v.at`.execute(db);
    expect(movements.rows).toEqual([
      expect.objectContaining({
        description: 'Adrenaline 1 mg/ml',
        quantity: 10,
        reason: 'received',
        note: 'restock',
        inBatch: true,
      }),
      expect.objectContaining({
        description: 'Adrenaline 1 mg/ml',
        quantity: -5,
        reason: 'used',
        userId: 7,
        inBatch: true,
      }),
      expect.objectContaining({
        description: 'Adrenaline 1 mg/ml',
        quantity: 1,
        reason: 'stock_take',
        inBatch: true,
      }),
      expect.objectContaining({
        description: 'Glucose gel',
        quantity: 3,
        reason: 'received',
        belowZero: false,
      }),
    ]);
    // The old tables are gone; the new ones are synced (a version from the sequence).
    const old = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.tables where table_name = 'medical_inventory'`.execute(
      db,
    );
    expect(old.rows[0]?.n).toBe(0);
    const versions = await sql<{ n: number }>`
      select count(*)::int as n from inventory_items where version is null`.execute(db);
    expect(versions.rows[0]?.n).toBe(0);

    // And back: each item with its stock on hand.
    await migrateDown(db, BEFORE);
    const back = await sql<{ description: string; stockOnHand: number; expiryDate: string | null }>`
      select description, stock_on_hand, expiry_date::text as expiry_date from medical_inventory
      order by description`.execute(db);
    expect(back.rows).toEqual([
      { description: 'Adrenaline 1 mg/ml', stockOnHand: 6, expiryDate: '2027-03-31' },
      { description: 'Gauze swabs', stockOnHand: 0, expiryDate: null },
      { description: 'Glucose gel', stockOnHand: 3, expiryDate: null },
    ]);
  });
});
