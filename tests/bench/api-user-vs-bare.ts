// Benchmark (issue 2): requests/s and p99 of GET /api/user with a valid session on the
// real built server, side by side in one run with a bare Fastify hello-world route on the
// same machine, and login throughput against raw argon2 hashes per second. Not a test:
// it prints numbers and ratios, it never fails because the machine is slow.
// BENCH_DATABASE_URL (a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres)
// adds the same server on a fresh PostgreSQL database, measured in the same run.
// BENCH_SKIP_LOGIN=1 leaves out the login part (argon2-bound, slow on a small machine).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { freePort } from '../e2e/support/server';
import {
  round,
  sessionCookie,
  startBenchServer,
  table,
  writeHeaders,
  writeResult,
} from './support';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 10;
/** The API's production parameters (api/src/plugins/app/passwords.ts). */
const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
const LOGIN_ACCOUNTS = 30;
const LOGINS_PER_ACCOUNT = 8; // under the per-account limit of 10 per 15 minutes
const LOGIN_CONCURRENCY = 8;
const POSTGRES_SERVER_URL = process.env.BENCH_DATABASE_URL;
const SKIP_LOGIN = process.env.BENCH_SKIP_LOGIN === '1';

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function load(
  name: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers,
  });
  return {
    name,
    requestsPerSecond: round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-fastify-server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${String(code)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  return { url: `http://127.0.0.1:${String(port)}/hello`, child };
}

/** Runs `count` tasks with at most `concurrency` at once; returns the elapsed seconds. */
async function timed(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        await task(i);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function signedInCookie(origin: string, email: string, ip: string): Promise<string> {
  const res = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: { ...writeHeaders(origin), 'x-forwarded-for': ip },
    body: JSON.stringify({
      email,
      password: 'bench-password-1',
      fullName: 'Bench User',
      qualifications: 'Nurse',
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${String(res.status)} ${await res.text()}`);
  const cookie = sessionCookie(res);
  const me = await fetch(`${origin}/api/user`, { headers: { cookie } });
  if (!me.ok) throw new Error(`GET /api/user with the session: ${String(me.status)}`);
  return cookie;
}

export async function runApiBench(): Promise<Record<string, unknown>> {
  // Trusting the loopback proxy lets each simulated device have its own address
  // (X-Forwarded-For), so the per-address limits do not turn the login run into 429s.
  const server = await startBenchServer({ TRUST_PROXY: 'loopback' });
  const origin = server.state.origin;
  const postgres = POSTGRES_SERVER_URL
    ? await startBenchServer(
        // Server mode requires a session secret of its own.
        { TRUST_PROXY: 'loopback', SESSION_SECRET: randomBytes(32).toString('hex') },
        POSTGRES_SERVER_URL,
      )
    : undefined;
  const bare = await startBare();
  try {
    const password = 'bench-password-1';
    const register = (email: string, ip: string) =>
      fetch(`${origin}/api/register`, {
        method: 'POST',
        headers: { ...writeHeaders(origin), 'x-forwarded-for': ip },
        body: JSON.stringify({ email, password, fullName: 'Bench User', qualifications: 'Nurse' }),
      });
    // The first account on the empty embedded database is an approved administrator; on
    // PostgreSQL it is pending, which GET /api/user also serves.
    const cookie = await signedInCookie(origin, 'bench-admin@example.org', '10.1.0.1');
    const pgOrigin = postgres?.state.origin;
    const pgCookie = pgOrigin
      ? await signedInCookie(pgOrigin, 'bench-admin@example.org', '10.1.0.1')
      : undefined;

    // Warm up every server, then measure them one after the other in this same run.
    await load('warm-up', `${origin}/api/user`, { cookie });
    if (pgOrigin && pgCookie) await load('warm-up', `${pgOrigin}/api/user`, { cookie: pgCookie });
    await load('warm-up', bare.url);
    const apiUser = await load('GET /api/user (session, embedded)', `${origin}/api/user`, {
      cookie,
    });
    const apiUserPg =
      pgOrigin && pgCookie
        ? await load('GET /api/user (session, PostgreSQL)', `${pgOrigin}/api/user`, {
            cookie: pgCookie,
          })
        : undefined;
    const hello = await load('bare Fastify hello-world', bare.url);

    // Login throughput: real logins (argon2id verify, session regeneration, audit row).
    const emails: string[] = [];
    const loginAccounts = SKIP_LOGIN ? 0 : LOGIN_ACCOUNTS;
    for (let i = 0; i < loginAccounts; i++) {
      const email = `bench-${String(i)}@example.org`;
      const res = await register(email, `10.2.${String(i)}.1`);
      if (res.status !== 201)
        throw new Error(`register ${email}: ${String(res.status)} ${await res.text()}`);
      emails.push(email);
    }
    const loginCount = loginAccounts * LOGINS_PER_ACCOUNT;
    let loginFailures = 0;
    const loginSeconds = await timed(loginCount, LOGIN_CONCURRENCY, async (i) => {
      const res = await fetch(`${origin}/api/login`, {
        method: 'POST',
        headers: {
          ...writeHeaders(origin),
          'x-forwarded-for': `10.3.${String(i % 250)}.${String(Math.floor(i / 250) + 1)}`,
        },
        body: JSON.stringify({ email: emails[i % emails.length], password }),
      });
      if (!res.ok) loginFailures++;
      await res.arrayBuffer();
    });
    const loginsPerSecond = loginCount / loginSeconds;

    const hashCount = SKIP_LOGIN ? 0 : 200;
    const hashSeconds = await timed(hashCount, LOGIN_CONCURRENCY, async (i) => {
      await hash(`password-${String(i)}`, ARGON2_PARAMS);
    });
    const hashesPerSecond = hashCount / hashSeconds;

    const result = {
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model ?? 'unknown',
        node: process.version,
      },
      settings: {
        durationSeconds: DURATION_SECONDS,
        connections: CONNECTIONS,
        loginConcurrency: LOGIN_CONCURRENCY,
        argon2: ARGON2_PARAMS,
      },
      apiUser,
      ...(apiUserPg ? { apiUserPostgres: apiUserPg } : {}),
      bareHello: hello,
      apiUserVsBare: {
        requestsPerSecondRatio: round(apiUser.requestsPerSecond / hello.requestsPerSecond, 3),
        p99Ratio: round(apiUser.p99Ms / Math.max(hello.p99Ms, 1), 2),
      },
      ...(apiUserPg
        ? {
            apiUserPostgresVsBare: {
              requestsPerSecondRatio: round(
                apiUserPg.requestsPerSecond / hello.requestsPerSecond,
                3,
              ),
              p99Ratio: round(apiUserPg.p99Ms / Math.max(hello.p99Ms, 1), 2),
            },
          }
        : {}),
      login: {
        logins: loginCount,
        failures: loginFailures,
        loginsPerSecond: round(loginsPerSecond, 1),
      },
      argon2: { hashes: hashCount, hashesPerSecond: round(hashesPerSecond, 1) },
      loginVsArgon2Ratio: round(loginsPerSecond / hashesPerSecond, 3),
    };

    console.log(
      '\nAPI: GET /api/user with a valid session vs a bare Fastify route (same machine, same run)',
    );
    table(
      [apiUser, ...(apiUserPg ? [apiUserPg] : []), hello].map(
        ({ name, requestsPerSecond, p50Ms, p99Ms, non2xx, errors }) => ({
          name,
          'req/s': requestsPerSecond,
          'p50 ms': p50Ms,
          'p99 ms': p99Ms,
          non2xx,
          errors,
        }),
      ),
    );
    console.log(
      `GET /api/user (embedded) reaches ${String(result.apiUserVsBare.requestsPerSecondRatio)}x the bare route's requests/s; p99 is ${String(result.apiUserVsBare.p99Ratio)}x (target: >= 0.5x).`,
    );
    if (result.apiUserPostgresVsBare)
      console.log(
        `GET /api/user (PostgreSQL) reaches ${String(result.apiUserPostgresVsBare.requestsPerSecondRatio)}x the bare route's requests/s; p99 is ${String(result.apiUserPostgresVsBare.p99Ratio)}x (target: >= 0.5x).`,
      );
    if (SKIP_LOGIN) console.log('\nLogin: skipped (BENCH_SKIP_LOGIN=1)');
    else {
      console.log(
        `\nLogin: ${String(result.login.loginsPerSecond)} logins/s (${String(loginFailures)} failed of ${String(loginCount)}, concurrency ${String(LOGIN_CONCURRENCY)})`,
      );
      console.log(
        `argon2id (${String(ARGON2_PARAMS.memoryCost)} KiB, t=${String(ARGON2_PARAMS.timeCost)}): ${String(result.argon2.hashesPerSecond)} hashes/s at the same concurrency`,
      );
      console.log(
        `Login throughput is ${String(result.loginVsArgon2Ratio)}x raw argon2 (1.0 = the hash is the whole cost).`,
      );
    }
    console.log(`Saved ${writeResult('api-user-vs-bare', result)}`);
    return result;
  } finally {
    bare.child.kill('SIGTERM');
    await server.stop();
    await postgres?.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runApiBench();
}
