// useLocalList's read (local-list.ts) against a real Dexie database on fake-indexeddb, over a
// throwaway kind written through the one write path: the whole store, an index matched on a
// string, a number and a boolean, ranges, sorting, paging, deleted and unreadable rows, and
// the error a query on an undeclared index gets.
import 'fake-indexeddb/auto';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countStock, openTestDatabase, type StockCount } from '@/test/throwaway-kind';
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import { readLocalList, type LocalList } from './local-list';

let db: SyncDatabase;
const ids: Record<string, string> = {};

beforeEach(async () => {
  db = openTestDatabase(801);
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T08:00:00.000Z`;
  ids.gauze = await countStock(db, {
    item: 'Gauze',
    shelf: 'A1',
    quantity: 40,
    expired: false,
    countedAt: at(3),
  });
  ids.saline = await countStock(db, {
    item: 'Saline',
    shelf: 'B2',
    quantity: 0,
    expired: true,
    countedAt: at(1),
  });
  ids.splint = await countStock(db, {
    item: 'Splint',
    shelf: 'A1',
    quantity: 7,
    expired: false,
    countedAt: at(2),
  });
  // No shelf and no count yet: kept by the whole store, last in any order by shelf.
  ids.mask = await countStock(db, {
    item: 'Mask',
    shelf: null,
    quantity: 12,
    expired: true,
    countedAt: at(4),
  });
});

afterEach(async () => {
  await db.delete();
});

const items = (list: LocalList<LocalRecord<StockCount>>) => list.records.map((r) => r.item);

describe('readLocalList (useLocalList)', () => {
  it('lists the whole store, sorted either way, with its total', async () => {
    const list = await readLocalList<StockCount>(db, 'stockCount', {
      sortBy: 'countedAt',
      direction: 'desc',
    });
    expect(items(list)).toEqual(['Mask', 'Gauze', 'Splint', 'Saline']);
    expect(list.total).toBe(4);
    expect(list.unreadable).toEqual([]);
    const asc = await readLocalList<StockCount>(db, 'stockCount', { sortBy: 'countedAt' });
    expect(items(asc)).toEqual(['Saline', 'Splint', 'Gauze', 'Mask']);
  });

  it('matches a string, a number and a boolean on the kind’s indexes', async () => {
    const onA1 = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'shelf',
      equals: 'A1',
      sortBy: 'item',
    });
    expect(items(onA1)).toEqual(['Gauze', 'Splint']);
    const none = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'quantity',
      equals: 0,
    });
    expect(items(none)).toEqual(['Saline']);
    // Booleans are no IndexedDB keys: read from the store and compared after parsing.
    const expired = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'expired',
      equals: true,
      sortBy: 'item',
    });
    expect(items(expired)).toEqual(['Mask', 'Saline']);
    const fresh = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'expired',
      equals: false,
      sortBy: 'item',
    });
    expect(items(fresh)).toEqual(['Gauze', 'Splint']);
  });

  it('reads index ranges: between (both ends in), above and below (ends out)', async () => {
    const between = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'quantity',
      between: [7, 40],
      sortBy: 'quantity',
    });
    expect(items(between)).toEqual(['Splint', 'Mask', 'Gauze']);
    const above = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'quantity',
      above: 7,
      sortBy: 'quantity',
    });
    expect(items(above)).toEqual(['Mask', 'Gauze']);
    const below = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'countedAt',
      below: '2026-11-03T00:00:00.000Z',
      sortBy: 'countedAt',
    });
    expect(items(below)).toEqual(['Saline', 'Splint']);
  });

  it('lists a record without the sort field last, whatever the direction', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const list = await readLocalList<StockCount>(db, 'stockCount', {
        sortBy: 'shelf',
        direction,
      });
      expect(items(list).at(-1)).toBe('Mask');
      expect(list.total).toBe(4);
    }
  });

  it('pages with offset and limit; the total counts every match', async () => {
    const first = await readLocalList<StockCount>(db, 'stockCount', {
      sortBy: 'countedAt',
      direction: 'desc',
      limit: 3,
    });
    expect(items(first)).toEqual(['Mask', 'Gauze', 'Splint']);
    const second = await readLocalList<StockCount>(db, 'stockCount', {
      sortBy: 'countedAt',
      direction: 'desc',
      offset: 3,
      limit: 3,
    });
    expect(items(second)).toEqual(['Saline']);
    expect(second.total).toBe(4);
  });

  it('leaves deleted records out unless asked, and reports unreadable rows by id', async () => {
    await db
      .records('stockCount')
      .update(ids.gauze ?? '', { deletedAt: '2026-11-05T00:00:00.000Z' });
    await db.records('stockCount').update(ids.splint ?? '', { quantity: 'seven' });
    const list = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'shelf',
      equals: 'A1',
    });
    expect(list.records).toEqual([]);
    expect(list.unreadable).toEqual([{ id: ids.splint, message: expect.any(String) }]);
    const withDeleted = await readLocalList<StockCount>(db, 'stockCount', {
      where: 'shelf',
      equals: 'A1',
      includeDeleted: true,
    });
    expect(items(withDeleted)).toEqual(['Gauze']);
  });

  it('names the kind’s indexes when asked for a field that is not one', async () => {
    await expect(
      readLocalList<StockCount>(db, 'stockCount', { where: 'item', equals: 'Gauze' }),
    ).rejects.toThrow(
      '"item" is not an index of stockCount (its device indexes: userId, shelf, quantity, expired, countedAt)',
    );
    await expect(
      readLocalList<StockCount>(db, 'stockCount', { sortBy: 'colour' as 'item' }),
    ).rejects.toThrow('stockCount has no field "colour" to sort by');
  });
});
