// The daily stock notice: to the people who manage stock only, naming low, expired and
// expiring items, once a day, and not at all when there is nothing to say.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDailyStockAlert } from '../src/services/inventory-alerts-service';
import type { TestApp } from './helpers';
import { buildSyncApp, Device, RESPONDER, syncUser, uuid, type SyncUser } from './sync-fixtures';

let t: TestApp;
let stores: SyncUser;
let reader: SyncUser;
const SETTINGS = { serviceTimeZone: 'Africa/Johannesburg', inventoryExpiryWindowDays: 30 };
const AT = '2026-12-08T08:00:00.000Z';

beforeAll(async () => {
  t = await buildSyncApp();
  stores = await syncUser(t, {
    ...RESPONDER,
    medicalInventory: { read: true, create: true, edit: true },
  });
  reader = await syncUser(t, { ...RESPONDER, medicalInventory: { read: true } });
});
afterAll(() => t.close());

async function inbox(userId: number): Promise<{ title: string; message: string }[]> {
  const { rows } = await sql<{ title: string; message: string }>`
    select n.title, n.message from notification_deliveries d
    join notifications n on n.id = d.notification_id where d.user_id = ${userId}
      and n.title = 'Stock to check'`.execute(t.db);
  return rows;
}

describe('the daily stock notice', () => {
  it('names low, expired and expiring stock to who manages stock, once a day', async () => {
    const now = new Date('2026-12-08T06:00:00.000Z');
    expect(await sendDailyStockAlert(t.db, now, SETTINGS)).toBe(0); // nothing to say yet
    const d = new Device(stores);
    const item = (description: string, minimumQty: number) => {
      const id = uuid();
      return { id, m: d.m('inventoryItem.upsert', { id, fields: { description, minimumQty } }) };
    };
    const gel = item('Glucose gel', 1);
    const adrenaline = item('Adrenaline', 1);
    const gauze = item('Gauze', 10);
    const old = uuid();
    const soon = uuid();
    const res = await d.push(
      gel.m,
      adrenaline.m,
      gauze.m,
      d.m('inventoryBatch.save', { id: old, itemId: gel.id, expiryDate: '2026-12-07' }),
      d.m('inventoryBatch.save', { id: soon, itemId: adrenaline.id, expiryDate: '2027-01-07' }),
      d.m('inventoryMovement.book', {
        id: uuid(),
        itemId: gel.id,
        batchId: old,
        quantity: 2,
        reason: 'received',
        at: AT,
      }),
      d.m('inventoryMovement.book', {
        id: uuid(),
        itemId: adrenaline.id,
        batchId: soon,
        quantity: 2,
        reason: 'received',
        at: AT,
      }),
      d.m('inventoryMovement.book', {
        id: uuid(),
        itemId: gauze.id,
        quantity: 3,
        reason: 'received',
        at: AT,
      }),
    );
    expect(res.results.every((r) => r.status === 'applied')).toBe(true);

    expect(await sendDailyStockAlert(t.db, now, SETTINGS)).toBeGreaterThan(0);
    expect(await inbox(stores.id)).toEqual([
      {
        title: 'Stock to check',
        message: 'Low stock: Gauze. Expired: Glucose gel. Expiring within 30 days: Adrenaline.',
      },
    ]);
    expect(await inbox(reader.id)).toEqual([]);
    // Later the same day: not again. The next day: again.
    expect(await sendDailyStockAlert(t.db, new Date('2026-12-08T20:00:00.000Z'), SETTINGS)).toBe(0);
    expect(
      await sendDailyStockAlert(t.db, new Date('2026-12-08T22:30:00.000Z'), SETTINGS),
    ).toBeGreaterThan(0);
    expect(await inbox(stores.id)).toHaveLength(2);
  });
});
