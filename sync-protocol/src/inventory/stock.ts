// Stock on hand, derived (never typed): the sum of an item's movements, per batch and in all;
// which batch a use takes from (first expiry, first out); and the flags the list sorts by
// (low stock, expired, expiring soon). Pure functions: the device, the server's tests and
// the benchmark use the same ones (decision 060).
import { roundQuantity } from './values';

export interface MovementLike {
  quantity?: unknown;
  batchId?: unknown;
}

export interface BatchLike {
  id: string;
  expiryDate?: string | null | undefined;
  deletedAt?: unknown;
}

/** The default window in which a batch counts as "expiring soon" (System Settings). */
export const DEFAULT_EXPIRY_WINDOW_DAYS = 30;

function quantityOf(m: MovementLike): number {
  const q = typeof m.quantity === 'number' ? m.quantity : Number(m.quantity);
  return Number.isFinite(q) ? q : 0;
}

/** The sum of the movements' quantities. */
export function stockOf(movements: readonly MovementLike[]): number {
  let total = 0;
  for (const m of movements) total += quantityOf(m);
  return roundQuantity(total);
}

/** The stock after one more movement of `quantity`. */
export function stockAfter(movements: readonly MovementLike[], quantity: number): number {
  return roundQuantity(stockOf(movements) + quantity);
}

/** Stock per batch id ('' for what was booked without a batch). */
export function stockByBatch(movements: readonly MovementLike[]): Map<string, number> {
  const byBatch = new Map<string, number>();
  for (const m of movements) {
    const key = typeof m.batchId === 'string' ? m.batchId : '';
    byBatch.set(key, roundQuantity((byBatch.get(key) ?? 0) + quantityOf(m)));
  }
  return byBatch;
}

/** Orders batches by expiry, soonest first; batches without an expiry date last. */
export function byExpiry<B extends BatchLike>(a: B, b: B): number {
  const x = a.expiryDate ?? '';
  const y = b.expiryDate ?? '';
  if (x === y) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  if (x === '') return 1;
  if (y === '') return -1;
  return x < y ? -1 : 1;
}

/**
 * The batch a use is booked from: the one that expires first among those with stock
 * (first expiry, first out); null when no batch holds any (the use is booked without one).
 */
export function firstExpiryOut<B extends BatchLike>(
  batches: readonly B[],
  movements: readonly MovementLike[],
): B | null {
  const stock = stockByBatch(movements);
  const live = batches.filter((b) => b.deletedAt === null || b.deletedAt === undefined);
  return [...live].sort(byExpiry).find((b) => (stock.get(b.id) ?? 0) > 0) ?? null;
}

/** Below the minimum quantity (stock equal to the minimum is not low). */
export function isLowStock(stock: number, minimumQty: number | null | undefined): boolean {
  return stock < (minimumQty ?? 1);
}

export type ExpiryState = 'expired' | 'expiring' | 'ok';

/** Whole days from `today` to `day` (both YYYY-MM-DD). */
export function daysUntil(day: string, today: string): number {
  return Math.round(
    (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000,
  );
}

/**
 * A batch expires at the end of its expiry day: expired from the day after; expiring soon
 * when the expiry day is within `windowDays` of today (today included).
 */
export function expiryState(
  expiryDate: string | null | undefined,
  today: string,
  windowDays: number = DEFAULT_EXPIRY_WINDOW_DAYS,
): ExpiryState {
  if (!expiryDate) return 'ok';
  const days = daysUntil(expiryDate, today);
  if (days < 0) return 'expired';
  return days <= windowDays ? 'expiring' : 'ok';
}

/** The worst expiry state among batches that still hold stock. */
export function itemExpiryState(
  batches: readonly BatchLike[],
  movements: readonly MovementLike[],
  today: string,
  windowDays: number = DEFAULT_EXPIRY_WINDOW_DAYS,
): ExpiryState {
  const stock = stockByBatch(movements);
  let state: ExpiryState = 'ok';
  for (const b of batches) {
    if (b.deletedAt !== null && b.deletedAt !== undefined) continue;
    if ((stock.get(b.id) ?? 0) <= 0) continue;
    const s = expiryState(b.expiryDate, today, windowDays);
    if (s === 'expired') return 'expired';
    if (s === 'expiring') state = 'expiring';
  }
  return state;
}

/** The list's order: low stock first, then expired or expiring, then the rest. */
export function inventoryRank(low: boolean, expiry: ExpiryState): number {
  if (low) return 0;
  if (expiry !== 'ok') return 1;
  return 2;
}
