// Server-side sync throughput on both databases (issue 12): the built server, on the embedded
// database (PGlite) and on PostgreSQL side by side in one run, measured the same way:
// - push: 1,000 new cases from one device in pushes of 200 (the protocol's most), mutations/s;
// - pull: a new device's initial pull of every row (13,800 by default) in pages of 1,000,
//   rows/s;
// - the server's resident memory idle after start and after the load;
// - what the data takes on disk (the embedded data folder; PostgreSQL's database size).
// Targets from the issue are printed next to the figures. Reports only.
// PostgreSQL comes from BENCH_DATABASE_URL (or DATABASE_URL): a database is created for the
// run and dropped afterwards (support.ts); without one, only the embedded side runs.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import {
  round,
  sessionCookie,
  startBenchServer,
  table,
  writeHeaders,
  writeResult,
} from './support';

const PUSH_MUTATIONS = 1000;
const PULL_ROWS = Number(process.env.BENCH_PULL_ROWS ?? 13_800);
const BATCH = 200;
const PAGE = 1000;

const TARGETS = { pushPerSecond: 5000, pullRowsPerSecond: 10_000, idleMiB: 200 };

function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return kib / 1024;
  } catch {
    return Number.NaN;
  }
}

function folderMiB(folder: string): number {
  try {
    return Number(execFileSync('du', ['-sk', folder], { encoding: 'utf8' }).split('\t')[0]) / 1024;
  } catch {
    return Number.NaN;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Client {
  origin: string;
  cookie: string;
  userId: number;
}

async function signUp(origin: string): Promise<Client> {
  const response = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: writeHeaders(origin),
    body: JSON.stringify({
      email: 'throughput@example.org',
      password: 'throughput-bench-1',
      fullName: 'Throughput Bench',
      qualifications: 'Nurse',
    }),
  });
  if (!response.ok)
    throw new Error(`register: ${String(response.status)} ${await response.text()}`);
  // Registration starts no session (decision 027): sign in (the first account is the
  // administrator, approved).
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: writeHeaders(origin),
    body: JSON.stringify({ email: 'throughput@example.org', password: 'throughput-bench-1' }),
  });
  if (!login.ok) throw new Error(`login: ${String(login.status)} ${await login.text()}`);
  const cookie = sessionCookie(login);
  const me = await fetch(`${origin}/api/user`, { headers: { cookie } });
  const body = (await me.json()) as { user: { id: number } };
  return { origin, cookie, userId: body.user.id };
}

async function post(client: Client, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${client.origin}${path}`, {
    method: 'POST',
    headers: { ...writeHeaders(client.origin), cookie: client.cookie },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${String(response.status)} ${await response.text()}`);
  return response.json();
}

function caseMutation(client: Client, deviceId: string, seq: number) {
  const id = randomUUID();
  return {
    mutationId: randomUUID(),
    deviceId,
    seq,
    actorUserId: client.userId,
    name: 'case.upsert',
    args: {
      id,
      humanId: generateHumanId('C'),
      fields: {
        patientName: `Patient ${String(seq)}`,
        incidentType: 'MVA',
        incidentLocation: 'N2 near Somerset West',
        approximateAge: 20 + (seq % 60),
        avpu: 'A',
      },
    },
    entityIds: [id],
    baseVersion: null,
    clientTime: new Date().toISOString(),
    schemaVersion: SCHEMA_VERSION,
  };
}

/** Pushes `count` new cases from a new device; the time in ms. */
async function pushCases(client: Client, count: number): Promise<number> {
  const deviceId = randomUUID();
  const started = performance.now();
  for (let seq = 1; seq <= count; seq += BATCH) {
    const mutations = [];
    for (let i = seq; i < Math.min(seq + BATCH, count + 1); i += 1)
      mutations.push(caseMutation(client, deviceId, i));
    await post(client, '/api/sync/push', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations,
    });
  }
  return performance.now() - started;
}

/** A new device's pull of everything: rows and ms. */
async function pullAll(client: Client): Promise<{ rows: number; ms: number }> {
  const deviceId = randomUUID();
  let cursor: string | null = null;
  let rows = 0;
  const started = performance.now();
  for (;;) {
    const page = (await post(client, '/api/sync/pull', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      cursor,
      limit: PAGE,
    })) as { cursor: string; hasMore: boolean; changes: unknown[] };
    rows += page.changes.length;
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  return { rows, ms: performance.now() - started };
}

interface Side {
  database: string;
  idleMiB: number;
  pushPerSecond: number;
  pullRowsPerSecond: number;
  pulledRows: number;
  afterLoadMiB: number;
  dataMiB: number;
}

async function measure(database: 'embedded' | 'postgresql', serverUrl?: string): Promise<Side> {
  const server = await startBenchServer(
    serverUrl ? { SESSION_SECRET: 'bench-secret-'.padEnd(48, 'x'), FIRST_USER_ADMIN: 'true' } : {},
    serverUrl,
  );
  const url = server.databaseUrl;
  try {
    await sleep(3000);
    const idleMiB = rssMiB(server.state.pid);
    const client = await signUp(server.state.origin);
    // Warm-up (JIT, plans), then the measured push.
    await pushCases(client, 200);
    const pushMs = await pushCases(client, PUSH_MUTATIONS);
    // Fill to the pull's size (warm-up and measured push included), then a new device pulls.
    const have = 200 + PUSH_MUTATIONS;
    if (PULL_ROWS > have) await pushCases(client, PULL_ROWS - have);
    const pull = await pullAll(client);
    const afterLoadMiB = rssMiB(server.state.pid);
    let dataMiB = folderMiB(server.state.dataDir);
    if (url) {
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const { rows } = await db.query<{ bytes: string }>(
        'select pg_database_size(current_database()) as bytes',
      );
      await db.end();
      dataMiB = Number(rows[0]?.bytes ?? Number.NaN) / 1024 / 1024;
    }
    return {
      database,
      idleMiB: round(idleMiB),
      pushPerSecond: round((PUSH_MUTATIONS / pushMs) * 1000, 0),
      pullRowsPerSecond: round((pull.rows / pull.ms) * 1000, 0),
      pulledRows: pull.rows,
      afterLoadMiB: round(afterLoadMiB),
      dataMiB: round(dataMiB),
    };
  } finally {
    await server.stop();
  }
}

export async function runSyncThroughputBench(): Promise<Record<string, unknown>> {
  const sides: Side[] = [await measure('embedded')];
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (base) sides.push(await measure('postgresql', base));
  console.log(
    `\nSync throughput: push of ${String(PUSH_MUTATIONS)} mutations in pushes of ${String(BATCH)}, a new device's pull of every row in pages of ${String(PAGE)}`,
  );
  table(
    sides.map((side) => ({
      database: side.database,
      'push /s': side.pushPerSecond,
      'push ÷ target': round(side.pushPerSecond / TARGETS.pushPerSecond, 2),
      'pull rows/s': side.pullRowsPerSecond,
      'pull ÷ target': round(side.pullRowsPerSecond / TARGETS.pullRowsPerSecond, 2),
      'idle MiB': side.idleMiB,
      'after load MiB': side.afterLoadMiB,
      'data MiB': side.dataMiB,
    })),
  );
  const [embedded, postgres] = sides;
  if (embedded && postgres) {
    console.log(
      `embedded ÷ PostgreSQL: push ${String(round(embedded.pushPerSecond / postgres.pushPerSecond, 2))}×, pull ${String(round(embedded.pullRowsPerSecond / postgres.pullRowsPerSecond, 2))}×, data ${String(round(embedded.dataMiB / postgres.dataMiB, 2))}× (target ≤ 2×)`,
    );
  }
  const result = { targets: TARGETS, sides };
  console.log(`written to ${writeResult('sync-throughput', result)}`);
  return result;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runSyncThroughputBench();
