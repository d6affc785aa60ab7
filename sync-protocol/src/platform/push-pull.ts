// POST /api/sync/push and POST /api/sync/pull bodies and answers.
import { z } from 'zod';
import '../zod-config';
import { rawMutationSchema } from './envelope';
import type { Registry } from './registry';
import { pushFailureSchema } from './set-aside';
import { jsonValueSchema, uuidSchema, versionSchema } from './values';

export const PUSH_MAX_MUTATIONS = 200;
export const PULL_DEFAULT_LIMIT = 500;
export const PULL_MAX_LIMIT = 1000;

const protocolFields = {
  protocolVersion: z.number().int().min(0),
  schemaVersion: z.number().int().min(0),
  deviceId: uuidSchema,
};

/** Mutations are read loosely here (rawMutationSchema) and validated one by one. */
export const pushRequestSchema = z.object({
  ...protocolFields,
  mutations: z.array(rawMutationSchema).min(1).max(PUSH_MAX_MUTATIONS),
});
export type PushRequest = z.input<typeof pushRequestSchema>;

export const syncConflictReportSchema = z.object({
  field: z.string(),
  serverValue: jsonValueSchema,
  clientValue: jsonValueSchema,
});
export type SyncConflictReport = z.output<typeof syncConflictReportSchema>;

export const MUTATION_RESULT_STATUSES = ['applied', 'duplicate', 'rejected'] as const;
export type MutationResultStatus = (typeof MUTATION_RESULT_STATUSES)[number];

export const mutationResultSchema = z.object({
  seq: z.number().int(),
  mutationId: z.string(),
  status: z.enum(MUTATION_RESULT_STATUSES),
  /** A code of REJECTION_CODES (a newer server may send one this client does not know). */
  code: z.string().max(100).optional(),
  message: z.string().optional(),
  /** Fields where another person's newer write was overwritten (and kept for review). */
  conflicts: z.array(syncConflictReportSchema).optional(),
});
export type MutationResult = z.output<typeof mutationResultSchema>;

export const pullRequestSchema = z.object({
  ...protocolFields,
  /** Opaque; null on the first pull. */
  cursor: versionSchema.nullable(),
  limit: z.number().int().min(1).max(PULL_MAX_LIMIT).default(PULL_DEFAULT_LIMIT),
});
export type PullRequest = z.input<typeof pullRequestSchema>;

/**
 * One changed record. Read loosely here: `data` is parsed with the kind's record schema by
 * parseChange, and a kind this client does not know (a newer server) is skipped, never an
 * error that would stop every later change from arriving.
 */
export const syncChangeSchema = z.object({
  entity: z.string().max(100),
  id: z.string().max(64),
  version: versionSchema,
  deleted: z.boolean(),
  /** null for a tombstone. */
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type SyncChange = z.output<typeof syncChangeSchema>;

/** A change with its data parsed by its kind's schema, or null for a kind the registry lacks. */
export function parseChange(registry: Registry, change: SyncChange): SyncChange | null {
  if (!registry.has(change.entity)) return null;
  if (change.data === null) return change;
  const data = registry.get(change.entity).record.parse(change.data) as Record<string, unknown>;
  return { ...change, data };
}

/**
 * Results cover the mutations up to a gap (seq > last + 1), in seq order. The client
 * deletes every entry with seq <= lastAppliedSeq from its outbox.
 *
 * `records`: the server's state, as the push's transaction left it, of every record a
 * rejected or duplicate mutation names (its entityIds) and the user may see (the pull rule),
 * shaped like pull changes. The device must undo a rejected change (and rebuild a duplicate's
 * records) without waiting for a pull: this is what it rebuilds them from, so a record it
 * created and the server accepted never vanishes because a later edit was refused (the
 * service worker only pushes). Absent from servers before it was added; never sent for
 * applied mutations (their local effect already is what the server holds).
 */
export const pushResponseSchema = z.object({
  lastAppliedSeq: z.number().int().min(0),
  results: z.array(mutationResultSchema),
  records: z.array(syncChangeSchema).optional(),
  /** Storing this mutation failed on the server; the batch stopped before it (set-aside.ts). */
  failed: pushFailureSchema.optional(),
});
export type PushResponse = z.output<typeof pushResponseSchema>;

/** Changes in version order; pass `cursor` to the next pull, and pull again while hasMore. */
export const pullResponseSchema = z.object({
  cursor: versionSchema,
  hasMore: z.boolean(),
  changes: z.array(syncChangeSchema),
});
export type PullResponse = z.output<typeof pullResponseSchema>;
