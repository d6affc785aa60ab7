// The application: plugins in order (external, then our services), then routes, then the one
// error handler and the not-found handler. `buildApp` creates a ready Fastify instance;
// server.ts starts it and tests build it on a fresh database (test/helpers.ts).
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { Kysely } from 'kysely';
import { ZodError } from 'zod';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode, validationErrorBody, type ApiErrorBody } from '@rescuelog/sync-protocol/errors';
import type { AppConfig } from './config';
import type { AuthCacheOptions } from './lib/auth-cache';
import { ApiError } from './lib/api-error';
import { answerClientError } from './lib/client-errors';
import { withRedactedRequests } from './lib/log-redaction';
import { OneLinePerRequest } from './lib/request-log';
import { envPlugin } from './plugins/external/env';
import { databaseError } from '@rescuelog/db/errors';
import { databasePlugin, type DatabaseUpkeepSchedule } from './plugins/external/database';
import { sessionPlugin, type SessionTimeouts } from './plugins/external/session';
import { settingsPlugin } from './plugins/external/settings';
import { helmetPlugin } from './plugins/external/helmet';
import { sameOriginPlugin } from './plugins/external/same-origin';
import { rateLimitPlugin, type RateLimitSettings } from './plugins/external/rate-limit';
import { signInThrottlePlugin } from './plugins/external/sign-in-throttle';
import { webAppPlugin } from './plugins/external/web-app';
import { passwordsPlugin, type PasswordHashingParams } from './plugins/app/passwords';
import { auditPlugin } from './plugins/app/audit';
import { recordsPlugin } from './plugins/app/records';
import { authenticationPlugin } from './plugins/app/authentication';
import { knownDevicesPlugin } from './plugins/app/known-devices';
import { guardsPlugin } from './plugins/app/guards';
import { inventoryAlertsPlugin } from './plugins/app/inventory-alerts';
import { pushPlugin, type PushPluginOptions } from './plugins/app/push';
import { publicRoutes } from './routes/public/public-routes';
import { protectedRoutes } from './routes/api/protected-routes';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';

export interface AppOptions {
  config: AppConfig;
  /** An already migrated database owned by the caller (tests); otherwise one is opened from config. */
  database?: Kysely<Database>;
  /** With `database`: the sync pushes' own pool on the same database (decision 042). */
  pushDatabase?: Kysely<Database>;
  /** Test-only: cheaper argon2 parameters. Production always uses PRODUCTION_HASHING. */
  passwordHashing?: PasswordHashingParams;
  rateLimits?: Partial<RateLimitSettings>;
  sessionTimeouts?: Partial<SessionTimeouts>;
  /** The session and user cache's epoch poll and stale bound (tests shorten them). */
  authCache?: AuthCacheOptions;
  logger?: FastifyServerOptions['logger'];
  /** When the server's database upkeep runs (default DATABASE_UPKEEP: a minute after the start, then every 6 hours). */
  databaseUpkeep?: DatabaseUpkeepSchedule;
  /** How long an instance trusts its copy of the system settings (default 15 s). */
  settingsCacheTtlMs?: number;
  /** Test-only: route plugins registered in the protected /api context (after the real ones). */
  extraProtectedRoutes?: FastifyPluginAsync;
  /** The record kinds this server syncs (default: the app's registry). */
  registry?: Registry;
  /** Test-only: told of every route as it is registered (the route fuzz walks them all). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Test-only: push subscriptions may point at a stand-in push service on 127.0.0.1 over
   * http. Deliberately not an environment variable, so no deployment can turn it on.
   */
  pushTesting?: PushPluginOptions['testing'];
  /** The notification job's timings (tests shorten the poll and the retry delays). */
  notificationJob?: PushPluginOptions['job'];
}

const MESSAGES_BY_STATUS: Record<number, { code: ErrorCode; error: string }> = {
  413: { code: ErrorCode.PAYLOAD_TOO_LARGE, error: 'Request body is too large' },
  415: {
    code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    error: 'Unsupported content type; send application/json',
  },
};

/** Maps any error to a status and an ApiErrorBody that never leaks internals. */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
} {
  if (error instanceof ApiError)
    return { status: error.statusCode, body: error.body, headers: error.headers };
  if (error instanceof ZodError)
    return { status: 400, body: validationErrorBody(error.issues), headers: {} };
  const status = (error as Partial<FastifyError>).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = MESSAGES_BY_STATUS[status];
    if (known) return { status, body: known, headers: {} };
    if (status === 404)
      return { status, body: { error: 'Not Found', code: ErrorCode.NOT_FOUND }, headers: {} };
    // Malformed JSON, empty JSON body, prototype-poisoning keys, bad Content-Length, ...
    return {
      status: 400,
      body: { error: 'Malformed request', code: ErrorCode.MALFORMED_REQUEST },
      headers: {},
    };
  }
  if (status === 503)
    return {
      status,
      body: { error: 'Service Unavailable', code: ErrorCode.SERVICE_UNAVAILABLE },
      headers: {},
    };
  // Text PostgreSQL cannot store (a NUL character) that got past a schema: the request's fault.
  const sqlstate = databaseError(error)?.code;
  if (sqlstate === '22021' || sqlstate === '22P05')
    return {
      status: 400,
      body: { error: 'Invalid input', code: ErrorCode.VALIDATION_FAILED },
      headers: {},
    };
  return {
    status: 500,
    body: { error: 'Internal Server Error', code: ErrorCode.INTERNAL },
    headers: {},
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: withRedactedRequests(options.logger ?? { level: 'info' }),
    // One line per request, when it is answered, instead of Fastify's two.
    logController: new OneLinePerRequest(),
    trustProxy: options.config.trustProxy,
    // Upload routes take raw bodies through their own parser with their own limit.
    bodyLimit: 1024 * 1024,
    // JSON prototype-pollution keys are refused by the parser (400), never merged.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true },
    // Router-level refusals (a path parameter over 100 characters, a malformed %-escape in the
    // path) and socket-level ones (oversized request line or headers) answer like every other 4xx.
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = toErrorResponse(error);
      // The reply type here carries route generics that do not apply before routing.
      void (reply as unknown as FastifyReply).code(status).send(body);
    },
    clientErrorHandler: answerClientError,
    // Start-up opens the embedded database (PGlite: a WASM PostgreSQL) and runs migrations;
    // on a slow or busy machine that takes longer than Fastify's 10 s default per plugin,
    // and a start that gives up is worse than a slow one.
    pluginTimeout: 120_000,
  });

  if (options.onRoute) fastify.addHook('onRoute', options.onRoute);

  // A POST with `Content-Type: application/json` and no body (logout, mark-all-read) is fine.
  const defaultJsonParser = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    defaultJsonParser(request, text, done);
  });

  fastify.addHook('onSend', (request, reply, _payload, done) => {
    // API answers may hold patient data: never in any HTTP cache (service worker included).
    if (request.url.startsWith('/api')) void reply.header('cache-control', 'no-store');
    done();
  });

  // Set before any plugin is registered: encapsulated route plugins copy the handler they see.
  fastify.setErrorHandler((error, request, reply) => {
    const { status, body, headers } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    return reply.code(status).headers(headers).send(body);
  });

  fastify.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?', 1)[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      return reply
        .code(404)
        .send({ error: 'Not Found', code: ErrorCode.NOT_FOUND } satisfies ApiErrorBody);
    }
    const lastSegment = url.slice(url.lastIndexOf('/') + 1);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !lastSegment.includes('.');
    if (wantsPage) return fastify.sendWebApp(reply);
    return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  });

  await fastify.register(envPlugin, { config: options.config });
  await fastify.register(recordsPlugin, { registry: options.registry });
  await fastify.register(databasePlugin, {
    database: options.database,
    pushDatabase: options.pushDatabase,
    maintenance: options.databaseUpkeep,
  });
  await fastify.register(settingsPlugin, { ttlMs: options.settingsCacheTtlMs });
  await fastify.register(helmetPlugin);
  await fastify.register(sameOriginPlugin);
  await fastify.register(sessionPlugin, {
    timeouts: options.sessionTimeouts,
    cache: options.authCache,
  });
  await fastify.register(rateLimitPlugin, { settings: options.rateLimits });
  await fastify.register(signInThrottlePlugin);
  await fastify.register(webAppPlugin);

  await fastify.register(passwordsPlugin, { params: options.passwordHashing });
  await fastify.register(authenticationPlugin);
  await fastify.register(knownDevicesPlugin);
  await fastify.register(auditPlugin);
  await fastify.register(guardsPlugin);
  await fastify.register(pushPlugin, {
    testing: options.pushTesting,
    job: options.notificationJob,
  });
  await fastify.register(inventoryAlertsPlugin);

  await fastify.register(publicRoutes, { prefix: '/api' });
  await fastify.register(protectedRoutes, { prefix: '/api', extra: options.extraProtectedRoutes });

  return fastify;
}
