// The inventory kinds through the real push (PGlite): bad movements are refused with a stable
// code and a clear reason, nothing written and nothing else in the push held back; a movement
// that takes stock below zero is accepted and flagged; two devices booking the same item
// offline both count; a member without medicalInventory create cannot add an item.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVEMENT_MESSAGES } from '@rescuelog/sync-protocol/inventory/inventory-movement';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  Device,
  pullAll,
  RESPONDER,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

let t: TestApp;
let stores: SyncUser;
let responder: SyncUser;

const AT = '2026-12-08T08:00:00.000Z';

beforeAll(async () => {
  t = await buildSyncApp();
  stores = await syncUser(t, {
    ...RESPONDER,
    medicalInventory: { read: true, create: true, edit: true, delete: true },
  });
  responder = await syncUser(t, { ...RESPONDER, medicalInventory: { read: true } });
});

afterAll(() => t.close());

async function newItem(
  device: Device,
  fields: Record<string, unknown> = {},
): Promise<{ itemId: string; batchId: string }> {
  const itemId = uuid();
  const batchId = uuid();
  const res = await device.push(
    device.m('inventoryItem.upsert', {
      id: itemId,
      fields: { description: 'Adrenaline 1 mg/ml', unit: 'ampoules', ...fields },
    }),
    device.m('inventoryBatch.save', { id: batchId, itemId, lot: 'A1', expiryDate: '2027-06-30' }),
    device.m('inventoryMovement.book', {
      id: uuid(),
      itemId,
      batchId,
      quantity: 5,
      reason: 'received',
      at: AT,
    }),
  );
  expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
  return { itemId, batchId };
}

async function stockOf(itemId: string): Promise<number> {
  const { rows } = await sql<{ stock: number }>`
    select coalesce(sum(quantity), 0)::float as stock from inventory_movements
    where item_id = ${itemId}`.execute(t.db);
  return rows[0]?.stock ?? Number.NaN;
}

describe('booking stock on the server', () => {
  it('refuses bad movements with their codes and reasons, writes none, and applies the good one after them', async () => {
    const d = new Device(stores);
    const a = await newItem(d);
    const b = await newItem(d, { description: 'Gauze' });
    const gone = await newItem(d, { description: 'Old splint' });
    await d.push(d.m('inventoryItem.delete', { id: gone.itemId }));
    const book = (fields: Record<string, unknown>) =>
      d.m('inventoryMovement.book', {
        id: uuid(),
        itemId: a.itemId,
        quantity: -1,
        reason: 'used',
        at: AT,
        ...fields,
      } as never);
    const res = await d.push(
      book({ quantity: 0 }),
      book({ quantity: -0.5 }),
      book({ itemId: uuid() }),
      book({ itemId: gone.itemId }),
      book({ batchId: b.batchId }),
      book({ batchId: uuid() }),
      book({ batchId: a.batchId, quantity: -2 }),
    );
    expect(res.results.map((r) => [r.status, r.code ?? null, r.message ?? null])).toEqual([
      ['rejected', 'INVALID_QUANTITY', MOVEMENT_MESSAGES.zero],
      ['rejected', 'INVALID_QUANTITY', MOVEMENT_MESSAGES.fraction],
      ['rejected', 'NOT_FOUND', 'The inventory item does not exist on the server.'],
      ['rejected', 'DELETED', 'The inventory item was deleted.'],
      ['rejected', 'REFERENCE_MISMATCH', MOVEMENT_MESSAGES.batchOfAnotherItem],
      ['rejected', 'NOT_FOUND', MOVEMENT_MESSAGES.batchNotFound],
      ['applied', null, null],
    ]);
    expect(await stockOf(a.itemId)).toBe(3);
    expect(await stockOf(b.itemId)).toBe(5);
  });

  it('takes a fraction of an item measured in millilitres', async () => {
    const d = new Device(stores);
    const { itemId } = await newItem(d, { description: 'Saline', unit: 'ml' });
    const res = await d.push(
      d.m('inventoryMovement.book', { id: uuid(), itemId, quantity: -2.5, reason: 'used', at: AT }),
    );
    expect(res.results[0]?.status).toBe('applied');
    expect(await stockOf(itemId)).toBe(2.5);
  });

  it('accepts a movement that takes the stock below zero and flags it for review', async () => {
    const d = new Device(stores);
    const { itemId } = await newItem(d);
    const ok = uuid();
    const below = uuid();
    await d.push(
      d.m('inventoryMovement.book', { id: ok, itemId, quantity: -5, reason: 'used', at: AT }),
      d.m('inventoryMovement.book', { id: below, itemId, quantity: -1, reason: 'used', at: AT }),
    );
    const { rows } = await sql<{ id: string; belowZero: boolean }>`
      select id, below_zero from inventory_movements where id in (${ok}, ${below})`.execute(t.db);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.belowZero]))).toEqual({
      [ok]: false,
      [below]: true,
    });
    expect(await stockOf(itemId)).toBe(-1);
  });

  it('counts two devices that booked the same item out offline, and both sync to everyone', async () => {
    const one = new Device(stores);
    const two = new Device(stores);
    const { itemId, batchId } = await newItem(one);
    // Both devices made their movement before either pushed.
    const first = one.m('inventoryMovement.book', {
      id: uuid(),
      itemId,
      batchId,
      quantity: -1,
      reason: 'used',
      at: AT,
    });
    const second = two.m('inventoryMovement.book', {
      id: uuid(),
      itemId,
      batchId,
      quantity: -2,
      reason: 'used',
      at: AT,
    });
    expect((await two.push(second)).results[0]?.status).toBe('applied');
    expect((await one.push(first)).results[0]?.status).toBe('applied');
    expect(await stockOf(itemId)).toBe(2);
    const seen = (await pullAll(responder.client)).changes.filter(
      (c) => c.entity === 'inventoryMovement' && c.data?.itemId === itemId,
    );
    expect(seen.map((c) => c.data?.quantity).sort()).toEqual([-1, -2, 5]);
  });

  it('refuses an item from a member without create, and a booking from one who may only read', async () => {
    const d = new Device(stores);
    const { itemId } = await newItem(d);
    const r = new Device(responder);
    const res = await r.push(
      r.m('inventoryItem.upsert', { id: uuid(), fields: { description: 'Not mine to add' } }),
      r.m('inventoryMovement.book', { id: uuid(), itemId, quantity: -1, reason: 'used', at: AT }),
    );
    expect(res.results.map((x) => x.code)).toEqual(['FORBIDDEN', 'NOT_OWNER']);
    expect(await stockOf(itemId)).toBe(5);
  });
});
