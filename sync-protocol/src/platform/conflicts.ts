// Conflict review for administrators: GET /api/admin/conflicts?resolved=false,
// GET /api/admin/conflicts/:id, POST /api/admin/conflicts/:id/resolve.
import { z } from 'zod';
import '../zod-config';
import { jsonValueSchema } from './values';

export const conflictListQuerySchema = z.strictObject({
  resolved: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

import { CONFLICT_RESOLUTIONS } from './conflict-record';

export { CONFLICT_RESOLUTIONS };
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

export const syncConflictSchema = z.object({
  id: z.string(),
  /** The record kind (registry). */
  entity: z.string(),
  /** The kind's label for people, e.g. 'case'. */
  kindLabel: z.string().optional(),
  entityId: z.string(),
  /** The record's human id (caseId, sessionId, incidentId) when it has one. */
  humanId: z.string().nullable(),
  field: z.string(),
  baseVersion: z.string().nullable(),
  /** The value another person wrote, which the client's write replaced. */
  serverValue: jsonValueSchema,
  serverAuthor: z.number().int().nullable(),
  serverAuthorName: z.string().nullable().optional(),
  /** The value the device pushed (applied: last write wins). */
  clientValue: jsonValueSchema,
  clientAuthor: z.number().int().nullable(),
  clientAuthorName: z.string().nullable().optional(),
  /** The field's value now. */
  currentValue: jsonValueSchema.optional(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.number().int().nullable(),
  resolution: z.enum(CONFLICT_RESOLUTIONS).nullable(),
});
export type SyncConflict = z.output<typeof syncConflictSchema>;
export const syncConflictListSchema = z.array(syncConflictSchema);

/** 'custom' needs `value` (validated against the field's schema). */
export const conflictResolveSchema = z
  .strictObject({ choice: z.enum(CONFLICT_RESOLUTIONS), value: jsonValueSchema.optional() })
  .refine((v) => v.choice !== 'custom' || v.value !== undefined, {
    message: 'A value is required',
    path: ['value'],
  });
export type ConflictResolve = z.input<typeof conflictResolveSchema>;
