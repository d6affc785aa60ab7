// Case search benchmark, server side (issue 5): p50/p95 of GET /api/cases with several filter
// mixes over 100,000 cases, through the real built server over HTTP, side by side with the
// same SQL run bare on the same database (the service's query, without HTTP, session,
// validation and JSON), plus EXPLAIN ANALYZE of each so the plans are on record.
// PostgreSQL when DATABASE_URL is set (a throw-away database on that server), else the
// embedded PGlite. Target: API p95 < 50 ms. Reports only; never fails on a slow machine.
//   npx tsx tests/bench/case-search-server.ts            (BENCH_CASES, BENCH_SEARCH_RUNS to change sizes)
// BENCH_NO_ANALYZE=1 leaves the planner statistics as the migrations left them (collected on an
// empty table), as on a PGlite server without its upkeep (PGlite runs no autovacuum; the
// server runs VACUUM (ANALYZE) itself, db/src/maintenance.ts, which the PGlite run times).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import {
  caseSearchDateBounds,
  foldCaseNumber,
  foldText,
  type CaseSearchFilters,
} from '@rescuelog/sync-protocol/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import { newVapidEnv } from '@rescuelog/sync-protocol/server/vapid-keys';
import { freePort, REPO_ROOT, SERVER_ENTRY } from '../e2e/support/server';
import { round, sessionCookie, table, writeHeaders, writeResult } from './support';
import {
  FIRST_NAMES as FIRST,
  INCIDENT_TYPES as TYPES,
  LAST_NAMES as LAST,
} from './support/case-names';

const CASES = Number(process.env.BENCH_CASES ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 100);
const WARMUP = 5;
const PAGE = 50;
const TARGET_P95_MS = 50;

/** Runs SQL with $n parameters on either driver. */
interface Sql {
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function pgSql(url: string): Sql {
  const client = new pg.Client({ connectionString: url });
  const ready = client.connect();
  return {
    async query(text, params = []) {
      await ready;
      return (await client.query(text, params)).rows as Record<string, unknown>[];
    },
    async close() {
      await ready;
      await client.end();
    },
  };
}

async function pgliteSql(dir: string): Promise<Sql> {
  const db = await PGlite.create(dir, { extensions: { pg_trgm } });
  return {
    async query(text, params = []) {
      return (await db.query<Record<string, unknown>>(text, params)).rows;
    },
    close: () => db.close(),
  };
}

// ---------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------

interface Server {
  origin: string;
  child: ChildProcess;
  logFile: string;
}

/** On a busy machine the embedded database can miss the app's plugin start timeout: retry. */
async function startApi(
  runDir: string,
  dataDir: string,
  port: number,
  databaseUrl: string | undefined,
): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startApiOnce(runDir, dataDir, port, databaseUrl);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('did not start in time')) throw error;
      console.log(`the server missed its start timeout (attempt ${String(attempt)}); retrying`);
    }
  }
}

async function startApiOnce(
  runDir: string,
  dataDir: string,
  port: number,
  databaseUrl: string | undefined,
): Promise<Server> {
  if (!existsSync(SERVER_ENTRY))
    throw new Error(`${SERVER_ENTRY} does not exist: run \`npx -y pnpm@10 run build\` first`);
  const origin = `http://127.0.0.1:${String(port)}`;
  const logFile = path.join(runDir, 'server.log');
  const log = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: origin,
    WEB_DIST: path.join(REPO_ROOT, 'web', 'dist'),
    SESSION_SECRET: 'case-search-bench-secret-0123456789abcdef',
    FIRST_USER_ADMIN: 'true',
  };
  if (databaseUrl)
    Object.assign(env, newVapidEnv('mailto:bench@example.org'), { DATABASE_URL: databaseUrl });
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited: ${readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) return { origin, child, logFile };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`the server did not start: ${readFileSync(logFile, 'utf8').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopApi(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------------------------------
// Data: 40 members and one administrator; CASES cases over ~1.7 years
// ---------------------------------------------------------------------------------------

const NEWEST = Date.parse('2026-11-21T06:00:00.000Z');
const STEP_MS = 9 * 60_000 + 7_000;

const arr = (values: string[]) =>
  `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;

function caseIdOf(g: number): string {
  const h = createHash('md5').update(String(g)).digest('hex').toUpperCase();
  return `C-${h.slice(0, 4)}-${h.slice(4, 8)}-${g.toString(16).toUpperCase().padStart(5, '0')}`;
}

async function seed(sql: Sql, embedded: boolean): Promise<void> {
  await sql.query(`insert into users (email, password_hash, full_name, call_sign, role, status)
    select 'bench-member-' || g || '@example.org', 'no-login', 'Member ' || g, 'R' || g, 'member', 'approved' from generate_series(1, 40) g`);
  await sql.query(`
    with u as (select array_agg(id order by id) ids from users),
         n as (select ${arr(FIRST)} f, ${arr(LAST)} s, ${arr(TYPES)} t)
    insert into cases (case_id, user_id, created_at, completed_at, status, patient_name, incident_type, responder_name, responder_call_sign)
    select
      'C-' || upper(substr(md5(g::text), 1, 4)) || '-' || upper(substr(md5(g::text), 5, 4)) || '-' || lpad(upper(to_hex(g)), 5, '0'),
      u.ids[1 + g % array_length(u.ids, 1)],
      to_timestamp(${String(NEWEST / 1000)} - g * ${String(STEP_MS / 1000)}),
      case when g % 10 = 0 then null else to_timestamp(${String(NEWEST / 1000)} - g * ${String(STEP_MS / 1000)} + 3600) end,
      case when g % 10 = 0 then 'in_progress' else 'completed' end,
      case when g % 12 = 0 then null else n.f[1 + g % 20] || ' ' || n.s[1 + (g / 20) % 16] end,
      case when g % 25 = 0 then null else n.t[1 + (g * 7) % 15] end,
      n.f[1 + (g * 3) % 20] || ' ' || n.s[1 + (g * 5) % 16],
      'R' || (1 + g % 40)
    from generate_series(1, ${String(CASES)}) g, u, n`);
  if (process.env.BENCH_NO_ANALYZE) return;
  if (embedded) {
    // What the server's embedded upkeep runs (db/src/maintenance.ts); it holds PGlite's one
    // connection meanwhile, so its length is what a request may wait at worst.
    const t0 = performance.now();
    await sql.query('vacuum (analyze)');
    console.log(
      `Embedded upkeep (vacuum, analyze) over ${String(CASES)} cases: ${(performance.now() - t0).toFixed(0)} ms`,
    );
  } else await sql.query('analyze cases');
}

// ---------------------------------------------------------------------------------------
// The service's query (api/src/services/cases-service.ts), for the bare side and EXPLAIN
// ---------------------------------------------------------------------------------------

function searchSql(
  q: CaseSearchFilters & { cursor?: { createdAt: string; caseId: string } },
  userId: number,
): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${String(params.length)}`;
  };
  const like = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
  const where = ['deleted_at is null'];
  if (q.mine) where.push(`user_id = ${p(userId)}`);
  if (q.caseId !== undefined)
    where.push(
      `translate(upper(case_id), 'OIL- ', '011') like ${p(`${like(foldCaseNumber(q.caseId))}%`)}`,
    );
  // contains(): one or two characters through the grams index, longer through trigrams.
  const contains = (text: string, folded: string) =>
    [...folded].length <= 2
      ? `(strpos(${text}, ${p(folded)}) <> 0 and case_search_grams(${text}) @> array[${p(folded)}::text])`
      : `${text} like ${p(`%${like(folded)}%`)}`;
  if (q.patientName !== undefined)
    where.push(contains('lower(patient_name)', foldText(q.patientName)));
  if (q.incidentType !== undefined)
    where.push(`lower(incident_type) = ${p(foldText(q.incidentType))}`);
  if (q.status !== undefined) where.push(`status = ${p(q.status)}`);
  if (q.responder !== undefined) {
    const folded = foldText(q.responder);
    if (!folded.includes('\u001f'))
      where.push(
        contains(
          `lower(coalesce(responder_name, '') || E'\\x1f' || coalesce(responder_call_sign, ''))`,
          folded,
        ),
      );
    else {
      const r = p(`%${like(folded)}%`);
      where.push(`(lower(responder_name) like ${r} or lower(responder_call_sign) like ${r})`);
    }
  }
  const { fromMs, toMs } = caseSearchDateBounds(q, DEFAULT_SERVICE_TIME_ZONE);
  if (fromMs !== null)
    where.push(`created_at >= ${p(new Date(fromMs).toISOString())}::timestamptz`);
  if (toMs !== null) where.push(`created_at < ${p(new Date(toMs).toISOString())}::timestamptz`);
  if (q.cursor)
    where.push(
      `(created_at, case_id collate "C") < (${p(q.cursor.createdAt)}::timestamptz, ${p(q.cursor.caseId)})`,
    );
  const text = `select id, case_id, patient_name, incident_type, status, created_at, completed_at, user_id, responder_name, responder_call_sign,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position
    from cases where ${where.join(' and ')}
    order by created_at desc, case_id collate "C" desc limit ${String(PAGE + 1)}`;
  return { text, params };
}

// ---------------------------------------------------------------------------------------

interface Mix {
  name: string;
  filters: CaseSearchFilters;
  /** Page 2: the cursor of page 1 of the same filters. */
  secondPage?: boolean;
}

const dayOf = (ms: number) => new Date(ms + 2 * 3_600_000).toISOString().slice(0, 10);
const MIXES: Mix[] = [
  { name: 'newest, no filter', filters: {} },
  { name: 'page 2 (cursor), no filter', filters: {}, secondPage: true },
  { name: 'case number prefix (1 in 16)', filters: { caseId: 'c-a' } },
  { name: 'case number, whole', filters: { caseId: caseIdOf(Math.floor(CASES * 0.54)) } },
  { name: 'patient name contains (common)', filters: { patientName: 'nkosi' } },
  { name: 'patient name contains (no match)', filters: { patientName: 'xylophone' } },
  { name: 'incident type', filters: { incidentType: 'drowning' } },
  {
    name: 'one week, mid-range',
    filters: { from: dayOf(NEWEST - 200 * 86_400_000), to: dayOf(NEWEST - 194 * 86_400_000) },
  },
  { name: 'status in progress', filters: { status: 'in_progress' } },
  { name: 'responder contains', filters: { responder: 'khumalo' } },
  { name: 'only my cases', filters: { mine: true } },
  {
    name: 'completed + Fall + one month',
    filters: {
      status: 'completed',
      incidentType: 'Fall',
      from: dayOf(NEWEST - 120 * 86_400_000),
      to: dayOf(NEWEST - 90 * 86_400_000),
    },
  },
  {
    name: 'patient name + responder call sign',
    filters: { patientName: 'thandi', responder: 'r7' },
  },
  // Patterns of one or two characters (no trigram), and combinations that match nothing
  // (the whole candidate set is read): the cases the mixes above did not show.
  { name: 'responder call sign, 2 characters', filters: { responder: 'r7' } },
  { name: 'patient name, 2 letters, no match', filters: { patientName: 'qx' } },
  { name: 'responder, no match', filters: { responder: 'xylophone' } },
  {
    name: 'patient name + responder, no match',
    filters: { patientName: 'thandi', responder: 'khumalo' },
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function time(
  runs: number,
  task: () => Promise<void>,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await task();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await task();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50), 2), p95: round(percentile(ms, 95), 2) };
}

function params(filters: CaseSearchFilters, cursor?: string): string {
  const s = new URLSearchParams({ limit: String(PAGE) });
  for (const [k, v] of Object.entries(filters)) if (v !== undefined) s.set(k, String(v));
  if (cursor) s.set('cursor', cursor);
  return s.toString();
}

function decodeCursor(cursor: string): { createdAt: string; caseId: string } {
  const [createdAt, caseId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
    string,
    string,
  ];
  return { createdAt, caseId };
}

interface Row {
  mix: string;
  rows: number;
  apiP50Ms: number;
  apiP95Ms: number;
  sqlP50Ms: number;
  sqlP95Ms: number;
  plan: string;
  indexes: string;
}

export async function runCaseSearchServerBench(): Promise<Record<string, unknown>> {
  const databaseUrl = process.env.DATABASE_URL;
  const kind = databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)';
  const runDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-case-search-bench-'));
  const dataDir = path.join(runDir, 'data');
  const port = await freePort();
  let benchUrl: string | undefined;
  if (databaseUrl) {
    const name = `bench_case_search_${randomBytes(4).toString('hex')}`;
    const admin = pgSql(databaseUrl);
    await admin.query(`create database "${name}"`);
    await admin.close();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    benchUrl = url.toString();
  }
  console.log(
    `\nCase search, server: ${String(CASES)} cases on ${kind}, ${String(RUNS)} runs per mix`,
  );
  let server: Server | null = null;
  try {
    // 1. Start (migrations), register the administrator, seed.
    server = await startApi(runDir, dataDir, port, benchUrl);
    const res = await fetch(`${server.origin}/api/register`, {
      method: 'POST',
      headers: writeHeaders(server.origin),
      body: JSON.stringify({
        email: 'case-search-bench@example.org',
        password: 'bench-password-1',
        fullName: 'Bench Chief',
        qualifications: 'Nurse',
      }),
    });
    if (res.status !== 201) throw new Error(`register: ${String(res.status)} ${await res.text()}`);
    // Registration signs nobody in (decision 027): sign in for the session and the id.
    const signedIn = await fetch(`${server.origin}/api/login`, {
      method: 'POST',
      headers: writeHeaders(server.origin),
      body: JSON.stringify({
        email: 'case-search-bench@example.org',
        password: 'bench-password-1',
      }),
    });
    if (!signedIn.ok) throw new Error(`login: ${String(signedIn.status)} ${await signedIn.text()}`);
    const adminId = ((await signedIn.json()) as { user: { id: number } }).user.id;
    let cookie = sessionCookie(signedIn);
    const seedStart = performance.now();
    if (benchUrl) {
      const sql = pgSql(benchUrl);
      await seed(sql, false);
      await sql.close();
    } else {
      // PGlite is one process's database: seed it while the server is stopped.
      await stopApi(server);
      server = null;
      const sql = await pgliteSql(path.join(dataDir, 'pglite'));
      await seed(sql, true);
      await sql.close();
      server = await startApi(runDir, dataDir, port, undefined);
      const login = await fetch(`${server.origin}/api/login`, {
        method: 'POST',
        headers: writeHeaders(server.origin),
        body: JSON.stringify({
          email: 'case-search-bench@example.org',
          password: 'bench-password-1',
        }),
      });
      if (login.status !== 200) throw new Error(`login: ${String(login.status)}`);
      cookie = sessionCookie(login);
    }
    console.log(`seeded in ${String(round((performance.now() - seedStart) / 1000, 1))} s`);

    // 2. The API over HTTP.
    const api = async (query: string): Promise<{ count: number; next: string | null }> => {
      const r = await fetch(`${server?.origin ?? ''}/api/cases?${query}`, { headers: { cookie } });
      if (r.status !== 200)
        throw new Error(`GET /api/cases?${query}: ${String(r.status)} ${await r.text()}`);
      return {
        count: ((await r.json()) as unknown[]).length,
        next: r.headers.get('x-next-cursor'),
      };
    };
    const apiTimes = new Map<string, { p50: number; p95: number; rows: number; cursor?: string }>();
    for (const mix of MIXES) {
      let cursor: string | undefined;
      if (mix.secondPage) cursor = (await api(params(mix.filters))).next ?? undefined;
      const query = params(mix.filters, cursor);
      const rows = (await api(query)).count;
      const t = await time(RUNS, async () => {
        await api(query);
      });
      apiTimes.set(mix.name, { ...t, rows, ...(cursor ? { cursor } : {}) });
    }

    // 3. The same SQL, bare (PGlite: the server must let go of the database first).
    let sql: Sql;
    if (benchUrl) sql = pgSql(benchUrl);
    else {
      await stopApi(server);
      server = null;
      sql = await pgliteSql(path.join(dataDir, 'pglite'));
    }
    const rows: Row[] = [];
    try {
      for (const mix of MIXES) {
        const a = apiTimes.get(mix.name);
        const cursor = a?.cursor ? decodeCursor(a.cursor) : undefined;
        const { text, params: values } = searchSql(
          { ...mix.filters, ...(cursor ? { cursor } : {}) },
          adminId,
        );
        const t = await time(RUNS, async () => {
          await sql.query(text, values);
        });
        const plan = (await sql.query(`explain (analyze, buffers) ${text}`, values)).map((r) =>
          String(Object.values(r)[0]),
        );
        const indexes = [
          ...new Set(
            plan.flatMap((l) =>
              [
                ...l.matchAll(
                  /(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)/g,
                ),
              ].map((m) => m[1] ?? ''),
            ),
          ),
        ];
        rows.push({
          mix: mix.name,
          rows: a?.rows ?? 0,
          apiP50Ms: a?.p50 ?? Number.NaN,
          apiP95Ms: a?.p95 ?? Number.NaN,
          sqlP50Ms: t.p50,
          sqlP95Ms: t.p95,
          plan: plan.find((l) => l.startsWith('Execution Time')) ?? '',
          indexes: `${indexes.join(', ') || (plan.some((l) => l.includes('Seq Scan')) ? 'SEQ SCAN' : '-')}${plan.some((l) => l.includes('Gather')) ? ' (parallel)' : ''}`,
        });
        if (process.env.BENCH_SHOW_PLANS) console.log(`\n${mix.name}\n${plan.join('\n')}`);
      }
    } finally {
      await sql.close();
    }

    const worstApiP95 = Math.max(...rows.map((r) => r.apiP95Ms));
    table(
      rows.map((r) => ({
        mix: r.mix,
        rows: r.rows,
        'API p50': r.apiP50Ms,
        'API p95': r.apiP95Ms,
        'SQL p50': r.sqlP50Ms,
        'SQL p95': r.sqlP95Ms,
        'index used': r.indexes,
      })),
    );
    console.log(
      `worst API p95: ${String(worstApiP95)} ms (target < ${String(TARGET_P95_MS)} ms: ${worstApiP95 < TARGET_P95_MS ? 'met' : 'NOT met'})`,
    );
    const result = {
      database: kind,
      cases: CASES,
      runs: RUNS,
      pageSize: PAGE,
      targetP95Ms: TARGET_P95_MS,
      worstApiP95Ms: worstApiP95,
      mixes: rows,
    };
    console.log(`results: ${writeResult('case-search-server', result)}`);
    return result;
  } finally {
    if (server) await stopApi(server);
    if (databaseUrl && benchUrl) {
      const admin = pgSql(databaseUrl);
      await admin.query(
        `drop database if exists "${new URL(benchUrl).pathname.slice(1)}" with (force)`,
      );
      await admin.close();
    }
    rmSync(runDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCaseSearchServerBench();
