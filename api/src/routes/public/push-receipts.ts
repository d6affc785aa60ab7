// POST /api/notifications/receipts (docs/decisions/028): the service worker reports that a
// push was shown ('delivered') or opened ('clicked'). No session: the receipt in the push is
// a server-signed token naming the delivery. A malformed receipt is a 400, a forged one a 403
// (audited), and neither changes anything. Rate-limited per client address.
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { pushReceiptSchema } from '@rescuelog/sync-protocol/notifications';
import { ApiError, parseInput } from '../../lib/api-error';
import { recordReceipt } from '../../services/notifications-service';

export const RECEIPT_MESSAGES = {
  malformed: 'Receipt is not valid',
  forged: 'Receipt was not issued by this server',
  unknown: 'Receipt names a delivery that no longer exists',
} as const;

export async function pushReceiptRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.post('/notifications/receipts', async (request, reply) => {
    await fastify.rateLimiter.consume('pushReceiptsPerIp', request.ip);
    const { receipt, event } = parseInput(pushReceiptSchema, request.body);
    const check = fastify.push.receipts.verify(receipt);
    if (!check.ok) {
      if (check.reason === 'malformed')
        throw new ApiError(400, ErrorCode.VALIDATION_FAILED, RECEIPT_MESSAGES.malformed, {
          fieldErrors: { receipt: [RECEIPT_MESSAGES.malformed] },
        });
      await fastify.audit.record(request, {
        action: 'notification.receipt_forged',
        outcome: 'denied',
        actorUserId: null,
        details: { event },
      });
      throw new ApiError(403, ErrorCode.FORBIDDEN, RECEIPT_MESSAGES.forged);
    }
    const updated = await recordReceipt(fastify.db, check.deliveryId, event);
    if (!updated) throw new ApiError(404, ErrorCode.NOT_FOUND, RECEIPT_MESSAGES.unknown);
    return reply.code(204).send();
  });
}
