// What the inventory screens read from the device: every batch and movement (live), and per
// item its derived stock, flags and list rank (stock.ts; decision 060: stock is never stored).
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import {
  DEFAULT_EXPIRY_WINDOW_DAYS,
  inventoryRank,
  isLowStock,
  itemExpiryState,
  stockOf,
  type ExpiryState,
} from '@rescuelog/sync-protocol/inventory/stock';
import { zonedDay } from '@rescuelog/sync-protocol/time';
import { useMemo } from 'react';
import { readStoredSettings } from '@/lib/stored-settings';
import { useServiceSettings } from '@/lib/service-settings';
import { useLocalList } from '@/lib/sync/use-local-records';

export type InventoryItem = AppLocalRecord<'inventoryItem'>;
export type InventoryBatch = AppLocalRecord<'inventoryBatch'>;
export type InventoryMovement = AppLocalRecord<'inventoryMovement'>;

export interface ItemStock {
  stock: number;
  low: boolean;
  expiry: ExpiryState;
  rank: number;
  batches: InventoryBatch[];
  movements: InventoryMovement[];
}

const EMPTY: ItemStock = {
  stock: 0,
  low: true,
  expiry: 'ok',
  rank: 0,
  batches: [],
  movements: [],
};

/** Today in the service's time zone (YYYY-MM-DD). */
export function serviceToday(): string {
  return zonedDay(Date.now()) ?? new Date().toISOString().slice(0, 10);
}

function groupBy<T extends { itemId?: string | undefined }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    if (!row.itemId) continue;
    const list = map.get(row.itemId);
    if (list) list.push(row);
    else map.set(row.itemId, [row]);
  }
  return map;
}

export interface InventoryStock {
  /** The derived stock of an item (an item with no movements: 0, low unless its minimum is 0). */
  of(item: Pick<InventoryItem, 'id' | 'minimumQty'>): ItemStock;
}

/** The service's expiry warning window (System Settings; the device's last copy offline). */
export function useExpiryWindowDays(): number {
  const { data } = useServiceSettings();
  return (
    data?.inventoryExpiryWindowDays ??
    readStoredSettings()?.inventoryExpiryWindowDays ??
    DEFAULT_EXPIRY_WINDOW_DAYS
  );
}

/** Stock per item from the device's batches and movements; undefined while loading. */
export function useInventoryStock(): InventoryStock | undefined {
  const windowDays = useExpiryWindowDays();
  const batches = useLocalList('inventoryBatch', {});
  const movements = useLocalList('inventoryMovement', {});
  return useMemo(() => {
    if (!batches || !movements) return undefined;
    const today = serviceToday();
    const batchesBy = groupBy(batches.records);
    const movementsBy = groupBy(movements.records);
    const cache = new Map<string, ItemStock>();
    return {
      of(item) {
        const key = `${item.id}:${String(item.minimumQty)}`;
        const hit = cache.get(key);
        if (hit) return hit;
        const b = batchesBy.get(item.id) ?? [];
        const m = movementsBy.get(item.id) ?? [];
        if (b.length === 0 && m.length === 0 && (item.minimumQty ?? 1) > 0) return EMPTY;
        const stock = stockOf(m);
        const low = isLowStock(stock, item.minimumQty);
        const expiry = itemExpiryState(b, m, today, windowDays);
        const result = { stock, low, expiry, rank: inventoryRank(low, expiry), batches: b, movements: m };
        cache.set(key, result);
        return result;
      },
    };
  }, [batches, movements, windowDays]);
}
