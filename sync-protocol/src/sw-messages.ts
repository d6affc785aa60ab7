// Messages between the web app and the service worker (postMessage in both directions).
// Both sides parse what they receive with these schemas: a message from an older or newer
// build of the other side must be recognised or ignored, never trusted blindly.
import { z } from 'zod';
import './zod-config';

/** Background Sync tag the web app registers when the outbox has work; the worker's
 * `sync` event for this tag wakes the app's outbox drainer. */
export const OUTBOX_SYNC_TAG = 'rescuelog-outbox';

/** Sent by the page to the worker. */
export const clientToSwMessageSchema = z.discriminatedUnion('type', [
  /** The user accepted the "Update ready" prompt: the waiting worker takes over. */
  z.object({ type: z.literal('SKIP_WAITING') }),
  /** Ask the worker which build it is (answered with SW_VERSION on the message port, or
   * on the client when no port was given). */
  z.object({ type: z.literal('GET_VERSION') }),
  /** The page's answer, on the message's port, to OPEN_URL: it has gone to the address. */
  z.object({ type: z.literal('URL_OPENED') }),
]);
export type ClientToSwMessage = z.infer<typeof clientToSwMessageSchema>;

/** Why the worker asks the pages to drain their outbox. */
export const outboxDrainReasonSchema = z.enum(['background-sync', 'worker-start']);
export type OutboxDrainReason = z.infer<typeof outboxDrainReasonSchema>;

/** Sent by the worker to pages (clients). */
export const swToClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('SW_VERSION'), version: z.string().min(1).max(100) }),
  /** The outbox lives in the page's IndexedDB and is drained by the page (one drainer at a
   * time, under a Web Lock); the worker only wakes it up. */
  z.object({ type: z.literal('OUTBOX_DRAIN_REQUESTED'), reason: outboxDrainReasonSchema }),
  /** A push arrived while a page is open: the bell's count and lists refresh at once. */
  z.object({ type: z.literal('NOTIFICATION_RECEIVED'), notificationId: z.number().int() }),
  /** A notification was clicked: the open app goes to this address of its own (a path) with
   * its router, without reloading, and answers URL_OPENED on the message's port. A page that
   * does not answer is navigated by the worker instead. */
  z.object({
    type: z.literal('OPEN_URL'),
    path: z.string().startsWith('/').max(2048),
  }),
]);
export type SwToClientMessage = z.infer<typeof swToClientMessageSchema>;
