// Stock derived from movements, first expiry first out, and the flags the list sorts by, at
// their boundaries (stock.ts, decision 060).
import { describe, expect, it } from 'vitest';
import {
  expiryState,
  firstExpiryOut,
  inventoryRank,
  isLowStock,
  itemExpiryState,
  stockByBatch,
  stockOf,
} from '../../src/inventory/stock';
import { countsWholePieces } from '../../src/inventory/values';
import { restockLines } from '../../src/inventory/restock';
import { inventoryItemFieldsSchema } from '../../src/inventory/inventory-item';

const A = { id: 'a', expiryDate: '2027-01-31' };
const B = { id: 'b', expiryDate: '2026-12-31' };
const NONE = { id: 'n', expiryDate: null };

describe('stock on hand', () => {
  it('is the sum of the movements, exact to three decimals, per batch and in all', () => {
    const movements = [
      { quantity: 10, batchId: 'a' },
      { quantity: -0.1, batchId: 'a' },
      { quantity: -0.2, batchId: 'a' },
      { quantity: 4, batchId: null },
      { quantity: -5 },
    ];
    expect(stockOf(movements)).toBe(8.7);
    expect(stockByBatch(movements)).toEqual(
      new Map([
        ['a', 9.7],
        ['', -1],
      ]),
    );
    expect(stockOf([])).toBe(0);
  });
});

describe('first expiry, first out', () => {
  it('takes from the batch that expires first among those with stock', () => {
    const movements = [
      { quantity: 3, batchId: 'a' },
      { quantity: 2, batchId: 'b' },
      { quantity: 1, batchId: 'n' },
    ];
    expect(firstExpiryOut([A, NONE, B], movements)?.id).toBe('b');
    // B used up: A next; then the batch without a date; then none.
    expect(firstExpiryOut([A, NONE, B], [...movements, { quantity: -2, batchId: 'b' }])?.id).toBe(
      'a',
    );
    expect(
      firstExpiryOut(
        [A, NONE, B],
        [
          { quantity: 1, batchId: 'n' },
          { quantity: 2, batchId: 'b' },
          { quantity: -2, batchId: 'b' },
        ],
      )?.id,
    ).toBe('n');
    expect(firstExpiryOut([A, B], [])).toBeNull();
    expect(
      firstExpiryOut([{ ...B, deletedAt: '2026-12-01T00:00:00.000Z' }, A], movements)?.id,
    ).toBe('a');
  });
});

describe('flags', () => {
  it('low stock is below the minimum, not at it', () => {
    expect(isLowStock(1, 2)).toBe(true);
    expect(isLowStock(2, 2)).toBe(false);
    expect(isLowStock(0, 0)).toBe(false);
    expect(isLowStock(-1, 0)).toBe(true);
    expect(isLowStock(0, undefined)).toBe(true); // the default minimum is 1
  });

  it('a batch expires after its expiry day; expiring soon within the window, today and the last day included', () => {
    const today = '2026-12-08';
    expect(expiryState('2026-12-07', today)).toBe('expired');
    expect(expiryState('2026-12-08', today)).toBe('expiring');
    expect(expiryState('2027-01-07', today)).toBe('expiring'); // 30 days
    expect(expiryState('2027-01-08', today)).toBe('ok'); // 31 days
    expect(expiryState('2026-12-15', today, 7)).toBe('expiring');
    expect(expiryState('2026-12-16', today, 7)).toBe('ok');
    expect(expiryState(null, today)).toBe('ok');
  });

  it('an item is flagged by its batches that still hold stock', () => {
    const today = '2027-01-15';
    const movements = [
      { quantity: 1, batchId: 'b' }, // expired 2026-12-31
      { quantity: 2, batchId: 'a' }, // expiring 2027-01-31
    ];
    expect(itemExpiryState([A, B], movements, today)).toBe('expired');
    expect(itemExpiryState([A, B], [...movements, { quantity: -1, batchId: 'b' }], today)).toBe(
      'expiring',
    );
    expect(itemExpiryState([A, B], [{ quantity: 1, batchId: 'n' }], today)).toBe('ok');
  });

  it('orders low stock first, then expiring or expired, then the rest', () => {
    expect(inventoryRank(true, 'ok')).toBe(0);
    expect(inventoryRank(true, 'expired')).toBe(0);
    expect(inventoryRank(false, 'expiring')).toBe(1);
    expect(inventoryRank(false, 'expired')).toBe(1);
    expect(inventoryRank(false, 'ok')).toBe(2);
  });
});

describe('the item fields (spec §5)', () => {
  it('refuse with the spec messages', () => {
    const problems = inventoryItemFieldsSchema
      .partial()
      .safeParse({ description: '  ', minimumQty: -1 });
    expect(problems.success).toBe(false);
    expect(problems.error?.issues.map((i) => i.message).sort()).toEqual([
      'Description is required',
      'Minimum quantity must be 0 or greater',
    ]);
  });

  it('count whole pieces for pieces, ampoules and an empty unit, not for millilitres', () => {
    expect(countsWholePieces('pieces')).toBe(true);
    expect(countsWholePieces(' Ampoules ')).toBe(true);
    expect(countsWholePieces('')).toBe(true);
    expect(countsWholePieces('ml')).toBe(false);
  });
});

describe('the restock list', () => {
  it('orders what brings each item back to its minimum once expired stock is out', () => {
    const today = '2026-12-08';
    const lines = restockLines(
      [
        {
          description: 'Adrenaline',
          unit: 'ampoules',
          where: 'Bag: ALS bag',
          minimumQty: 4,
          batches: [
            { id: 'old', expiryDate: '2026-12-07' },
            { id: 'new', expiryDate: '2027-06-30' },
          ],
          movements: [
            { quantity: 2, batchId: 'old' },
            { quantity: 3, batchId: 'new' },
          ],
        },
        {
          description: 'Gauze',
          unit: 'pieces',
          where: 'Station',
          minimumQty: 10,
          batches: [],
          movements: [{ quantity: 10 }],
        },
        {
          description: 'Splint',
          unit: 'pieces',
          where: 'Station',
          minimumQty: 2,
          batches: [],
          movements: [{ quantity: -1 }],
        },
      ],
      today,
    );
    expect(lines).toEqual([
      {
        description: 'Splint',
        where: 'Station',
        unit: 'pieces',
        onHand: -1,
        expired: 0,
        minimum: 2,
        toOrder: 2,
      },
      {
        description: 'Adrenaline',
        where: 'Bag: ALS bag',
        unit: 'ampoules',
        onHand: 5,
        expired: 2,
        minimum: 4,
        toOrder: 1,
      },
    ]);
  });
});
