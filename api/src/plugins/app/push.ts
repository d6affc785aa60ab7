// Web push and the notification job (docs/decisions/028): `fastify.push` holds the VAPID
// public key, the sender, the receipt signer, the endpoint policy and the job, which starts
// when the server is ready and stops (its run in progress finished) before the database
// closes.
import fp from 'fastify-plugin';
import {
  DEFAULT_DISPATCHER_SETTINGS,
  NotificationDispatcher,
  type DispatcherSettings,
} from '../../services/push/notification-dispatcher';
import {
  PRODUCTION_ENDPOINT_POLICY,
  type EndpointPolicy,
} from '../../services/push/endpoint-policy';
import { PushReceipts } from '../../services/push/push-receipts';
import { PushSender } from '../../services/push/push-sender';

export interface PushService {
  /** The VAPID application server key, base64url (GET /api/push/vapid-public-key). */
  publicKey: string;
  policy: EndpointPolicy;
  sender: PushSender;
  receipts: PushReceipts;
  dispatcher: NotificationDispatcher;
}

declare module 'fastify' {
  interface FastifyInstance {
    push: PushService;
  }
}

export interface PushPluginOptions {
  /**
   * Test-only: lets subscriptions point at a stand-in push service on the loopback interface
   * over http. Production never sets it: there is no environment variable for it.
   */
  testing?: { allowLoopbackEndpoints: boolean } | undefined;
  /** The job's timings (tests shorten them). */
  job?: Partial<DispatcherSettings> | undefined;
}

export const pushPlugin = fp<PushPluginOptions>(
  async (fastify, options) => {
    const policy: EndpointPolicy = options.testing?.allowLoopbackEndpoints
      ? { allowLoopback: true }
      : PRODUCTION_ENDPOINT_POLICY;
    const sender = new PushSender({ vapid: fastify.config.vapid, policy });
    const receipts = new PushReceipts(fastify.config.sessionSecret);
    const dispatcher = new NotificationDispatcher(fastify.db, sender, receipts, fastify.log, {
      ...DEFAULT_DISPATCHER_SETTINGS,
      ...options.job,
    });
    fastify.decorate('push', {
      publicKey: fastify.config.vapid.publicKey,
      policy,
      sender,
      receipts,
      dispatcher,
    } satisfies PushService);
    fastify.addHook('onReady', async () => dispatcher.start());
    // preClose, before any onClose: the job's run in progress must finish while the database
    // is still open (the database plugin closes it in its onClose).
    fastify.addHook('preClose', async () => {
      await dispatcher.stop();
    });
    fastify.addHook('onClose', async () => sender.close());
  },
  { name: 'push', dependencies: ['env', 'database'] },
);
