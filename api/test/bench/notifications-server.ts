// The API for the notification benchmark (tests/bench/notifications-send.ts): the real app
// (buildApp, the notification job, PGlite in DATA_DIR or PostgreSQL at DATABASE_URL) with the
// test-only option that lets subscriptions point at the stand-in push service on 127.0.0.1,
// which only code can set. Before it listens it seeds an administrator and one approved user
// per device in BENCH_DEVICES_FILE (each with that push subscription), then prints
// {"port": ..., "email": ..., "password": ...} and runs until SIGTERM.
import { readFileSync } from 'node:fs';
import { parseEnv } from '@rescuelog/sync-protocol/server/env';
import { buildApp } from '../../src/app';
import { resolveConfig } from '../../src/config';

interface Device {
  endpoint: string;
  p256dh: string;
  auth: string;
}

const env = parseEnv(process.env);
const devices = JSON.parse(readFileSync(process.env.BENCH_DEVICES_FILE ?? '', 'utf8')) as Device[];
const app = await buildApp({
  config: resolveConfig(env),
  logger: { level: env.logLevel },
  pushTesting: { allowLoopbackEndpoints: true },
});
const password = 'notification-bench-1';
const passwordHash = await app.passwords.hash(password);
const email = 'chief@bench.example.org';
await app.db
  .insertInto('users')
  .values({
    email,
    passwordHash,
    fullName: 'Bench Chief',
    role: 'administrator',
    status: 'approved',
  })
  .execute();
for (let i = 0; i < devices.length; i += 500) {
  const chunk = devices.slice(i, i + 500);
  const users = await app.db
    .insertInto('users')
    .values(
      chunk.map((_, j) => ({
        email: `crew${String(i + j)}@bench.example.org`,
        // Never signed in: they share one hash rather than spend 5,000 argon2 runs.
        passwordHash,
        fullName: `Crew ${String(i + j)}`,
        status: 'approved' as const,
      })),
    )
    .returning('id')
    .execute();
  await app.db
    .insertInto('pushSubscriptions')
    .values(
      chunk.map((device, j) => ({
        userId: users[j]?.id ?? 0,
        endpoint: device.endpoint,
        p256dh: device.p256dh,
        auth: device.auth,
        userAgent: 'bench device',
      })),
    )
    .execute();
}
await app.listen({ port: env.port, host: '127.0.0.1' });
const address = app.server.address();
const port = address !== null && typeof address === 'object' ? address.port : env.port;
process.stdout.write(`${JSON.stringify({ port, email, password })}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
