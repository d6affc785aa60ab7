// The mutation envelope: what a device records in its outbox with every local write and
// pushes later. `name` names a mutator of the registry, which parses `args`.
import { z } from 'zod';
import '../zod-config';
import { timestampSchema, uuidSchema, versionSchema } from './values';

/** Envelope fields every mutation has. */
export const envelopeShape = {
  mutationId: uuidSchema,
  /** One user's outbox in one browser: a new per-user local database gets a new deviceId. */
  deviceId: uuidSchema,
  /** Per-device, monotonic, from 1, without gaps. */
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  actorUserId: z.number().int().positive(),
  /** The uuids of the records the mutation touches (derived from args by its mutator). */
  entityIds: z.array(z.string().max(64)).max(20),
  /** The record version the device's edit was based on (null: it has never seen a server copy). */
  baseVersion: versionSchema.nullable(),
  clientTime: timestampSchema,
  schemaVersion: z.number().int().min(1),
  name: z.string().max(100),
};

/** A stored or sent mutation: the envelope checked, args as the mutator will parse them. */
export const mutationEnvelopeSchema = z.object({ ...envelopeShape, args: z.unknown() });
export type MutationEnvelope = z.output<typeof mutationEnvelopeSchema>;

/**
 * The envelope as the push route first reads it: enough to acknowledge the mutation in seq
 * order. Name and args are then checked one mutation at a time (Registry.parseMutation), so a
 * mutation that does not validate (say, from a newer schema) is rejected on its own
 * instead of failing the whole batch and blocking the queue.
 */
export const rawMutationSchema = z.object({
  mutationId: uuidSchema,
  deviceId: uuidSchema,
  seq: envelopeShape.seq,
  actorUserId: z.number().int(),
  name: z.string().max(100),
  args: z.unknown(),
  entityIds: z.array(z.unknown()).max(20).optional(),
  baseVersion: z.unknown().optional(),
  clientTime: z.unknown().optional(),
  schemaVersion: z.number().int().optional(),
});
export type RawMutation = z.output<typeof rawMutationSchema>;
