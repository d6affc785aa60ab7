// inventoryBatch: one lot of an item with its expiry date. An item's stock on hand is the sum
// of its batches' stock plus what was booked without a batch (stock.ts).
import { z } from 'zod';
import '../zod-config';
import { nShort } from '../platform/field-types';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { assertWritable } from '../platform/verbs';
import { ownedRecordSchema, uuidSchema } from '../platform/values';
import { calendarDaySchema } from './values';

export const inventoryBatchRecordSchema = ownedRecordSchema({
  itemId: uuidSchema,
  lot: nShort,
  expiryDate: calendarDaySchema.nullable(),
});
export type InventoryBatchRecord = z.output<typeof inventoryBatchRecordSchema>;

export const inventoryBatchInputSchema = z.strictObject({
  id: uuidSchema,
  itemId: uuidSchema,
  lot: nShort.default(null),
  expiryDate: calendarDaySchema.nullable().default(null),
});

/** Adds a batch, or corrects its lot and expiry; it stays with the item it was added to. */
export const inventoryBatchSave = defineMutator({
  name: 'inventoryBatch.save',
  label: 'Batch',
  kind: 'inventoryBatch',
  args: inventoryBatchInputSchema,
  entityIds: (a) => [a.id, a.itemId],
  async apply(tx, a) {
    // Receiving a batch changes the item's stock: the right to change the item.
    await tx.require('inventoryItem', a.itemId, 'change');
    const existing = await tx.get('inventoryBatch', a.id);
    if (!existing) {
      await tx.insert('inventoryBatch', a);
      return;
    }
    if (existing.itemId !== a.itemId)
      throw new Rejection(RejectionCode.REFERENCE_MISMATCH, 'The batch belongs to another item.', {
        id: a.id,
      });
    assertWritable({}, existing);
    await tx.update('inventoryBatch', a.id, { lot: a.lot, expiryDate: a.expiryDate });
  },
});

export const inventoryBatchRecord = defineRecord({
  kind: 'inventoryBatch',
  label: 'batch',
  fieldLabels: { lot: 'Lot number', expiryDate: 'Expiry date' },
  table: 'inventoryBatches',
  sqlTable: 'inventory_batches',
  record: inventoryBatchRecordSchema,
  defaults: { lot: null, expiryDate: null },
  lww: true,
  parent: { kind: 'inventoryItem', column: 'itemId' },
  sinceSchemaVersion: 4,
  device: { indexes: 'itemId' },
  mutators: [inventoryBatchSave],
});
