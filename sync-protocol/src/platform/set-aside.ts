// A change the server keeps failing to store is set aside, so it cannot stall the queue
// (decision 017). The server fails a mutation when storing it throws something that is
// neither a rejection (bad data, no right: acknowledged and refused) nor a fault of the whole
// server (the database unreachable, a deadlock: the whole push answers 5xx and is retried).
// It commits what came before, stops there and says which one failed (`PushFailure`). The
// device tries again with backoff; after SERVER_TRIES_BEFORE_SET_ASIDE failures it moves that
// change, and every later change to the same records, to its inbox (SET_ASIDE, HELD_BACK: a
// record's changes keep their order), and sends in their places a set-aside marker with the
// same seq. The server stores the marker's copy of the change for an administrator and
// acknowledges it, so the device's seqs stay gap-free and its other records keep syncing.
// "Try again" in the inbox saves the changes again, in order, as new mutations.
import { z } from 'zod';
import '../zod-config';
import { jsonValueSchema, uuidSchema } from './values';

/** Failures of one change on the server (with a backoff between them) before it is set aside. */
export const SERVER_TRIES_BEFORE_SET_ASIDE = 3;

/** The marker's mutation name: not a mutator of any kind; the push handles it itself. */
export const SET_ASIDE_MUTATION = 'sync.setAside';

export const SET_ASIDE_CODES = ['SET_ASIDE', 'HELD_BACK'] as const;

/** What a marker adds around the change it carries (ids, reason), at most. */
export const SET_ASIDE_OVERHEAD_BYTES = 8 * 1024;

/** What the marker carries: the set-aside change, whole, for the server's record of it. */
export const setAsideArgsSchema = z.strictObject({
  /** The set-aside mutation's id (the marker has an id of its own). */
  mutationId: uuidSchema,
  name: z.string().min(1).max(100),
  code: z.enum(SET_ASIDE_CODES),
  /** What the device last heard from the server about it. */
  reason: z.string().max(1000).nullable(),
  /** For a HELD_BACK change, the change it waits behind. */
  heldBehind: uuidSchema.nullable(),
  entityIds: z.array(z.string().max(200)).max(100),
  baseVersion: z.string().max(100).nullable(),
  clientTime: z.string().max(64),
  args: jsonValueSchema,
});
export type SetAsideArgs = z.output<typeof setAsideArgsSchema>;

/** The push's answer when storing one mutation failed on the server (see above). */
export const pushFailureSchema = z.object({
  seq: z.number().int(),
  mutationId: z.string(),
  message: z.string().max(1000),
});
export type PushFailure = z.output<typeof pushFailureSchema>;

export const SERVER_FAILED_MESSAGE =
  'The server could not store a change; it will be tried again. Nothing is lost.';
