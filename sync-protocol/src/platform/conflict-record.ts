// Conflicts are records too (decision 015). When the server keeps the later of two
// concurrent values of a field, it keeps both in a conflict row, and that row syncs like any
// record: to both authors' devices (the person whose value was replaced sees it on the
// record and in the sync inbox, offline) and to everyone who may settle conflicts of that
// kind (the log module's edit). Settling one is an ordinary audited write on the server
// (POST /api/admin/conflicts/:id/resolve) whose new versions reach every device by pull.
// The registry adds this kind to every app's kinds.
import { z } from 'zod';
import '../zod-config';
import { jsonValueSchema, serverColumns, timestampSchema } from './values';
import { defineRecord } from './record';

export const CONFLICT_KIND = 'syncConflict';

export const CONFLICT_RESOLUTIONS = ['server', 'client', 'custom'] as const;

export const conflictRecordSchema = z.object({
  /** bigint as a decimal string */
  id: z.union([z.string(), z.number()]).transform(String),
  recordKind: z.string(),
  /** The record's SQL table (kept for older readers; recordKind is the kind). */
  entityType: z.string(),
  /** The record's id. */
  entityId: z.string(),
  /** The version the later write was based on. */
  baseVersion: z.string().nullable(),
  field: z.string(),
  /** The value another person wrote first, which the later write replaced. */
  serverValue: jsonValueSchema,
  serverAuthor: z.number().int().nullable(),
  serverAuthorName: z.string().nullable(),
  /** The later value, which the record holds now (unless settled otherwise). */
  clientValue: jsonValueSchema,
  clientAuthor: z.number().int().nullable(),
  clientAuthorName: z.string().nullable(),
  createdAt: timestampSchema,
  resolvedAt: timestampSchema.nullable(),
  resolvedBy: z.number().int().nullable(),
  resolution: z.enum(CONFLICT_RESOLUTIONS).nullable(),
  ...serverColumns,
});
export type ConflictRecord = z.output<typeof conflictRecordSchema>;

export const conflictRecord = defineRecord({
  kind: CONFLICT_KIND,
  label: 'conflict',
  table: 'syncConflicts',
  sqlTable: 'sync_conflicts',
  record: conflictRecordSchema,
  defaults: {},
  lww: false,
  ownerColumns: ['serverAuthor', 'clientAuthor'],
  moderatedByKindColumn: 'recordKind',
  sinceSchemaVersion: 3,
  device: { indexes: 'entityId, resolvedAt' },
  mutators: [],
});
