// Push as the cases table grows (issue 12's push figure, and decision 052): the built server
// on each database takes BENCH_GROWTH_CASES new cases (50,000 by default) in pushes of 200,
// and the rate of each tenth is printed, so a push that slows as the table grows shows as a
// falling row. On PostgreSQL the database's autovacuum setting is printed with it: this
// machine's and CI's PostgreSQL run without autovacuum, where nothing refreshes the planner's
// statistics unless the server does. BENCH_BEFORE_ENTRY (support.ts) measures an earlier build
// after this one, on a database of its own, in the same run. Reports only.
import pg from 'pg';
import { BEFORE_ENTRY, round, startBenchServer, table, writeResult } from './support';
import { pushCases, signUp } from './sync-throughput';

const CASES = Number(process.env.BENCH_GROWTH_CASES ?? 50_000);
const TENTHS = 10;

interface Growth {
  database: string;
  build: string;
  autovacuum: string;
  /** New cases per second in each tenth of the load. */
  perSecond: number[];
}

async function autovacuumSetting(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ setting: string }>(
      "select setting from pg_settings where name = 'autovacuum'",
    );
    return rows[0]?.setting ?? '?';
  } finally {
    await client.end();
  }
}

async function grow(
  database: 'embedded' | 'postgresql',
  serverUrl: string | undefined,
  build: { name: string; entry?: string },
): Promise<Growth> {
  const server = await startBenchServer(
    serverUrl ? { SESSION_SECRET: 'bench-secret-'.padEnd(48, 'x'), FIRST_USER_ADMIN: 'true' } : {},
    serverUrl,
    build.entry,
  );
  try {
    const client = await signUp(server.state.origin);
    const tenth = Math.ceil(CASES / TENTHS);
    const perSecond: number[] = [];
    for (let i = 0; i < TENTHS; i += 1) {
      const ms = await pushCases(client, tenth);
      perSecond.push(round((tenth / ms) * 1000, 0));
    }
    const autovacuum = server.databaseUrl
      ? await autovacuumSetting(server.databaseUrl)
      : 'none (embedded)';
    return { database, build: build.name, autovacuum, perSecond };
  } finally {
    await server.stop();
  }
}

export async function runPushGrowthBench(): Promise<Growth[]> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const builds = [
    { name: 'this build' },
    ...(BEFORE_ENTRY ? [{ name: 'before', entry: BEFORE_ENTRY }] : []),
  ];
  const databases: ['embedded' | 'postgresql', string | undefined][] = [
    ['embedded', undefined],
    ...(base ? [['postgresql', base] as ['postgresql', string]] : []),
  ];
  const runs: Growth[] = [];
  for (const [database, url] of databases)
    for (const build of builds) runs.push(await grow(database, url, build));
  console.log(
    `\nPush as the table grows: ${String(CASES)} new cases in pushes of 200, cases/s per tenth of them`,
  );
  table(
    runs.map((run) => {
      const first = run.perSecond[0] ?? Number.NaN;
      const last = run.perSecond.at(-1) ?? Number.NaN;
      return {
        database: run.database,
        build: run.build,
        autovacuum: run.autovacuum,
        ...Object.fromEntries(run.perSecond.map((v, i) => [`${String((i + 1) * 10)} %`, v])),
        'last ÷ first': round(last / first, 2),
      };
    }),
  );
  for (const run of runs.filter((r) => r.build === 'this build')) {
    const before = runs.find((r) => r.database === run.database && r.build === 'before');
    if (!before) continue;
    const total = (r: Growth) => CASES / r.perSecond.reduce((s, v) => s + CASES / TENTHS / v, 0);
    console.log(
      `${run.database}, this build ÷ before: whole load ${String(round(total(run) / total(before), 2))}×, last tenth ${String(round((run.perSecond.at(-1) ?? 0) / (before.perSecond.at(-1) ?? 1), 2))}×`,
    );
  }
  console.log(`written to ${writeResult('push-growth', { cases: CASES, runs })}`);
  return runs;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runPushGrowthBench();
