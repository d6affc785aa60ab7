// inventoryItem: a medical supply kept at the station, in a vehicle or in a bag (spec §3
// medical_inventory). Its stock on hand is never a field: it is the sum of its movements
// (inventory-movement.ts, stock.ts; decision 060).
import { z } from 'zod';
import '../zod-config';
import { nLong, nShort } from '../platform/field-types';
import { defineRecord, type RecordDefinition } from '../platform/record';
import { ownedRecordSchema } from '../platform/values';
import { deleteMutator, upsertMutator } from '../platform/verbs';
import { INVENTORY_LOCATIONS, nonNegativeQuantity } from './values';

export const INVENTORY_MESSAGES = {
  description: 'Description is required',
  minimumQty: 'Minimum quantity must be 0 or greater',
  stockOnHand: 'Stock on hand must be 0 or greater',
} as const;

const inventoryItemFieldShape = {
  description: z
    .string({ error: INVENTORY_MESSAGES.description })
    .trim()
    .min(1, INVENTORY_MESSAGES.description)
    .max(500),
  minimumQty: nonNegativeQuantity(INVENTORY_MESSAGES.minimumQty),
  category: nShort,
  unit: z.string().trim().min(1, 'Unit is required').max(50),
  notes: nLong,
  location: z.enum(INVENTORY_LOCATIONS),
  /** Which vehicle or bag ('Vehicle 2', 'ALS bag'); empty for the station's store. */
  locationName: nShort,
};
export const inventoryItemFieldsSchema = z.strictObject(inventoryItemFieldShape);

export const inventoryItemRecordSchema = ownedRecordSchema(inventoryItemFieldShape);
export type InventoryItemRecord = z.output<typeof inventoryItemRecordSchema>;

/** Spec §6: the medicalInventory module covers everyone's items (a shared store). */
export const INVENTORY_ACCESS = {
  module: 'medicalInventory',
  logModule: 'medicalInventory',
  viewAction: 'read',
} as const;

const inventoryItemKind = {
  kind: 'inventoryItem',
  label: 'inventory item',
  fieldLabels: {
    description: 'Description',
    minimumQty: 'Minimum quantity',
    category: 'Category',
    unit: 'Unit',
    notes: 'Notes',
    location: 'Kept at',
    locationName: 'Vehicle or bag',
  },
  table: 'inventoryItems',
  sqlTable: 'inventory_items',
  record: inventoryItemRecordSchema,
  // Spec §9: minimumQty 1, unit pieces (stock on hand 0: no movements yet).
  defaults: {
    minimumQty: 1,
    unit: 'pieces',
    location: 'station',
    category: null,
    notes: null,
    locationName: null,
  } as Partial<InventoryItemRecord>,
  lww: true,
  access: INVENTORY_ACCESS,
  numericColumns: ['minimumQty'],
  sinceSchemaVersion: 4,
  device: { indexes: 'userId, location, category' },
} as const satisfies Omit<RecordDefinition<InventoryItemRecord>, 'mutators'>;

export const inventoryItemRecord = defineRecord({
  ...inventoryItemKind,
  mutators: [
    upsertMutator(inventoryItemKind, inventoryItemFieldsSchema, {
      requiredOnCreate: ['description'],
    }),
    deleteMutator(inventoryItemKind),
  ],
});
