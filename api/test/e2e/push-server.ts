// The API for the push end-to-end spec (tests/e2e/notifications-push.spec.ts): the real app
// configured from the environment like server.ts (embedded database in DATA_DIR, the built
// web app from WEB_DIST, its own VAPID keys) plus the test-only option that lets push
// subscriptions point at the stand-in push service on 127.0.0.1, which only code can set and
// the built server never does. Prints {"port": ...} once listening; runs until SIGTERM.
import { parseEnv } from '@rescuelog/sync-protocol/server/env';
import { buildApp } from '../../src/app';
import { resolveConfig } from '../../src/config';

const env = parseEnv(process.env);
const config = resolveConfig(env);
const app = await buildApp({
  config,
  logger: { level: env.logLevel },
  rateLimits: env.rateLimits,
  pushTesting: { allowLoopbackEndpoints: true },
});
await app.listen({ port: config.port, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: config.port })}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
