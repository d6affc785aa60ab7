// Starts and stops the real built server (`node api/dist/server.js`) for the e2e run: a
// free port, a fresh temporary DATA_DIR (embedded PGlite) and PUBLIC_ORIGIN matching the
// address the browser uses. The running server is described in a state file so any
// process of the run (global setup, a test worker, global teardown) can stop or restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { newVapidEnv } from '@rescuelog/sync-protocol/server/vapid-keys';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The built server; RESCUELOG_SERVER_ENTRY may point at api/src/server.ts (run with tsx)
 * to try the suite without building the API. */
export const SERVER_ENTRY = path.resolve(
  REPO_ROOT,
  process.env.RESCUELOG_SERVER_ENTRY ?? path.join('api', 'dist', 'server.js'),
);

const serverStateSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().positive(),
  origin: z.string().url(),
  dataDir: z.string().min(1),
  webDist: z.string().min(1),
  runDir: z.string().min(1),
});
export type ServerState = z.infer<typeof serverStateSchema>;

/** Set by global setup; inherited by the test workers it spawns. */
export const RUN_DIR_ENV = 'RESCUELOG_E2E_RUN_DIR';
export const ORIGIN_ENV = 'RESCUELOG_E2E_ORIGIN';

function stateFile(runDir: string): string {
  return path.join(runDir, 'server.json');
}

export function readServerState(runDir = process.env[RUN_DIR_ENV]): ServerState {
  if (!runDir)
    throw new Error(`${RUN_DIR_ENV} is not set: run the e2e suite through playwright.config.ts`);
  return serverStateSchema.parse(JSON.parse(readFileSync(stateFile(runDir), 'utf8')));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('could not get a free port'));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilReady(
  origin: string,
  pid: number,
  logFile: string,
  // A fresh embedded database migrates first: seconds on a quiet machine, over a minute on
  // a busy one (seen: 37 s with the load at 13 on two cores).
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) {
      throw new Error(`the server exited during start; its log (${logFile}):\n${readLog(logFile)}`);
    }
    try {
      const response = await fetch(`${origin}/api/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `the server was not ready within ${String(timeoutMs)} ms; its log (${logFile}):\n${readLog(logFile)}`,
  );
}

function readLog(logFile: string): string {
  return existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '(no log)';
}

export interface StartOptions {
  runDir: string;
  /** Reuse a port and data folder (restart after stopServer); new ones otherwise. */
  port?: number;
  dataDir?: string;
  /** The built web app the server serves; default a copy of web/dist in runDir, so a test
   * can change it (a "new version") without touching the repository's build. */
  webDist?: string;
  /** PostgreSQL instead of the embedded database (benchmarks only; e2e never sets it). */
  databaseUrl?: string;
  /** Extra node flags before the entry (benchmarks: --cpu-prof). */
  nodeArgs?: string[];
  /** Another built server than SERVER_ENTRY (benchmarks: an earlier build, side by side). */
  entry?: string;
}

function serverProcessEnv(): Record<string, string> {
  const file = path.join(REPO_ROOT, 'scripts', 'server-process-env.json');
  return z.record(z.string(), z.string()).parse(JSON.parse(readFileSync(file, 'utf8')));
}

function copyWebDist(runDir: string): string {
  const source = path.join(REPO_ROOT, 'web', 'dist');
  if (!existsSync(path.join(source, 'index.html'))) {
    throw new Error(`${source} has no index.html: run \`npx -y pnpm@10 run build\` first`);
  }
  const target = path.join(runDir, 'web-dist');
  cpSync(source, target, { recursive: true });
  return target;
}

/** Starts the server and waits for GET /api/ready. The log goes to <runDir>/server.log. */
export async function startServer(options: StartOptions): Promise<ServerState> {
  const entry = options.entry ?? SERVER_ENTRY;
  if (!existsSync(entry)) {
    throw new Error(`${entry} does not exist: run \`npx -y pnpm@10 run build\` first`);
  }
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? path.join(options.runDir, 'data');
  const webDist = options.webDist ?? copyWebDist(options.runDir);
  mkdirSync(dataDir, { recursive: true });
  const origin = `http://127.0.0.1:${String(port)}`;
  const logFile = path.join(options.runDir, 'server.log');
  const log = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    // What `npm start` gives the server process (scripts/start.mjs), so runs and benchmarks
    // see the server users run.
    ...serverProcessEnv(),
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: origin,
    WEB_DIST: webDist,
    // Every person a run registers comes from 127.0.0.1; the per-address registration limit
    // (10 an hour by default) is the API tests' subject, not the end-to-end runs'.
    RATE_LIMIT_REGISTER_IP: '200/3600',
  };
  // The e2e server is the embedded database with a fresh folder; a benchmark may name a
  // PostgreSQL database instead (options.databaseUrl).
  delete env.DATABASE_URL;
  if (options.databaseUrl !== undefined) {
    env.DATABASE_URL = options.databaseUrl;
    Object.assign(env, { ...newVapidEnv('mailto:bench@example.org'), ...env });
  }
  const nodeArgs = [
    ...(options.nodeArgs ?? []),
    ...(entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry]),
  ];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  if (child.pid === undefined) throw new Error('the server process did not start');
  const state: ServerState = {
    pid: child.pid,
    port,
    origin,
    dataDir,
    webDist,
    runDir: options.runDir,
  };
  writeFileSync(stateFile(options.runDir), JSON.stringify(state));
  await waitUntilReady(origin, child.pid, logFile);
  return state;
}

/** Stops the server (SIGTERM, then SIGKILL after 10 s) and waits until it is gone. */
export async function stopServer(state: ServerState): Promise<void> {
  if (!isAlive(state.pid)) return;
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isAlive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(state.pid)) process.kill(state.pid, 'SIGKILL');
  while (isAlive(state.pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Restarts the run's server on the same port and data folder (after stopServer). */
export async function restartServer(state: ServerState): Promise<ServerState> {
  return startServer({
    runDir: state.runDir,
    port: state.port,
    dataDir: state.dataDir,
    webDist: state.webDist,
  });
}

/**
 * Starts `node --import tsx <script>` (a path from the repository root) and waits for the
 * JSON line it prints when ready; `ready` picks what the caller needs from it. The script's
 * stderr goes to this process's. Stop it with stopChild.
 */
export async function startScript<T>(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: (line: Record<string, unknown>) => T | undefined,
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 180 s`)), 180_000);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${String(code)}`)));
    lines.on('line', (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      const value = ready(parsed as Record<string, unknown>);
      if (value !== undefined) {
        clearTimeout(timer);
        resolve(value);
      }
    });
  });
  child.removeAllListeners('exit');
  return { child, info };
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
