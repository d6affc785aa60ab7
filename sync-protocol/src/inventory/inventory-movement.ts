// inventoryMovement: one change in an item's stock (who, when, signed quantity, why, from which
// batch, on which case). Append-only, so two devices booking the same item offline both
// count; stock on hand is their sum (stock.ts, decision 060). A movement that takes the stock
// below zero is accepted (the shelf is what it is) and flagged for review.
import { z } from 'zod';
import '../zod-config';
import { nShort } from '../platform/field-types';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { ownedRecordSchema, timestampSchema, uuidSchema } from '../platform/values';
import { stockAfter } from './stock';
import { countsWholePieces, MOVEMENT_REASONS, signedQuantitySchema } from './values';

export const MOVEMENT_MESSAGES = {
  zero: 'A movement of 0 changes nothing: book at least one.',
  fraction: 'This item is counted in whole pieces: book a whole number.',
  batchNotFound: 'The batch does not exist on the server.',
  batchOfAnotherItem: 'The batch belongs to another item.',
} as const;

export const inventoryMovementRecordSchema = ownedRecordSchema({
  itemId: uuidSchema,
  batchId: uuidSchema.nullable(),
  /** Signed: received is positive, used or discarded negative. */
  quantity: z.number(),
  reason: z.enum(MOVEMENT_REASONS),
  /** The case (cases.id) the stock was used on. */
  caseId: uuidSchema.nullable(),
  at: timestampSchema,
  note: nShort,
  /** The stock was below zero after it (as the side that stored it counted): for review. */
  belowZero: z.boolean(),
});
export type InventoryMovementRecord = z.output<typeof inventoryMovementRecordSchema>;

export const inventoryMovementInputSchema = z.strictObject({
  id: uuidSchema,
  itemId: uuidSchema,
  batchId: uuidSchema.nullable().default(null),
  quantity: signedQuantitySchema,
  reason: z.enum(MOVEMENT_REASONS),
  caseId: uuidSchema.nullable().default(null),
  at: timestampSchema,
  note: nShort.default(null),
});

export const inventoryMovementBook = defineMutator({
  name: 'inventoryMovement.book',
  label: 'Stock movement',
  kind: 'inventoryMovement',
  args: inventoryMovementInputSchema,
  entityIds: (a) => [a.id, a.itemId],
  async apply(tx, a) {
    if (a.quantity === 0)
      throw new Rejection(RejectionCode.INVALID_QUANTITY, MOVEMENT_MESSAGES.zero, { id: a.id });
    // Booking stock changes the item: the right to change it (NOT_FOUND, DELETED otherwise).
    const item = await tx.require('inventoryItem', a.itemId, 'change');
    if (!Number.isInteger(a.quantity) && countsWholePieces(item.unit))
      throw new Rejection(RejectionCode.INVALID_QUANTITY, MOVEMENT_MESSAGES.fraction, {
        id: a.id,
        unit: String(item.unit),
      });
    if (a.batchId !== null) {
      const batch = await tx.get('inventoryBatch', a.batchId);
      if (!batch && tx.location === 'server')
        throw new Rejection(RejectionCode.NOT_FOUND, MOVEMENT_MESSAGES.batchNotFound, {
          id: a.batchId,
        });
      if (batch && batch.itemId !== a.itemId)
        throw new Rejection(
          RejectionCode.REFERENCE_MISMATCH,
          MOVEMENT_MESSAGES.batchOfAnotherItem,
          {
            id: a.batchId,
          },
        );
    }
    const { id, ...content } = a;
    if ((await appendOnce(tx, 'inventoryMovement', id, content)) === 'exists') return;
    const before = await tx.list('inventoryMovement', 'itemId', a.itemId);
    const belowZero = stockAfter(before, a.quantity) < 0;
    await tx.insert('inventoryMovement', { id, ...content, belowZero });
    tx.note({ itemId: a.itemId, quantity: a.quantity, reason: a.reason, belowZero });
  },
});

export const inventoryMovementRecord = defineRecord({
  kind: 'inventoryMovement',
  label: 'stock movement',
  fieldLabels: { quantity: 'Quantity', reason: 'Reason', batchId: 'Batch', caseId: 'Case' },
  table: 'inventoryMovements',
  sqlTable: 'inventory_movements',
  record: inventoryMovementRecordSchema,
  defaults: { batchId: null, caseId: null, note: null, belowZero: false },
  lww: false,
  parent: { kind: 'inventoryItem', column: 'itemId' },
  numericColumns: ['quantity'],
  sinceSchemaVersion: 4,
  device: { indexes: 'itemId, batchId, caseId' },
  mutators: [inventoryMovementBook],
});
