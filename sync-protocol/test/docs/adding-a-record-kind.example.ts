// The example of docs/adding-a-record-kind.md, as code the typecheck compiles: the region
// between the markers is the document's code block, character for character
// (adding-a-record-kind.test.ts), so the two cannot drift apart.
// #region example
import { z } from 'zod';
import { defineRecord } from '../../src/platform/record';
import { deleteMutator, upsertMutator } from '../../src/platform/verbs';
import { serverColumns, timestampSchema, uuidSchema } from '../../src/platform/values';

const fields = z.strictObject({
  item: z.string().max(200),
  quantity: z.number().int().min(0),
});

const kind = {
  kind: 'inventoryCount',
  label: 'inventory count',
  table: 'inventoryCounts',
  sqlTable: 'inventory_counts',
  record: fields.extend({
    id: uuidSchema,
    userId: z.number(),
    createdAt: timestampSchema,
    ...serverColumns,
  }),
  defaults: {},
  lww: true,
  access: { module: 'medicalInventory', logModule: 'medicalInventory', viewAction: 'read' },
  // SCHEMA_VERSION (platform/versions.ts) as raised for this kind: a number, not the constant.
  sinceSchemaVersion: 4,
  device: { indexes: 'userId' },
} as const;

export const inventoryCountRecord = defineRecord({
  ...kind,
  mutators: [upsertMutator(kind, fields, { requiredOnCreate: ['item'] }), deleteMutator(kind)],
});
// #endregion example
