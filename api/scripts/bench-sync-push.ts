// Benchmark of POST /api/sync/push's service (push-service.ts), in process; reports only.
// Run from api/: `npx tsx scripts/bench-sync-push.ts` (BENCH_DATABASE_URL=postgres://… adds
// PostgreSQL). The cost per mutation batched (200 per push) versus one mutation per push, on
// the embedded database (PGlite in a data folder, as the server runs it) and on PostgreSQL,
// and a batch's time by SQL statement kind, which is where the per-mutation cost hides
// (savepoints, row reads, inserts, audit).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEmbeddedDatabase,
  createPostgresDatabase,
  type DatabaseHandle,
} from '@rescuelog/db/connect';
import { migrateToLatest } from '@rescuelog/db/migrate';
import { createTestDatabase } from '@rescuelog/db/testing';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { RawMutation } from '@rescuelog/sync-protocol/platform/envelope';
import { SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { pushBatch } from '../src/services/sync/push-service';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';

const RESULTS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'tests',
  'bench',
  'results',
);
const BATCH = 200;
const BATCHES = 5;
const SINGLES = 300;

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

interface Timing {
  count: number;
  ms: number;
}

/** Groups a statement by what it does: "insert audit_log", "savepoint", "select cases"… */
function statementKind(sqlText: string): string {
  const s = sqlText.trim().toLowerCase();
  const verb = s.split(/\s+/)[0] ?? '?';
  if (verb === 'savepoint' || verb === 'release' || verb === 'rollback') return verb;
  const table = /(?:from|into|update)\s+"?([a-z_]+)"?/.exec(s)?.[1] ?? '';
  if (s.includes('pg_advisory_xact_lock')) return 'select lock';
  if (s.includes('nextval')) return 'select nextval';
  const where = verb === 'select' ? /where\s+"?([a-z_]+)"?/.exec(s)?.[1] : undefined;
  return `${verb} ${table}${where ? ` by ${where}` : ''}`.trim();
}

function caseCreate(deviceId: string, userId: number, seq: number): RawMutation {
  const id = crypto.randomUUID();
  return {
    mutationId: crypto.randomUUID(),
    deviceId,
    seq,
    actorUserId: userId,
    name: 'case.upsert',
    args: {
      id,
      humanId: generateHumanId('C'),
      fields: { patientName: `Bench patient ${String(seq)}`, incidentType: 'Bench' },
    },
    entityIds: [id],
    baseVersion: null,
    clientTime: new Date().toISOString(),
    schemaVersion: SCHEMA_VERSION,
  } as RawMutation;
}

async function open(
  kind: 'embedded' | 'postgres',
  timings: Map<string, Timing>,
): Promise<{ handle: DatabaseHandle; cleanup: () => void }> {
  const log = (event: {
    level: string;
    query: { sql: string };
    queryDurationMillis: number;
  }): void => {
    const key = statementKind(event.query.sql);
    const t = timings.get(key) ?? { count: 0, ms: 0 };
    t.count += 1;
    t.ms += event.queryDurationMillis;
    timings.set(key, t);
  };
  if (kind === 'embedded') {
    const dir = mkdtempSync(path.join(tmpdir(), 'rescuelog-push-bench-'));
    const handle = await createEmbeddedDatabase(path.join(dir, 'pglite'), { log });
    await migrateToLatest(handle.db);
    return { handle, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is not set');
  // A fresh migrated database (dropped on close), spoken to through a second, logged pool.
  const created = await createTestDatabase({ databaseUrl: url });
  if (!created.databaseUrl) throw new Error('createTestDatabase returned no database URL');
  const logged = await createPostgresDatabase(created.databaseUrl, { log, poolSize: 5 });
  const close = async (): Promise<void> => {
    await logged.close();
    await created.close();
  };
  return { handle: { ...logged, close }, cleanup: () => undefined };
}

export async function runPushBench(
  kind: 'embedded' | 'postgres',
): Promise<Record<string, unknown>> {
  const timings = new Map<string, Timing>();
  const { handle, cleanup } = await open(kind, timings);
  try {
    const { db } = handle;
    const user = await db
      .insertInto('users')
      .values({
        email: 'push-bench@example.org',
        passwordHash: 'x',
        fullName: 'Push Bench',
        role: 'administrator',
        status: 'approved',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const actor: Actor = { id: user.id, role: 'administrator', permissions: null };
    const origin = { ip: '127.0.0.1', userAgent: 'bench' };

    // Warm-up (query plans, caches), not measured.
    const warm = crypto.randomUUID();
    for (let seq = 1; seq <= 20; seq++)
      await pushBatch(db, appRegistry, actor, origin, {
        deviceId: warm,
        mutations: [caseCreate(warm, user.id, seq)],
      });

    timings.clear();
    const batchedDevice = crypto.randomUUID();
    let seq = 0;
    const batchedStart = performance.now();
    const batchedCpu = process.cpuUsage();
    for (let b = 0; b < BATCHES; b++) {
      const mutations = Array.from({ length: BATCH }, () =>
        caseCreate(batchedDevice, user.id, ++seq),
      );
      const response = await pushBatch(db, appRegistry, actor, origin, {
        deviceId: batchedDevice,
        mutations,
      });
      if (response.results.some((r) => r.status !== 'applied'))
        throw new Error('a batched mutation was not applied');
    }
    const batchedMs = performance.now() - batchedStart;
    const batchedCpuMs = cpuMs(process.cpuUsage(batchedCpu));
    const breakdown = [...timings.entries()]
      .map(([statement, t]) => ({
        statement,
        count: t.count,
        ms: round(t.ms, 0),
        perMutationMs: round(t.ms / (BATCH * BATCHES), 3),
      }))
      .sort((a, b) => b.ms - a.ms);

    const singleDevice = crypto.randomUUID();
    seq = 0;
    const singleStart = performance.now();
    const singleCpu = process.cpuUsage();
    for (let i = 0; i < SINGLES; i++) {
      await pushBatch(db, appRegistry, actor, origin, {
        deviceId: singleDevice,
        mutations: [caseCreate(singleDevice, user.id, ++seq)],
      });
    }
    const singleMs = performance.now() - singleStart;
    const singleCpuMs = cpuMs(process.cpuUsage(singleCpu));

    const perBatched = batchedMs / (BATCH * BATCHES);
    const perSingle = singleMs / SINGLES;
    const result = {
      database: kind,
      batched: {
        mutations: BATCH * BATCHES,
        batchSize: BATCH,
        ms: round(batchedMs, 0),
        perMutationMs: round(perBatched, 3),
        perSecond: round(1000 / perBatched, 0),
        cpuMsPerMutation: round(batchedCpuMs / (BATCH * BATCHES), 3),
      },
      oneByOne: {
        mutations: SINGLES,
        ms: round(singleMs, 0),
        perMutationMs: round(perSingle, 3),
        perSecond: round(1000 / perSingle, 0),
        cpuMsPerMutation: round(singleCpuMs / SINGLES, 3),
      },
      ratio: round(perSingle / perBatched, 1),
      breakdown,
    };
    console.log(`\nSync push service in process (${kind} database)`);
    console.table([
      {
        measure: `batched (${String(BATCH)}/push) ms per mutation`,
        value: result.batched.perMutationMs,
      },
      { measure: 'one per push ms per mutation', value: result.oneByOne.perMutationMs },
      { measure: 'batched mutations/s', value: result.batched.perSecond },
      // This process's CPU time: with the embedded database that includes the database's own
      // work, and it hardly moves with the machine's load, unlike wall time.
      {
        measure: 'batched CPU ms per mutation (this process)',
        value: result.batched.cpuMsPerMutation,
      },
      {
        measure: 'one per push CPU ms per mutation (this process)',
        value: result.oneByOne.cpuMsPerMutation,
      },
      { measure: 'one-per-push / batched', value: result.ratio },
    ]);
    console.log('Where a batch spends its SQL time:');
    console.table(breakdown);
    return result;
  } finally {
    await handle.close();
    cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = [await runPushBench('embedded')];
  if (process.env.BENCH_DATABASE_URL) results.push(await runPushBench('postgres'));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(
    RESULTS_DIR,
    `sync-push-server-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results: ${file}`);
}
