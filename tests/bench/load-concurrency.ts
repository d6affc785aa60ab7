// Benchmark (issue 12): latency under concurrent load on PostgreSQL. The built server on a
// fresh PostgreSQL database (BENCH_DATABASE_URL or DATABASE_URL; support.ts creates and drops
// it), LOAD_USERS (200) signed-in members, each with its own session and its own keep-alive
// connection, each running a realistic mix in a closed loop (no think time unless
// BENCH_THINK_MS): GET /api/user, the notification bell's unread count, the dashboard's
// stats, the first page of the case list, an incremental sync pull from its last cursor, and
// now and then a push of one new case. Prints p50/p90/p99 and requests/s at 50, 100 and 200
// clients, per route and overall, beside the target (p99 <= 500 ms at 200 clients).
// The load generator runs in this process on the same 2-core machine as the server and
// PostgreSQL: the figures are for the three together. The CPU each used during a level is
// printed (in cores; this machine has 2, shared with other work) so the reader can judge.
// Reports only; never fails on a slow machine.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import {
  BEFORE_ENTRY,
  type BenchServer,
  machineInfo,
  registerAndSignIn,
  round,
  startBenchServer,
  table,
  writeHeaders,
  writeResult,
} from './support';

const POSTGRES_SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const USERS = Number(process.env.LOAD_USERS ?? 200);
const LEVELS = (process.env.LOAD_LEVELS ?? '50,100,200')
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= USERS);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 15);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP ?? 3);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 0);
/**
 * Cases the administrator pushes before the run, spread over three years (spreadSeedCases):
 * the dashboard's stats count them; members see only their own (decision 024).
 */
const SEED_CASES = Number(process.env.LOAD_SEED_CASES ?? 20_000);
/** Of those, still in progress. */
const OPEN_SEED_CASES = 40;
const TARGET = { clients: 200, p99Ms: 500 };

const ROUTES = ['user', 'unread', 'stats', 'cases', 'pull', 'push'] as const;
type RouteName = (typeof ROUTES)[number];
/**
 * One client's cycle of 20 requests (a device on the dashboard: the user and the bell poll
 * often, the list and stats on navigation, a background sync pull, a push now and then).
 * Each client starts at a different place in it.
 */
const CYCLE: RouteName[] = [
  'user',
  'unread',
  'pull',
  'stats',
  'user',
  'cases',
  'unread',
  'user',
  'pull',
  'user',
  'stats',
  'unread',
  'cases',
  'user',
  'pull',
  'push',
  'user',
  'unread',
  'cases',
  'pull',
];

interface Client {
  cookie: string;
  userId: number;
  ip: string;
  deviceId: string;
  seq: number;
  cursor: string | null;
  agent: http.Agent;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request on the client's own keep-alive connection; resolves with status and body. */
function send(
  origin: URL,
  client: Client,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {
      cookie: client.cookie,
      'x-forwarded-for': client.ip,
    };
    if (payload !== undefined) {
      Object.assign(headers, writeHeaders(origin.origin));
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const req = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        method,
        path,
        agent: client.agent,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function caseMutation(client: Client) {
  const id = randomUUID();
  client.seq += 1;
  return {
    mutationId: randomUUID(),
    deviceId: client.deviceId,
    seq: client.seq,
    actorUserId: client.userId,
    name: 'case.upsert',
    args: {
      id,
      humanId: generateHumanId('C'),
      fields: {
        patientName: `Patient ${String(client.seq)}`,
        incidentType: 'MVA',
        incidentLocation: 'N2 near Somerset West',
        approximateAge: 20 + (client.seq % 60),
        avpu: 'A',
      },
    },
    entityIds: [id],
    baseVersion: null,
    clientTime: new Date().toISOString(),
    schemaVersion: SCHEMA_VERSION,
  };
}

async function call(
  origin: URL,
  client: Client,
  route: RouteName,
): Promise<{ status: number; body: string }> {
  switch (route) {
    case 'user':
      return send(origin, client, 'GET', '/api/user');
    case 'unread':
      return send(origin, client, 'GET', '/api/user/notifications/unread-count');
    case 'stats':
      return send(origin, client, 'GET', '/api/stats');
    case 'cases':
      return send(origin, client, 'GET', '/api/cases');
    case 'pull': {
      const res = await send(origin, client, 'POST', '/api/sync/pull', {
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        deviceId: client.deviceId,
        cursor: client.cursor,
        limit: 100,
      });
      if (res.status === 200) client.cursor = (JSON.parse(res.body) as { cursor: string }).cursor;
      return res;
    }
    case 'push':
      return send(origin, client, 'POST', '/api/sync/push', {
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        deviceId: client.deviceId,
        mutations: [caseMutation(client)],
      });
  }
}

/** Whether every mutation of a push's answer was applied (the bench pushes only new cases). */
function allApplied(body: string): boolean {
  const answer = JSON.parse(body) as { results?: Array<{ status?: string }> };
  return (answer.results ?? []).every((result) => result.status === 'applied');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Summary {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
}

function summarise(latencies: number[], seconds: number, errors: number): Summary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    requestsPerSecond: round(sorted.length / seconds, 0),
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
    errors,
  };
}

/** CPU ticks (user + system) of each process `pick` chooses from /proc, by pid. */
function cpuTicks(pick: (pid: number, comm: string) => boolean): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!pick(pid, comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

/**
 * CPU seconds the chosen processes used between two readings: a process that started since
 * counts whole, one that ended is missing (its last ticks unknown; the pools keep theirs open).
 */
function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100; // USER_HZ
}

/** Whether a postgres process serves `database` (its title: "postgres: <cluster>: <user> <database> …"). */
function servesDatabase(pid: number, database: string): boolean {
  try {
    const title = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return title.split(' ').includes(database);
  } catch {
    return false;
  }
}

/** The name of the PostgreSQL database a bench server runs on (this bench runs only there). */
function benchDatabaseName(server: BenchServer): string {
  if (!server.databaseUrl) throw new Error('the load bench runs on PostgreSQL: no database URL');
  return new URL(server.databaseUrl).pathname.slice(1);
}

/** The whole machine's busy CPU time in seconds (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

interface CpuShares {
  /** The API server's CPU, in cores (2 = both cores of this machine). */
  server: number;
  /** The postgres backends serving this server's database (not the machine's others), in cores. */
  postgres: number;
  /** The whole machine, in cores (the other engineers' work included). */
  machine: number;
}

interface LevelResult {
  clients: number;
  cpu: CpuShares;
  overall: Summary;
  /** Every route but the push (where the clients end up queued: see the notes). */
  withoutPush: Summary;
  routes: Record<string, Summary>;
  /** This process's (the load generator's) CPU, as a share of one core. */
  generatorCpu: number;
  /** The load generator's own event-loop delay p99 (a busy generator inflates latencies). */
  generatorLoopDelayP99Ms: number;
  statuses: Record<string, number>;
}

/** `count` clients loop over the mix for the warm-up, then for the measured duration. */
async function runLevel(
  origin: URL,
  clients: Client[],
  count: number,
  serverPid: number,
  database: string,
): Promise<LevelResult> {
  const serverCpu = () => cpuTicks((pid) => pid === serverPid);
  const postgresCpu = () =>
    cpuTicks((pid, comm) => comm === 'postgres' && servesDatabase(pid, database));
  const active = clients.slice(0, count);
  let measuring = false;
  let stop = false;
  const latencies: Record<string, number[]> = {};
  const statuses: Record<string, number> = {};
  let errors = 0;
  const loop = async (client: Client, index: number): Promise<void> => {
    let step = (index * 7) % CYCLE.length;
    while (!stop) {
      const route = CYCLE[step % CYCLE.length] ?? 'user';
      step += 1;
      const started = performance.now();
      let status = 0;
      try {
        const res = await call(origin, client, route);
        // A push answered 200 whose mutation was refused is an error too (counted as 'refused').
        status = route === 'push' && res.status === 200 && !allApplied(res.body) ? 0 : res.status;
      } catch {
        status = -1;
      }
      const ms = performance.now() - started;
      if (measuring && !stop) {
        (latencies[route] ??= []).push(ms);
        const label = status === 0 ? 'refused' : String(status);
        statuses[label] = (statuses[label] ?? 0) + 1;
        if (status < 200 || status >= 300) errors += 1;
      }
      if (THINK_MS > 0) await sleep(THINK_MS);
    }
  };
  const loops = active.map((client, i) => loop(client, i));
  await sleep(WARM_UP_SECONDS * 1000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const sharesBefore = {
    server: serverCpu(),
    postgres: postgresCpu(),
    machine: machineBusySeconds(),
  };
  const started = performance.now();
  measuring = true;
  await sleep(DURATION_SECONDS * 1000);
  stop = true;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const shares: CpuShares = {
    server: round(cpuSecondsBetween(sharesBefore.server, serverCpu()) / seconds, 2),
    postgres: round(cpuSecondsBetween(sharesBefore.postgres, postgresCpu()) / seconds, 2),
    machine: round((machineBusySeconds() - sharesBefore.machine) / seconds, 2),
  };
  delay.disable();
  await Promise.all(loops);
  const all = Object.values(latencies).flat();
  const routes: Record<string, Summary> = {};
  for (const [route, values] of Object.entries(latencies))
    routes[route] = summarise(values, seconds, 0);
  return {
    clients: count,
    cpu: shares,
    overall: summarise(all, seconds, errors),
    withoutPush: summarise(
      Object.entries(latencies)
        .filter(([route]) => route !== 'push')
        .flatMap(([, values]) => values),
      seconds,
      0,
    ),
    routes,
    generatorCpu: round((cpu.user + cpu.system) / 1e6 / seconds, 2),
    generatorLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
    statuses,
  };
}

/** Runs `tasks` with at most `concurrency` at once. */
async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await task(item);
      }
    }),
  );
}

async function post(
  origin: string,
  cookie: string,
  path: string,
  body: unknown,
  ip: string,
  method: 'POST' | 'PATCH' = 'POST',
) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { ...writeHeaders(origin), cookie, 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${String(res.status)} ${await res.text()}`);
  return res;
}

/**
 * The seed cases as a service that has run for a while has them: logged over the last three
 * years and completed, except a few opened in the last two days; then vacuumed and analysed
 * (autovacuum's work) — not 20,000 cases all opened in the last minute and still open.
 */
async function spreadSeedCases(server: BenchServer, adminId: number): Promise<void> {
  if (!server.databaseUrl) return;
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `update cases set created_at = now() - random() * interval '1095 days', status = 'completed'
       where user_id = $1`,
      [adminId],
    );
    await db.query(
      `update cases set completed_at = created_at + interval '2 hours' where user_id = $1`,
      [adminId],
    );
    await db.query(
      `update cases set status = 'in_progress', completed_at = null,
         created_at = now() - random() * interval '2 days'
       where id in (select id from cases where user_id = $1 order by random() limit $2)`,
      [adminId, OPEN_SEED_CASES],
    );
    await db.query('vacuum analyze cases');
  } finally {
    await db.end();
  }
}

interface Side {
  build: string;
  server: BenchServer;
  origin: URL;
  clients: Client[];
}

/** A server on a fresh PostgreSQL database with the seed cases and USERS signed-in members. */
async function prepare(build: string, serverUrl: string, entry?: string): Promise<Side> {
  const server = await startBenchServer(
    {
      TRUST_PROXY: 'loopback',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FIRST_USER_ADMIN: 'true',
      RATE_LIMIT_REGISTER_IP: '1000/3600',
    },
    serverUrl,
    entry,
  );
  try {
    const origin = server.state.origin;
    const originUrl = new URL(origin);
    // The first account is the administrator; it approves everyone and pushes the seed cases.
    const admin = await registerAndSignIn(
      origin,
      'load-admin@example.org',
      'load-bench-password-1',
      '10.9.0.1',
    );
    const seeder: Client = {
      cookie: admin.cookie,
      userId: admin.userId,
      ip: '10.9.0.1',
      deviceId: randomUUID(),
      seq: 0,
      cursor: null,
      agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    };
    for (let done = 0; done < SEED_CASES; done += 200) {
      const mutations = Array.from({ length: Math.min(200, SEED_CASES - done) }, () =>
        caseMutation(seeder),
      );
      const res = await send(originUrl, seeder, 'POST', '/api/sync/push', {
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        deviceId: seeder.deviceId,
        mutations,
      });
      if (res.status !== 200) throw new Error(`seed push: ${String(res.status)} ${res.body}`);
    }
    seeder.agent.destroy();
    await spreadSeedCases(server, admin.userId);

    // USERS members: registered (argon2id), signed in, approved by the administrator, each
    // with a few cases of its own and a first pull done (the loop pulls from that cursor).
    const clients: Client[] = [];
    const indexes = Array.from({ length: USERS }, (_, i) => i);
    const setupStarted = performance.now();
    await pool(indexes, 4, async (i) => {
      const ip = `10.${String(10 + Math.floor(i / 250))}.${String(i % 250)}.1`;
      const member = await registerAndSignIn(
        origin,
        `load-${String(i)}@example.org`,
        'load-bench-password-1',
        ip,
      );
      await post(
        origin,
        admin.cookie,
        `/api/admin/users/${String(member.userId)}/approve`,
        {},
        '10.9.0.1',
      );
      // A crew member who documents patients: may create and edit cases (and sees their own,
      // decision 024). Without this the loop's pushes are refused (FORBIDDEN) and the bench
      // would measure the refusal path (decision 017) instead of a crew member's push.
      await post(
        origin,
        admin.cookie,
        `/api/admin/users/${String(member.userId)}`,
        { permissions: { newCase: { read: true, create: true, edit: true, delete: false } } },
        '10.9.0.1',
        'PATCH',
      );
      clients.push({
        cookie: member.cookie,
        userId: member.userId,
        ip,
        deviceId: randomUUID(),
        seq: 0,
        cursor: null,
        agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      });
    });
    await pool(clients, 8, async (client) => {
      for (const route of ['push', 'push', 'pull'] as const) {
        const res = await call(originUrl, client, route);
        if (res.status !== 200 || (route === 'push' && !allApplied(res.body)))
          throw new Error(`set-up ${route}: ${String(res.status)} ${res.body.slice(0, 300)}`);
      }
    });
    console.log(
      `\nLoad (${build}): ${String(USERS)} members set up in ${String(round((performance.now() - setupStarted) / 1000))} s; ${String(SEED_CASES)} seed cases`,
    );
    return { build, server, origin: originUrl, clients };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function runLoadBench(): Promise<Record<string, unknown> | undefined> {
  if (!POSTGRES_SERVER_URL) {
    console.log('\nLoad: skipped (set BENCH_DATABASE_URL to a PostgreSQL server)');
    return undefined;
  }
  const sides: Side[] = [];
  try {
    // BENCH_BEFORE_ENTRY: an earlier build, measured level by level beside this one.
    if (BEFORE_ENTRY) sides.push(await prepare('before', POSTGRES_SERVER_URL, BEFORE_ENTRY));
    sides.push(await prepare('this build', POSTGRES_SERVER_URL));

    const levels: Array<LevelResult & { build: string }> = [];
    for (const count of LEVELS) {
      for (const side of sides) {
        const level = await runLevel(
          side.origin,
          side.clients,
          count,
          side.server.state.pid,
          benchDatabaseName(side.server),
        );
        levels.push({ build: side.build, ...level });
        console.log(
          `  ${side.build}, ${String(count)} clients: ${String(level.overall.requestsPerSecond)} req/s, p50 ${String(level.overall.p50Ms)} ms, p99 ${String(level.overall.p99Ms)} ms`,
        );
      }
    }

    const atTarget = levels.find((l) => l.clients === TARGET.clients && l.build === 'this build');
    const result = {
      machine: machineInfo(),
      settings: {
        users: USERS,
        durationSeconds: DURATION_SECONDS,
        warmUpSeconds: WARM_UP_SECONDS,
        thinkMs: THINK_MS,
        seedCases: SEED_CASES,
        cycle: CYCLE,
      },
      target: TARGET,
      levels,
      ...(atTarget ? { met: atTarget.overall.p99Ms <= TARGET.p99Ms } : {}),
    };

    console.log(
      `\nLoad on PostgreSQL: ${String(USERS)} signed-in members, closed loop${THINK_MS > 0 ? ` with ${String(THINK_MS)} ms think time` : ' (no think time)'}, ${String(DURATION_SECONDS)} s per level (the load generator shares the machine with the server and PostgreSQL; CPU in cores of 2)`,
    );
    table(
      levels.map((l) => ({
        ...(sides.length > 1 ? { build: l.build } : {}),
        clients: l.clients,
        'req/s': l.overall.requestsPerSecond,
        'p50 ms': l.overall.p50Ms,
        'p90 ms': l.overall.p90Ms,
        'p99 ms': l.overall.p99Ms,
        'max ms': l.overall.maxMs,
        'p99 ms w/o push': l.withoutPush.p99Ms,
        errors: l.overall.errors,
        'CPU server': l.cpu.server,
        'CPU postgres': l.cpu.postgres,
        'CPU generator': l.generatorCpu,
        'CPU machine': l.cpu.machine,
        target: l.clients === TARGET.clients ? `p99 <= ${String(TARGET.p99Ms)} ms` : '',
      })),
    );
    console.log('Per route (p50 / p99 ms):');
    table(
      levels.map((l) => {
        const row: Record<string, string | number> = {
          ...(sides.length > 1 ? { build: l.build } : {}),
          clients: l.clients,
        };
        for (const route of ROUTES) {
          const s = l.routes[route];
          row[route] = s ? `${String(s.p50Ms)} / ${String(s.p99Ms)}` : '';
        }
        return row;
      }),
    );
    if (atTarget)
      console.log(
        `p99 at ${String(TARGET.clients)} clients: ${String(atTarget.overall.p99Ms)} ms (target <= ${String(TARGET.p99Ms)} ms): ${atTarget.overall.p99Ms <= TARGET.p99Ms ? 'met' : 'not met'}; without the pushes ${String(atTarget.withoutPush.p99Ms)} ms. With no think time the clients end up queued at the narrowest route, the push (decision 033: its statements' round trips in the server).`,
      );
    console.log(`Saved ${writeResult('load-concurrency', result)}`);
    return result;
  } finally {
    for (const side of sides) {
      for (const client of side.clients) client.agent.destroy();
      await side.server.stop();
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runLoadBench();
}
