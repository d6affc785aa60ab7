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

/**
 * PostgreSQL's most arguments to one function: the server writes a record's values as chunks
 * of at most this many (json_build_array per chunk), and the device reads them in order.
 */
export const PULL_ROW_CHUNK = 100;

/** A kind's record keys, in the order its rows' values come; never a key that would set an
 * object's prototype when the device writes it. */
const rowKeySchema = z
  .string()
  .max(100)
  .refine((key) => key !== '__proto__', 'Not a record key');

/** One change of a rows page: `values` are the record's values in its kind's key order, as
 * chunks (PULL_ROW_CHUNK); null for a tombstone. */
export const pullRowSchema = z.object({
  entity: z.string().max(100),
  id: z.string().max(64),
  version: versionSchema,
  deleted: z.boolean(),
  values: z.array(z.array(z.unknown())).nullable(),
});

/**
 * A pull page as rows (protocol 2, decision 051): the same changes as pullResponseSchema's,
 * with each kind's record keys written once (`keys`, the kinds on the page) instead of in
 * every record. Most of an objects page was its keys: ~170 for a case, most holding null.
 */
export const pullRowsResponseSchema = z.object({
  cursor: versionSchema,
  hasMore: z.boolean(),
  keys: z.record(z.string().max(100), z.array(rowKeySchema).max(1000)),
  changes: z.array(pullRowSchema),
});
export type PullRowsResponse = z.output<typeof pullRowsResponseSchema>;

/**
 * A rows page as the changes of an objects page (what the rest of the device reads): each
 * record an object of its kind's keys. Adds an issue (and returns null) when a change's kind
 * has no keys on the page or its values are not one per key.
 */
function rowsToChanges(page: PullRowsResponse, ctx: z.RefinementCtx): PullResponse | null {
  // Each record starts as a copy of its kind's template, every key already in place: objects
  // of one shape, built about five times faster than key by key (decision 051).
  const templates = new Map<string, Record<string, unknown>>();
  const changes: SyncChange[] = [];
  for (const [index, row] of page.changes.entries()) {
    const { values, ...change } = row;
    if (values === null) {
      changes.push({ ...change, data: null });
      continue;
    }
    // Own keys only: a kind named like an object's own property (`constructor`) has none.
    const keys = Object.hasOwn(page.keys, row.entity) ? page.keys[row.entity] : undefined;
    let template = templates.get(row.entity);
    if (keys && !template) {
      template = Object.fromEntries(keys.map((key) => [key, null]));
      templates.set(row.entity, template);
    }
    const count = values.reduce((sum, chunk) => sum + chunk.length, 0);
    if (!keys || !template || count !== keys.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['changes', index, 'values'],
        message: keys ? 'Not one value per key' : 'No keys for this kind',
      });
      return null;
    }
    const data: Record<string, unknown> = { ...template };
    let at = 0;
    for (const chunk of values) for (const value of chunk) data[keys[at++] as string] = value;
    changes.push({ ...change, data });
  }
  return { cursor: page.cursor, hasMore: page.hasMore, changes };
}

/**
 * A pull answer in either form (a server of protocol 2 and later sends rows, an older one
 * objects), read as an objects page.
 */
export const pullAnswerSchema: z.ZodType<PullResponse, unknown> = z.union([
  pullRowsResponseSchema.transform((page, ctx) => rowsToChanges(page, ctx) ?? z.NEVER),
  pullResponseSchema,
]);
