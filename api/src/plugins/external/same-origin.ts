// Refuses state-changing requests that do not come from the app itself (CSRF defence beside
// SameSite=Lax cookies). A request passes when its Origin is PUBLIC_ORIGIN or one of
// ALLOWED_ORIGINS; without an Origin it needs the `X-Requested-With: rescuelog` header, which
// a cross-site HTML form cannot send and a cross-site fetch cannot send without a CORS
// preflight that this server never approves.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { ApiError } from '../../lib/api-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const REQUESTED_WITH_HEADER = 'x-requested-with';
export const REQUESTED_WITH_VALUE = 'rescuelog';

export function crossSiteReason(
  request: FastifyRequest,
  allowed: ReadonlySet<string>,
): string | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin !== undefined) {
    if (!allowed.has(origin)) return `origin ${origin} is not allowed`;
    return undefined;
  }
  if (fetchSite === 'cross-site' || fetchSite === 'same-site')
    return `sec-fetch-site ${fetchSite} without an allowed origin`;
  if (request.headers[REQUESTED_WITH_HEADER] !== REQUESTED_WITH_VALUE)
    return 'no origin and no X-Requested-With header';
  return undefined;
}

export const sameOriginPlugin = fp(
  async (fastify) => {
    // A callback hook: reads (most requests) pass without a promise.
    fastify.addHook('onRequest', (request, _reply, done) => {
      const reason = crossSiteReason(request, fastify.config.allowedOrigins);
      if (reason === undefined) {
        done();
        return;
      }
      request.log.warn({ reason }, 'cross-site request refused');
      done(new ApiError(403, ErrorCode.CROSS_SITE_REQUEST, 'Cross-site request refused'));
    });
  },
  { name: 'same-origin', dependencies: ['env'] },
);
