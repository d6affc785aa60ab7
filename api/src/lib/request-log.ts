// One log line per request, written when it is answered: what was asked (the URL with any
// upload token redacted, log-redaction.ts), the status and how long it took. Fastify's own
// controller writes two ("incoming request" and "request completed"), which doubles the log
// and its cost under load; its other lines (errors, 404s) are kept.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // Written with the answer (requestCompleted).
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
