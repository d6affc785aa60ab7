// Shared pieces of the benchmarks: a real built server on a fresh embedded database, the
// results folder, and small formatting helpers. Benchmarks report; they never fail on speed.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startServer, stopServer, type ServerState } from '../e2e/support/server';

export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

export interface BenchServer {
  state: ServerState;
  /** The PostgreSQL database the server runs on, when it was given a server URL. */
  databaseUrl?: string;
  stop(): Promise<void>;
}

/**
 * BENCH_BEFORE_ENTRY: an earlier build's server.js; benchmarks that support it (api-user-vs-bare,
 * load-concurrency) measure it beside this build, in the same run. To make one:
 *   git archive <commit> | tar -x -C /tmp/before && cd /tmp/before \
 *     && npx -y pnpm@10 install --frozen-lockfile --offline \
 *     && npx -y pnpm@10 --filter @rescuelog/api build
 * then BENCH_BEFORE_ENTRY=/tmp/before/api/dist/server.js.
 */
export const BEFORE_ENTRY = process.env.BENCH_BEFORE_ENTRY;

/** The built server (`node api/dist/server.js`) on a free port with a temporary data folder. */
export async function startBenchServer(
  extraEnv: Record<string, string> = {},
  /** A PostgreSQL server URL: the server gets a fresh database on it, dropped on stop. */
  postgresServerUrl?: string,
  /** Another build's server.js (BEFORE_ENTRY) instead of this one's. */
  entry?: string,
): Promise<BenchServer> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-bench-'));
  const saved = { ...process.env };
  // BENCH_CPU_PROF_DIR: the server writes a V8 CPU profile there when it stops (node's own
  // profiler; open it in Chrome DevTools or read it with a script).
  const profile = process.env.BENCH_CPU_PROF_DIR;
  Object.assign(process.env, { LOG_LEVEL: 'warn', ...extraEnv });
  const database = postgresServerUrl ? await createBenchDatabase(postgresServerUrl) : undefined;
  try {
    const state = await startServer({
      runDir,
      ...(database ? { databaseUrl: database.url } : {}),
      ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
      ...(entry ? { entry } : {}),
    });
    return {
      state,
      ...(database ? { databaseUrl: database.url } : {}),
      async stop() {
        await stopServer(state);
        rmSync(runDir, { recursive: true, force: true });
        await database?.drop();
      },
    };
  } catch (error) {
    await database?.drop();
    throw error;
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** A new, empty database on the server of `serverUrl` (the server migrates it on start). */
export async function createBenchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => run(`drop database if exists "${name}" with (force)`),
  };
}

export function writeResult(name: string, result: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(
    RESULTS_DIR,
    `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}

/** The machine a result was measured on, saved with it (the figures mean little without it). */
export function machineInfo() {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage: loadavg().map((l) => round(l, 2)),
  };
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Headers the web app sends on writes (the API refuses cross-site state changes). */
export function writeHeaders(origin: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-requested-with': 'rescuelog', origin };
}

/** The session cookie pair ("name=value") from a response's Set-Cookie headers. */
export function sessionCookie(response: Response): string {
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  const cookie = cookies.filter((c) => c !== '').join('; ');
  if (cookie === '') throw new Error('the response set no cookie');
  return cookie;
}

/**
 * A new account, signed in: registration answers alike for new and taken emails and starts
 * no session (decision 027), so this registers and then signs in through POST /api/login.
 * `ip` goes in X-Forwarded-For (the server must trust the loopback proxy) so the per-address
 * limits see one device per account.
 */
export async function registerAndSignIn(
  origin: string,
  email: string,
  password: string,
  ip: string,
): Promise<{ cookie: string; userId: number }> {
  const headers = { ...writeHeaders(origin), 'x-forwarded-for': ip };
  const registered = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password, fullName: 'Bench User', qualifications: 'Nurse' }),
  });
  if (registered.status !== 201)
    throw new Error(`register ${email}: ${String(registered.status)} ${await registered.text()}`);
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login ${email}: ${String(login.status)} ${await login.text()}`);
  const cookie = sessionCookie(login);
  const body = (await login.json()) as { user: { id: number } };
  return { cookie, userId: body.user.id };
}
