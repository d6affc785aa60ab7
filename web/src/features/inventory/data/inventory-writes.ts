// The inventory's writes beside the kit's (lib/records/record-writes.ts: an item's fields):
// a movement, a batch, a stock take and a one-tap booking. Each is one synced mutation saved
// on the device with its outbox entry; nothing waits for the network. The mutators refuse
// what the server would (a movement of 0, half a piece), so the screen hears it at once.
import type { MovementReason } from '@rescuelog/sync-protocol/inventory/values';
import { byExpiry, firstExpiryOut, stockOf } from '@rescuelog/sync-protocol/inventory/stock';
import { createRecord, newRecordId } from '@/lib/records/record-writes';
import { requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';
import type { InventoryBatch, InventoryMovement } from './use-inventory';

export interface MovementInput {
  itemId: string;
  quantity: number;
  reason: MovementReason;
  batchId?: string | null;
  caseId?: string | null;
  note?: string | null;
}

export async function bookMovement(input: MovementInput): Promise<string> {
  const session = requireSyncSession();
  const id = newRecordId();
  await saveLocalChange({
    name: 'inventoryMovement.book',
    args: {
      id,
      itemId: input.itemId,
      batchId: input.batchId ?? null,
      quantity: input.quantity,
      reason: input.reason,
      caseId: input.caseId ?? null,
      at: new Date().toISOString(),
      note: input.note ?? null,
    },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return id;
}

/**
 * One tap: one unit out of the batch that expires first (first expiry, first out), or one
 * unit in to the batch that expires last (the newest delivery); without batches, none.
 */
export function bookOne(
  itemId: string,
  direction: 1 | -1,
  batches: readonly InventoryBatch[],
  movements: readonly InventoryMovement[],
  reason: MovementReason = direction < 0 ? 'used' : 'received',
): Promise<string> {
  const live = batches.filter((b) => b.deletedAt === null || b.deletedAt === undefined);
  const batch =
    direction < 0 ? firstExpiryOut(live, movements) : ([...live].sort(byExpiry).at(-1) ?? null);
  return bookMovement({ itemId, quantity: direction, reason, batchId: batch?.id ?? null });
}

/** A stock take: what was counted, against what the movements say; the difference as one movement. */
export async function recordStockTake(
  itemId: string,
  counted: number,
  movements: readonly InventoryMovement[],
): Promise<number> {
  const difference = Math.round((counted - stockOf(movements)) * 1000) / 1000;
  if (difference !== 0) await bookMovement({ itemId, quantity: difference, reason: 'stock_take' });
  return difference;
}

export async function saveBatch(batch: {
  id?: string;
  itemId: string;
  lot: string | null;
  expiryDate: string | null;
}): Promise<string> {
  const session = requireSyncSession();
  const id = batch.id ?? newRecordId();
  await saveLocalChange({
    name: 'inventoryBatch.save',
    args: { id, itemId: batch.itemId, lot: batch.lot, expiryDate: batch.expiryDate },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return id;
}

/** A new item, with its opening stock booked as received when there is any. */
export async function createItem(
  fields: Record<string, unknown>,
  openingStock: number,
): Promise<string> {
  const { id } = await createRecord('inventoryItem', fields);
  if (openingStock > 0)
    await bookMovement({ itemId: id, quantity: openingStock, reason: 'received' });
  return id;
}
