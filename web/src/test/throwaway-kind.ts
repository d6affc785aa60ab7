// A throwaway record kind for the kit's tests (imported by tests only): one definition, as a
// newcomer would write it (README "Adding a record kind"), registered beside the app's kinds
// in a registry of the test's own, and a device database built from that registry. Nothing
// in the app knows this kind: whatever works for it works for any kind.
import 'fake-indexeddb/auto';
import { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { defineRecord } from '@rescuelog/sync-protocol/platform/record';
import { createRegistry } from '@rescuelog/sync-protocol/platform/registry';
import {
  serverColumns,
  timestampSchema,
  uuidSchema,
} from '@rescuelog/sync-protocol/platform/values';
import { deleteMutator, upsertMutator } from '@rescuelog/sync-protocol/platform/verbs';
import { APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';
import { z } from 'zod';

// ---- The whole kind ---------------------------------------------------------------------
const stockCountFields = z.strictObject({
  item: z.string().min(1).max(200),
  shelf: z.string().max(40).nullable(),
  quantity: z.number().int().min(0),
  expired: z.boolean(),
  countedAt: timestampSchema,
});
const stockCountKind = {
  kind: 'stockCount',
  label: 'stock count',
  table: 'stockCounts',
  sqlTable: 'stock_counts',
  record: stockCountFields.extend({
    id: uuidSchema,
    userId: z.number().int(),
    createdAt: timestampSchema,
    ...serverColumns,
  }),
  defaults: { shelf: null },
  lww: true,
  access: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
  device: { indexes: 'userId, shelf, quantity, expired, countedAt' },
} as const;
export const stockCountRecord = defineRecord({
  ...stockCountKind,
  mutators: [
    upsertMutator(stockCountKind, stockCountFields, { requiredOnCreate: ['item'] }),
    deleteMutator(stockCountKind),
  ],
});
// -----------------------------------------------------------------------------------------

export type StockCountFields = z.input<typeof stockCountFields>;
export type StockCount = z.output<typeof stockCountKind.record>;

export const testRegistry = createRegistry([...APP_RECORDS, stockCountRecord]);

/** The user's device database with the test's registry (its own name: never the app's). */
export function openTestDatabase(userId: number): SyncDatabase {
  return new SyncDatabase(userId, { registry: testRegistry, version: 1, history: [] });
}

/** Counts one stock item on the device through the one write path (a synced mutation). */
export async function countStock(
  db: SyncDatabase,
  fields: StockCountFields,
  id: string = crypto.randomUUID(),
): Promise<string> {
  await saveMutation(db, {
    name: 'stockCount.upsert',
    args: { id, fields },
    baseVersion: null,
    actorUserId: db.userId,
  });
  return id;
}
