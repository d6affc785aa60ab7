// Server-side sync throughput on both databases (issue 12): the built server, on the embedded
// database (PGlite) and on PostgreSQL side by side in one run, measured the same way:
// - push: 1,000 new cases from one device in pushes of 200 (the protocol's most), mutations/s
//   (the figure); then, for the push's reads, 1,000 edits of those cases and 1,000
//   vital signs recorded on them (each reads its case), in pushes of 200;
// - pull: a new device's initial pull of every row (13,800 by default) in pages of 1,000,
//   rows/s; each page read as a device reads it (pullAnswerSchema: the answer checked and, for
//   a rows page, its records rebuilt, decision 051), so a build that answers in another form
//   is measured with the work that form leaves to the device;
// - latency of single requests: a push of one edit (an autosave: one commit, so one flush of
//   the log on the embedded database, decision 034) and GET /api/cases, p50/p95 of
//   SINGLE_REQUESTS each;
// - the server's resident memory idle after start and after the load;
// - what the data takes on disk (the embedded data folder; PostgreSQL's database size);
// - the engine alone (support/engine-floor.ts, decision 053): the push's 1,000 new cases
//   committed straight into a table with only a primary key, alternating with the pushes, so
//   that a push figure is read against what the same machine's engine does at that moment.
// Targets from the issue are printed next to the figures. Reports only.
// PostgreSQL comes from BENCH_DATABASE_URL (or DATABASE_URL): a database is created for the
// run and dropped afterwards (support.ts); without one, only the embedded side runs.
// BENCH_BEFORE_ENTRY=<an earlier build's api/dist/server.js> (support.ts) measures that build
// too: both servers run at once on each database, every phase alternates between them and
// repeats (BENCH_ROUNDS, 3; the median counts), and this build ÷ before is printed.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { pullAnswerSchema } from '@rescuelog/sync-protocol/platform/push-pull';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import {
  BEFORE_ENTRY,
  registerAndSignIn,
  round,
  startBenchServer,
  table,
  writeHeaders,
  writeResult,
} from './support';
import { openEngineFloor } from './support/engine-floor';

const PUSH_MUTATIONS = 1000;
const PULL_ROWS = Number(process.env.BENCH_PULL_ROWS ?? 13_800);
const BATCH = 200;
const PAGE = 1000;
/** Single requests timed one by one (per build and round) for their latency. */
const SINGLE_REQUESTS = 50;
/** Each measured phase runs this many times (the median counts). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const TARGETS = { pushPerSecond: 5000, pullRowsPerSecond: 10_000, idleMiB: 200 };

export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return kib / 1024;
  } catch {
    return Number.NaN;
  }
}

export function folderMiB(folder: string): number {
  try {
    return Number(execFileSync('du', ['-sk', folder], { encoding: 'utf8' }).split('\t')[0]) / 1024;
  } catch {
    return Number.NaN;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Client {
  origin: string;
  cookie: string;
  userId: number;
}

/** Registers the first account (its administrator) and signs in: registering opens no
 * session (decision 027). */
export async function signUp(origin: string): Promise<Client> {
  // The first account: the administrator (FIRST_USER_ADMIN), approved, who sees every case.
  const { cookie, userId } = await registerAndSignIn(
    origin,
    'throughput@example.org',
    'throughput-bench-1',
    '127.0.0.1',
  );
  return { origin, cookie, userId };
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

function envelope(
  client: Client,
  deviceId: string,
  seq: number,
  name: string,
  args: Record<string, unknown>,
  entityIds: string[],
) {
  return {
    mutationId: randomUUID(),
    deviceId,
    seq,
    actorUserId: client.userId,
    name,
    args,
    entityIds,
    baseVersion: null,
    clientTime: new Date().toISOString(),
    schemaVersion: SCHEMA_VERSION,
  };
}

/** Mutation `i` of a kind of push: a new case, an edit of a case, a vital sign on a case. */
type Make = (client: Client, deviceId: string, seq: number) => ReturnType<typeof envelope>;

/**
 * The arguments of the new case `seq` (also the engine floor's rows). The app starts every case
 * with the signed-in responder's name and call sign (`newCaseDefaults`), so these do too: a
 * case's responder enters the responder search indexes as the app's cases do.
 */
function newCaseArgs(seq: number) {
  return {
    id: randomUUID(),
    humanId: generateHumanId('C'),
    fields: {
      responderName: `Responder ${String(seq % 40)}`,
      responderCallSign: `R${String(seq % 40)}`,
      patientName: `Patient ${String(seq)}`,
      incidentType: 'MVA',
      incidentLocation: 'N2 near Somerset West',
      approximateAge: 20 + (seq % 60),
      avpu: 'A',
    },
  };
}

function newCase(created: string[]): Make {
  return (client, deviceId, seq) => {
    const args = newCaseArgs(seq);
    created.push(args.id);
    return envelope(client, deviceId, seq, 'case.upsert', args, [args.id]);
  };
}

/** Spread over the cases: consecutive mutations touch different ones (a fixed stride). */
const pick = (cases: string[], seq: number): string => cases[(seq * 7919) % cases.length] ?? '';

function caseEdit(cases: string[]): Make {
  return (client, deviceId, seq) => {
    const id = pick(cases, seq);
    return envelope(
      client,
      deviceId,
      seq,
      'case.upsert',
      { id, fields: { patientName: `Edited ${String(seq)}`, approximateAge: 20 + (seq % 70) } },
      [id],
    );
  };
}

function vitalSign(cases: string[]): Make {
  return (client, deviceId, seq) => {
    const caseId = pick(cases, seq);
    const id = randomUUID();
    return envelope(
      client,
      deviceId,
      seq,
      'vitalSign.record',
      {
        id,
        caseId,
        type: 'heartRate',
        value: String(60 + (seq % 60)),
        numericValue: 60 + (seq % 60),
        timestamp: new Date().toISOString(),
      },
      [id, caseId],
    );
  };
}

/** Pushes `count` mutations from a new device in pushes of BATCH; the time in ms. */
async function pushMany(client: Client, count: number, make: Make): Promise<number> {
  const deviceId = randomUUID();
  const started = performance.now();
  for (let seq = 1; seq <= count; seq += BATCH) {
    const mutations = [];
    for (let i = seq; i < Math.min(seq + BATCH, count + 1); i += 1)
      mutations.push(make(client, deviceId, i));
    const answer = (await post(client, '/api/sync/push', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations,
    })) as { results: { status: string }[] };
    if (answer.results.some((r) => r.status !== 'applied'))
      throw new Error('the bench push had a mutation that was not applied');
  }
  return performance.now() - started;
}

/** `count` pushes of one mutation each from a new device, one after the other: each one's ms. */
async function pushOneByOne(client: Client, count: number, make: Make): Promise<number[]> {
  const deviceId = randomUUID();
  const times: number[] = [];
  for (let seq = 1; seq <= count; seq += 1) {
    const started = performance.now();
    await post(client, '/api/sync/push', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations: [make(client, deviceId, seq)],
    });
    times.push(performance.now() - started);
  }
  return times;
}

/** `count` GETs of the first page of the case list, one after the other: each one's ms. */
async function getCasesOneByOne(client: Client, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await fetch(`${client.origin}/api/cases`, {
      headers: { cookie: client.cookie },
    });
    if (!response.ok) throw new Error(`/api/cases: ${String(response.status)}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

/** Pushes `count` new cases from a new device in pushes of BATCH; the time in ms. */
export async function pushCases(client: Client, count: number): Promise<number> {
  return pushMany(client, count, newCase([]));
}

/** A new device's pull of everything: rows and ms. */
export async function pullAll(client: Client): Promise<{ rows: number; ms: number }> {
  const deviceId = randomUUID();
  let cursor: string | null = null;
  let rows = 0;
  const started = performance.now();
  for (;;) {
    const page = pullAnswerSchema.parse(
      await post(client, '/api/sync/pull', {
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        deviceId,
        cursor,
        limit: PAGE,
      }),
    );
    rows += page.changes.length;
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  return { rows, ms: performance.now() - started };
}

interface Side {
  database: string;
  build: string;
  idleMiB: number;
  pushPerSecond: number;
  /** The engine alone on this machine (support/engine-floor.ts), rows/s; one per database. */
  enginePerSecond: number;
  pushEditsPerSecond: number;
  pushVitalsPerSecond: number;
  pullRowsPerSecond: number;
  pulledRows: number;
  singlePushP50Ms: number;
  singlePushP95Ms: number;
  getCasesP50Ms: number;
  getCasesP95Ms: number;
  afterLoadMiB: number;
  dataMiB: number;
}

/** The median of measured times (ms). */
function median(values: number[]): number {
  return percentile(values, 50);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/**
 * Every build on one database, at the same time: each measured phase runs build after
 * build, ROUNDS times, and the median counts, so a burst of load on the shared machine
 * falls on all of them alike.
 */
async function measureDatabase(
  database: 'embedded' | 'postgresql',
  serverUrl: string | undefined,
  builds: { name: string; entry?: string }[],
): Promise<Side[]> {
  const servers: Awaited<ReturnType<typeof startBenchServer>>[] = [];
  const floor = await openEngineFloor(serverUrl);
  const floorMs: number[] = [];
  try {
    for (const build of builds)
      servers.push(
        await startBenchServer(
          serverUrl
            ? { SESSION_SECRET: 'bench-secret-'.padEnd(48, 'x'), FIRST_USER_ADMIN: 'true' }
            : {},
          serverUrl,
          build.entry,
        ),
      );
    await sleep(3000);
    const idleMiB = servers.map((server) => rssMiB(server.state.pid));
    const runs = [];
    for (const server of servers)
      runs.push({
        client: await signUp(server.state.origin),
        cases: [] as string[],
        push: [] as number[],
        edits: [] as number[],
        vitals: [] as number[],
        pull: [] as { rows: number; ms: number }[],
        singlePush: [] as number[],
        getCases: [] as number[],
      });
    // Warm-up (JIT, plans), then the measured pushes, build after build.
    for (const run of runs) await pushMany(run.client, BATCH, newCase(run.cases));
    await floor.write(BATCH, BATCH, newCaseArgs);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const run of runs)
        run.push.push(await pushMany(run.client, PUSH_MUTATIONS, newCase(run.cases)));
      floorMs.push(await floor.write(PUSH_MUTATIONS, BATCH, newCaseArgs));
      for (const run of runs)
        run.edits.push(await pushMany(run.client, PUSH_MUTATIONS, caseEdit(run.cases)));
      for (const run of runs)
        run.vitals.push(await pushMany(run.client, PUSH_MUTATIONS, vitalSign(run.cases)));
      for (const run of runs)
        run.singlePush.push(
          ...(await pushOneByOne(run.client, SINGLE_REQUESTS, caseEdit(run.cases))),
        );
      for (const run of runs)
        run.getCases.push(...(await getCasesOneByOne(run.client, SINGLE_REQUESTS)));
    }
    // Fill to the pull's size (the cases and vital signs so far included; edits add no row),
    // then new devices pull.
    const have = BATCH + 2 * ROUNDS * PUSH_MUTATIONS;
    for (const run of runs)
      if (PULL_ROWS > have) await pushMany(run.client, PULL_ROWS - have, newCase(run.cases));
    for (let round = 0; round < ROUNDS; round += 1)
      for (const run of runs) run.pull.push(await pullAll(run.client));
    const sides: Side[] = [];
    for (const [i, run] of runs.entries()) {
      const server = servers[i];
      if (!server) continue;
      let dataMiB = folderMiB(server.state.dataDir);
      if (server.databaseUrl) {
        const db = new pg.Client({ connectionString: server.databaseUrl });
        await db.connect();
        const { rows } = await db.query<{ bytes: string }>(
          'select pg_database_size(current_database()) as bytes',
        );
        await db.end();
        dataMiB = Number(rows[0]?.bytes ?? Number.NaN) / 1024 / 1024;
      }
      const pulled = run.pull[0]?.rows ?? 0;
      sides.push({
        database,
        build: builds[i]?.name ?? '',
        idleMiB: round(idleMiB[i] ?? Number.NaN),
        pushPerSecond: round((PUSH_MUTATIONS / median(run.push)) * 1000, 0),
        enginePerSecond: round((PUSH_MUTATIONS / median(floorMs)) * 1000, 0),
        pushEditsPerSecond: round((PUSH_MUTATIONS / median(run.edits)) * 1000, 0),
        pushVitalsPerSecond: round((PUSH_MUTATIONS / median(run.vitals)) * 1000, 0),
        pullRowsPerSecond: round((pulled / median(run.pull.map((p) => p.ms))) * 1000, 0),
        pulledRows: pulled,
        singlePushP50Ms: round(percentile(run.singlePush, 50), 1),
        singlePushP95Ms: round(percentile(run.singlePush, 95), 1),
        getCasesP50Ms: round(percentile(run.getCases, 50), 1),
        getCasesP95Ms: round(percentile(run.getCases, 95), 1),
        afterLoadMiB: round(rssMiB(server.state.pid)),
        dataMiB: round(dataMiB),
      });
    }
    return sides;
  } finally {
    for (const server of servers) await server.stop();
    await floor.close();
  }
}

export async function runSyncThroughputBench(): Promise<Record<string, unknown>> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const baseline = BEFORE_ENTRY;
  const builds = [
    ...(baseline ? [{ name: 'before', entry: baseline }] : []),
    { name: 'this build' },
  ];
  const databases: ['embedded' | 'postgresql', string | undefined][] = [
    ['embedded', undefined],
    ...(base ? [['postgresql', base] as ['postgresql', string]] : []),
  ];
  const sides: Side[] = [];
  for (const [database, url] of databases)
    sides.push(...(await measureDatabase(database, url, builds)));
  console.log(
    `\nSync throughput: pushes of ${String(BATCH)} (${String(PUSH_MUTATIONS)} new cases; ${String(PUSH_MUTATIONS)} edits of them; ${String(PUSH_MUTATIONS)} vital signs on them), a new device's pull of every row in pages of ${String(PAGE)}; medians of ${String(ROUNDS)} runs`,
  );
  table(
    sides.map((side) => ({
      database: side.database,
      ...(baseline ? { build: side.build } : {}),
      'push /s': side.pushPerSecond,
      'push ÷ target': round(side.pushPerSecond / TARGETS.pushPerSecond, 2),
      'push ÷ engine': round(side.pushPerSecond / side.enginePerSecond, 3),
      'edits /s': side.pushEditsPerSecond,
      'vitals /s': side.pushVitalsPerSecond,
      'pull rows/s': side.pullRowsPerSecond,
      'pull ÷ target': round(side.pullRowsPerSecond / TARGETS.pullRowsPerSecond, 2),
      '1-push p50/p95 ms': `${String(side.singlePushP50Ms)} / ${String(side.singlePushP95Ms)}`,
      'GET cases p50/p95 ms': `${String(side.getCasesP50Ms)} / ${String(side.getCasesP95Ms)}`,
      'idle MiB': side.idleMiB,
      'after load MiB': side.afterLoadMiB,
      'data MiB': side.dataMiB,
    })),
  );
  for (const side of sides.filter((s) => s.build === 'this build'))
    console.log(
      `${side.database}: the engine alone commits those ${String(PUSH_MUTATIONS)} new cases at ${String(side.enginePerSecond)} rows/s on this machine (primary key only, ${String(BATCH)} a transaction); push ÷ engine is the share of that the push keeps, and the target needs ${String(round(TARGETS.pushPerSecond / side.enginePerSecond, 3))}`,
    );
  const current = sides.filter((s) => s.build === 'this build');
  const [embedded, postgres] = current;
  if (embedded && postgres) {
    console.log(
      `embedded ÷ PostgreSQL: push ${String(round(embedded.pushPerSecond / postgres.pushPerSecond, 2))}×, pull ${String(round(embedded.pullRowsPerSecond / postgres.pullRowsPerSecond, 2))}×, data ${String(round(embedded.dataMiB / postgres.dataMiB, 2))}× at ${String(PULL_ROWS)} rows (the issue's ≤ 2× is at 100,000 cases: embedded-memory.ts)`,
    );
  }
  if (baseline) {
    for (const side of current) {
      const before = sides.find((s) => s.database === side.database && s.build === 'before');
      if (!before) continue;
      const ratio = (a: number, b: number) => String(round(a / b, 2));
      console.log(
        `${side.database}, this build ÷ before: push ${ratio(side.pushPerSecond, before.pushPerSecond)}×, edits ${ratio(side.pushEditsPerSecond, before.pushEditsPerSecond)}×, vitals ${ratio(side.pushVitalsPerSecond, before.pushVitalsPerSecond)}×, pull ${ratio(side.pullRowsPerSecond, before.pullRowsPerSecond)}×, 1-push p50 ${ratio(side.singlePushP50Ms, before.singlePushP50Ms)}×, GET cases p50 ${ratio(side.getCasesP50Ms, before.getCasesP50Ms)}×`,
      );
    }
  }
  const result = { targets: TARGETS, ...(baseline ? { before: baseline } : {}), sides };
  console.log(`written to ${writeResult('sync-throughput', result)}`);
  return result;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runSyncThroughputBench();
