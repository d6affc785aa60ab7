// Benchmark (issues 2 and 12): requests/s and p99 of GET /api/user with a valid session on the
// real built server, side by side in one run with a bare Fastify hello-world route and with
// an Express 5 + express-session + passport peer (express-peer-server.ts) on the same kind of
// database, and login throughput against raw argon2 hashes per second. Not a test: it prints
// numbers and ratios, it never fails because the machine is slow.
// The load generator (autocannon, this process) shares the machine with the servers: every
// figure is measured the same way, one server at a time, in BENCH_ROUNDS rounds (default 3;
// each round measures every server once, BENCH_DURATION seconds each, default 5); ratios are
// taken within a round, and the median round is reported beside the spread. The order of the
// servers turns by one each round, so no server is always measured first.
// An embedded server vacuums and analyzes its database a minute after it is ready, and then
// every 6 hours (decision 013): a once-in-6-hours upkeep charged to one 5 s window would be
// measured as a per-request cost. The measurements therefore start once every embedded server
// has finished that first upkeep; its own cost (how long it held requests up, the CPU it took)
// is measured while it runs, with a light probe, and printed apart.
// BENCH_DATABASE_URL (a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres)
// adds the server and the peer on fresh PostgreSQL databases, measured in the same rounds.
// BENCH_SKIP_LOGIN=1 leaves out the login part (argon2-bound, slow on a small machine).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { freePort } from '../e2e/support/server';
import {
  BEFORE_ENTRY,
  createBenchDatabase,
  machineInfo,
  registerAndSignIn,
  round,
  sessionCookie,
  startBenchServer,
  table,
  writeHeaders,
  writeResult,
} from './support';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = 10;
/** The API's production parameters (api/src/plugins/app/passwords.ts). */
const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
const LOGIN_ACCOUNTS = 30;
const LOGINS_PER_ACCOUNT = 8; // under the per-account limit of 10 per 15 minutes
const LOGIN_CONCURRENCY = 8;
const POSTGRES_SERVER_URL = process.env.BENCH_DATABASE_URL;
const SKIP_LOGIN = process.env.BENCH_SKIP_LOGIN === '1';
/** Issue 12's targets for GET /api/user with a session. */
export const API_USER_TARGETS = { vsBare: 0.5, vsPeer: 2 };

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  /** The server process's CPU time (user + system) per request, in microseconds. */
  serverCpuUsPerRequest?: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** A process's CPU time so far (user + system), in microseconds; NaN where /proc is missing. */
function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks / CLOCK_TICKS) * 1e6;
  } catch {
    return Number.NaN;
  }
}
/** USER_HZ: 100 on Linux. */
const CLOCK_TICKS = 100;

/** api/src/plugins/external/database.ts DATABASE_UPKEEP.firstMs. */
const FIRST_UPKEEP_MS = 60_000;
/** The probe's pace while an embedded server's first upkeep is awaited (about 20 requests/s). */
const PROBE_EVERY_MS = 50;
/** How much earlier than FIRST_UPKEEP_MS after the seen ready the upkeep's CPU is counted. */
const UPKEEP_MARGIN_MS = 2000;
/** A probe answer slower than this means the server is still held up. */
const PROBE_QUIET_MS = 100;
/** Server CPU below this share of a core, over a second, counts as idle (the cache's 1 s poll). */
const QUIET_CPU_SHARE = 0.1;
/** Give up waiting for the upkeep to end after this long past FIRST_UPKEEP_MS. */
const UPKEEP_WAIT_LIMIT_MS = 120_000;

interface UpkeepCost {
  name: string;
  /** The slowest probe answer from the server's ready until the upkeep was over. */
  longestWaitMs: number;
  /** The server's CPU time above its idle level around the upkeep, in milliseconds. */
  cpuMs: number;
  /** From the server's ready to the first quiet second after FIRST_UPKEEP_MS. */
  settledAfterS: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until an embedded server's first upkeep (decision 013) is behind it: at least
 * FIRST_UPKEEP_MS after its ready, then a second with little CPU and no slow probe answer.
 * Meanwhile one GET /api/user every PROBE_EVERY_MS measures how long the upkeep held requests
 * up, so its cost is reported rather than left out.
 */
function watchFirstUpkeep(
  name: string,
  url: string,
  headers: Record<string, string>,
  pid: number,
  readyAt: number,
): { cost: Promise<UpkeepCost>; cancel(): void } {
  let cancelled = false;
  const cost = awaitFirstUpkeep(name, url, headers, pid, readyAt, () => cancelled);
  // Awaited before the warm-up; a start-up failure meanwhile must not leave it unhandled.
  cost.catch(() => undefined);
  return {
    cost,
    cancel: () => {
      cancelled = true;
    },
  };
}

async function awaitFirstUpkeep(
  name: string,
  url: string,
  headers: Record<string, string>,
  pid: number,
  readyAt: number,
  cancelled: () => boolean,
): Promise<UpkeepCost> {
  let longestWaitMs = 0;
  let slowInLastSecond = false;
  let inFlightSince: number | undefined;
  let probing = true;
  const prober = (async () => {
    while (probing && !cancelled()) {
      const started = performance.now();
      inFlightSince = started;
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${name}: probe GET answered ${String(res.status)}`);
      const ms = performance.now() - started;
      inFlightSince = undefined;
      longestWaitMs = Math.max(longestWaitMs, ms);
      if (ms > PROBE_QUIET_MS) slowInLastSecond = true;
      await sleep(PROBE_EVERY_MS);
    }
  })();
  try {
    // The upkeep's timer starts a little before the ready answer this bench saw: count from
    // UPKEEP_MARGIN_MS earlier, against the idle level of the second before that.
    const countFrom = readyAt + FIRST_UPKEEP_MS - UPKEEP_MARGIN_MS;
    if (Date.now() > countFrom - 1000)
      throw new Error(`${name}: the probe started too late to see the server's first upkeep`);
    await sleep(countFrom - 1000 - Date.now());
    const idleFrom = cpuMicros(pid);
    await sleep(1000);
    const idlePerSecond = cpuMicros(pid) - idleFrom;
    const upkeepFrom = cpuMicros(pid);
    const upkeepStarted = Date.now();
    await sleep(Math.max(0, readyAt + FIRST_UPKEEP_MS - Date.now()));
    for (;;) {
      slowInLastSecond = false;
      const before = cpuMicros(pid);
      await sleep(1000);
      const used = cpuMicros(pid) - before;
      if (cancelled()) throw new Error(`${name}: the bench stopped`);
      const held =
        slowInLastSecond ||
        (inFlightSince !== undefined && performance.now() - inFlightSince > PROBE_QUIET_MS);
      if (!held && used < QUIET_CPU_SHARE * 1e6) break;
      if (Date.now() - upkeepStarted > UPKEEP_WAIT_LIMIT_MS)
        throw new Error(`${name}: still busy ${String(UPKEEP_WAIT_LIMIT_MS)} ms after its upkeep`);
    }
    const seconds = (Date.now() - upkeepStarted) / 1000;
    return {
      name,
      longestWaitMs: round(longestWaitMs),
      cpuMs: round(Math.max(0, cpuMicros(pid) - upkeepFrom - idlePerSecond * seconds) / 1000),
      settledAfterS: round((Date.now() - readyAt) / 1000),
    };
  } finally {
    probing = false;
    await prober;
  }
}

async function load(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  pid?: number,
): Promise<LoadResult> {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers,
  });
  const cpu = cpuMicros(pid) - cpuBefore;
  return {
    name,
    requestsPerSecond: round(result.requests.average),
    ...(Number.isFinite(cpu) && result.requests.total > 0
      ? { serverCpuUsPerRequest: round(cpu / result.requests.total, 1) }
      : {}),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

interface Child {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs a bench server script (this folder) on a free port; resolves once it says "listening". */
async function startScript(
  file: string,
  env: Record<string, string>,
  route: string,
): Promise<Child> {
  const port = await freePort();
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), file);
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${String(code)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${String(port)}${route}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const startBare = (): Promise<Child> => startScript('bare-fastify-server.ts', {}, '/hello');

const PEER_EMAIL = 'peer@example.org';
const PEER_PASSWORD = 'peer-password-1';

/**
 * The Express 5 + express-session + passport peer (express-peer-server.ts) on PGlite in a
 * temporary folder, or on a fresh PostgreSQL database; signed in, with its session cookie.
 */
async function startPeer(
  postgresServerUrl?: string,
): Promise<Child & { cookie: string; drop(): Promise<void> }> {
  const database = postgresServerUrl ? await createBenchDatabase(postgresServerUrl) : undefined;
  const dataDir = database ? undefined : mkdtempSync(path.join(os.tmpdir(), 'rescuelog-peer-'));
  const env: Record<string, string> = { PEER_EMAIL, PEER_PASSWORD };
  if (database) env.DATABASE_URL = database.url;
  else if (dataDir) env.DATA_DIR = dataDir;
  const peer = await startScript('express-peer-server.ts', env, '/api/user');
  const origin = new URL(peer.url).origin;
  const res = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: PEER_EMAIL, password: PEER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`peer login: ${String(res.status)} ${await res.text()}`);
  const cookie = sessionCookie(res);
  const me = await fetch(peer.url, { headers: { cookie } });
  if (!me.ok) throw new Error(`peer GET /api/user with the session: ${String(me.status)}`);
  return {
    ...peer,
    cookie,
    async drop() {
      await peer.stop();
      await database?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  const { cookie } = await registerAndSignIn(origin, email, 'bench-password-1', ip);
  const me = await fetch(`${origin}/api/user`, { headers: { cookie } });
  if (!me.ok) throw new Error(`GET /api/user with the session: ${String(me.status)}`);
  return cookie;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

interface Target {
  key: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  pid: number | undefined;
}

/** One line per ratio: the median of the rounds' ratios, their spread, and the target. */
interface RatioLine {
  ratio: string;
  median: number;
  min: number;
  max: number;
  target: string;
  met: boolean;
}

function ratioLine(
  rounds: Array<Record<string, LoadResult>>,
  name: string,
  top: string,
  bottom: string,
  target: number,
): RatioLine | undefined {
  const values: number[] = [];
  for (const round of rounds) {
    const a = round[top];
    const b = round[bottom];
    if (a && b && b.requestsPerSecond > 0) values.push(a.requestsPerSecond / b.requestsPerSecond);
  }
  if (values.length === 0) return undefined;
  const m = median(values);
  return {
    ratio: name,
    median: round(m, 3),
    min: round(Math.min(...values), 3),
    max: round(Math.max(...values), 3),
    target: `>= ${String(target)}x`,
    met: m >= target,
  };
}

export async function runApiBench(): Promise<Record<string, unknown>> {
  // Every server is stopped however the run ends, also when a later one fails to start.
  const stops: (() => Promise<unknown>)[] = [];
  const upkeeps: ReturnType<typeof watchFirstUpkeep>[] = [];
  try {
    // Trusting the loopback proxy lets each simulated device have its own address
    // (X-Forwarded-For), so the per-address limits do not turn the login run into 429s.
    const server = await startBenchServer({ TRUST_PROXY: 'loopback' });
    stops.push(() => server.stop());
    const serverReadyAt = Date.now();
    const origin = server.state.origin;
    // Signed in at once, so the probe of its first upkeep (the header) starts well before it.
    const cookie = await signedInCookie(origin, 'bench-admin@example.org', '10.1.0.1');
    upkeeps.push(
      watchFirstUpkeep(
        'GET /api/user (session, embedded)',
        `${origin}/api/user`,
        { cookie },
        server.state.pid,
        serverReadyAt,
      ),
    );
    const postgres = POSTGRES_SERVER_URL
      ? await startBenchServer(
          // Server mode requires a session secret of its own.
          { TRUST_PROXY: 'loopback', SESSION_SECRET: randomBytes(32).toString('hex') },
          POSTGRES_SERVER_URL,
        )
      : undefined;
    if (postgres) stops.push(() => postgres.stop());
    // BENCH_BEFORE_ENTRY: an earlier build measured beside this one (support.ts).
    const before = BEFORE_ENTRY
      ? await startBenchServer({ TRUST_PROXY: 'loopback' }, undefined, BEFORE_ENTRY)
      : undefined;
    if (before) stops.push(() => before.stop());
    const beforeReadyAt = Date.now();
    const beforeCookie = before
      ? await signedInCookie(before.state.origin, 'bench-admin@example.org', '10.1.0.1')
      : undefined;
    if (before && beforeCookie)
      upkeeps.push(
        watchFirstUpkeep(
          'GET /api/user (session, embedded, BEFORE)',
          `${before.state.origin}/api/user`,
          { cookie: beforeCookie },
          before.state.pid,
          beforeReadyAt,
        ),
      );
    const beforePg =
      BEFORE_ENTRY && POSTGRES_SERVER_URL
        ? await startBenchServer(
            { TRUST_PROXY: 'loopback', SESSION_SECRET: randomBytes(32).toString('hex') },
            POSTGRES_SERVER_URL,
            BEFORE_ENTRY,
          )
        : undefined;
    if (beforePg) stops.push(() => beforePg.stop());
    const bare = await startBare();
    stops.push(() => bare.stop());
    const peer = await startPeer();
    stops.push(() => peer.drop());
    const peerPg = POSTGRES_SERVER_URL ? await startPeer(POSTGRES_SERVER_URL) : undefined;
    if (peerPg) stops.push(() => peerPg.drop());
    const password = 'bench-password-1';
    const register = (email: string, ip: string) =>
      fetch(`${origin}/api/register`, {
        method: 'POST',
        headers: { ...writeHeaders(origin), 'x-forwarded-for': ip },
        body: JSON.stringify({ email, password, fullName: 'Bench User', qualifications: 'Nurse' }),
      });
    // The first account on the empty embedded database is an approved administrator; on
    // PostgreSQL it is pending, which GET /api/user also serves.
    const pgOrigin = postgres?.state.origin;
    const pgCookie = pgOrigin
      ? await signedInCookie(pgOrigin, 'bench-admin@example.org', '10.1.0.1')
      : undefined;
    const beforeTargets: Target[] = [];
    for (const [key, name, bench] of [
      ['embeddedBefore', 'GET /api/user (session, embedded, BEFORE)', before],
      ['postgresBefore', 'GET /api/user (session, PostgreSQL, BEFORE)', beforePg],
    ] as const) {
      if (!bench) continue;
      const at = bench.state.origin;
      beforeTargets.push({
        key,
        name,
        url: `${at}/api/user`,
        headers: {
          cookie:
            key === 'embeddedBefore' && beforeCookie
              ? beforeCookie
              : await signedInCookie(at, 'bench-admin@example.org', '10.1.0.1'),
        },
        pid: bench.state.pid,
      });
    }

    const targets: Target[] = [
      {
        key: 'embedded',
        name: 'GET /api/user (session, embedded)',
        url: `${origin}/api/user`,
        headers: { cookie },
        pid: server.state.pid,
      },
      ...(pgOrigin && pgCookie
        ? [
            {
              key: 'postgres',
              name: 'GET /api/user (session, PostgreSQL)',
              url: `${pgOrigin}/api/user`,
              headers: { cookie: pgCookie },
              pid: postgres?.state.pid,
            },
          ]
        : []),
      ...beforeTargets,
      {
        key: 'peer',
        name: 'Express peer (session, PGlite)',
        url: peer.url,
        headers: { cookie: peer.cookie },
        pid: peer.child.pid,
      },
      ...(peerPg
        ? [
            {
              key: 'peerPostgres',
              name: 'Express peer (session, PostgreSQL)',
              url: peerPg.url,
              headers: { cookie: peerPg.cookie },
              pid: peerPg.child.pid,
            },
          ]
        : []),
      {
        key: 'bare',
        name: 'bare Fastify hello-world',
        url: bare.url,
        headers: {},
        pid: bare.child.pid,
      },
    ];

    // The embedded servers' first upkeep, measured apart (the header says why).
    const upkeepCosts = await Promise.all(upkeeps.map((u) => u.cost));

    // Warm up every server, then measure them one after the other, round after round; each
    // round starts one server further down the list.
    for (const target of targets) await load('warm-up', target.url, target.headers);
    const rounds: Array<Record<string, LoadResult>> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const measured: Record<string, LoadResult> = {};
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(i + r) % targets.length];
        if (target)
          measured[target.key] = await load(target.name, target.url, target.headers, target.pid);
      }
      rounds.push(measured);
    }
    const ratios = [
      ratioLine(rounds, 'embedded / bare', 'embedded', 'bare', API_USER_TARGETS.vsBare),
      ratioLine(rounds, 'PostgreSQL / bare', 'postgres', 'bare', API_USER_TARGETS.vsBare),
      ratioLine(rounds, 'embedded / peer (PGlite)', 'embedded', 'peer', API_USER_TARGETS.vsPeer),
      ratioLine(
        rounds,
        'PostgreSQL / peer (PostgreSQL)',
        'postgres',
        'peerPostgres',
        API_USER_TARGETS.vsPeer,
      ),
      ratioLine(
        rounds,
        'BEFORE embedded / bare',
        'embeddedBefore',
        'bare',
        API_USER_TARGETS.vsBare,
      ),
      ratioLine(
        rounds,
        'BEFORE PostgreSQL / bare',
        'postgresBefore',
        'bare',
        API_USER_TARGETS.vsBare,
      ),
      ratioLine(
        rounds,
        'BEFORE embedded / peer (PGlite)',
        'embeddedBefore',
        'peer',
        API_USER_TARGETS.vsPeer,
      ),
      ratioLine(
        rounds,
        'BEFORE PostgreSQL / peer (PostgreSQL)',
        'postgresBefore',
        'peerPostgres',
        API_USER_TARGETS.vsPeer,
      ),
    ].filter((line): line is RatioLine => line !== undefined);

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
      machine: machineInfo(),
      settings: {
        durationSeconds: DURATION_SECONDS,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        loginConcurrency: LOGIN_CONCURRENCY,
        argon2: ARGON2_PARAMS,
      },
      rounds,
      ratios,
      firstUpkeep: upkeepCosts,
      login: {
        logins: loginCount,
        failures: loginFailures,
        loginsPerSecond: round(loginsPerSecond, 1),
      },
      argon2: { hashes: hashCount, hashesPerSecond: round(hashesPerSecond, 1) },
      loginVsArgon2Ratio: round(loginsPerSecond / hashesPerSecond, 3),
    };

    console.log(
      `\nAPI: GET /api/user with a valid session vs a bare Fastify route and an Express peer (same machine, same run; ${String(ROUNDS)} rounds of ${String(DURATION_SECONDS)} s, ${String(CONNECTIONS)} connections; the load generator shares the machine)`,
    );
    table(
      rounds.flatMap((measured, r) =>
        targets
          .flatMap((target) => {
            const m = measured[target.key];
            return m ? [m] : [];
          })
          .map((m) => ({
            round: r + 1,
            name: m.name,
            'req/s': m.requestsPerSecond,
            'server CPU µs/req': m.serverCpuUsPerRequest ?? '',
            'p50 ms': m.p50Ms,
            'p99 ms': m.p99Ms,
            non2xx: m.non2xx,
            errors: m.errors,
          })),
      ),
    );
    console.log('Requests/s ratios (median of the rounds, their spread, the target):');
    table(
      ratios.map((line) => ({
        ratio: line.ratio,
        median: line.median,
        'min..max': `${String(line.min)}..${String(line.max)}`,
        target: line.target,
        met: line.met ? 'yes' : 'no',
      })),
    );
    console.log('Per server, median of the rounds:');
    table(
      targets.map((target) => {
        const of = rounds.map((m) => m[target.key]).filter((m) => m !== undefined);
        const cpu = of.map((m) => m.serverCpuUsPerRequest).filter((v) => v !== undefined);
        return {
          name: target.name,
          'req/s': round(median(of.map((m) => m.requestsPerSecond))),
          'server CPU µs/req': cpu.length > 0 ? round(median(cpu), 1) : '',
        };
      }),
    );
    console.log(
      `Embedded servers' first upkeep (VACUUM (ANALYZE) ${String(FIRST_UPKEEP_MS / 1000)} s after ready, then every 6 h; decision 013), measured before the warm-up with one request every ${String(PROBE_EVERY_MS)} ms:`,
    );
    table(
      upkeepCosts.map((u) => ({
        name: u.name,
        'longest answer ms': u.longestWaitMs,
        'upkeep CPU ms': u.cpuMs,
        'settled after s': u.settledAfterS,
      })),
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
    for (const upkeep of upkeeps) upkeep.cancel();
    for (const stop of stops.reverse()) await stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runApiBench();
}
