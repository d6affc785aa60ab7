// Request logs never carry an upload URL's token: the token is the capability to write a
// file into someone's account for 15 minutes, and logs are read by more people than that.
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

const UPLOAD_TOKEN_IN_PATH = /(\/api\/objects\/upload\/)[^/?#]+/gi;

/** The URL with any upload token replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(UPLOAD_TOKEN_IN_PATH, '$1[redacted]');
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/** The logger options with the redacting request serializer; `false` stays off. */
export function withRedactedRequests(
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: serializeRequest } };
}
