// Shared pieces of the benchmarks: a real built server on a fresh embedded database, the
// results folder, and small formatting helpers. Benchmarks report; they never fail on speed.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** The built server (`node api/dist/server.js`) on a free port with a temporary data folder. */
export async function startBenchServer(
  extraEnv: Record<string, string> = {},
  /** A PostgreSQL server URL: the server gets a fresh database on it, dropped on stop. */
  postgresServerUrl?: string,
  /** Another build of the server to run (a baseline); the repository's api/dist otherwise. */
  serverEntry?: string,
): Promise<BenchServer> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-bench-'));
  const saved = { ...process.env };
  Object.assign(process.env, { LOG_LEVEL: 'warn', ...extraEnv });
  const database = postgresServerUrl ? await createBenchDatabase(postgresServerUrl) : undefined;
  try {
    const state = await startServer({
      runDir,
      ...(database ? { databaseUrl: database.url } : {}),
      ...(serverEntry ? { serverEntry } : {}),
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
async function createBenchDatabase(
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
