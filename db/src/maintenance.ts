// Routine upkeep of the embedded database. PostgreSQL's autovacuum does this by itself on a
// server; PGlite runs no background workers, so without it an embedded database would keep
// every dead row version an edit leaves (each autosave is an UPDATE) and would plan queries
// with the statistics the migrations took on empty tables — at 100,000 cases the plain case
// list then reads and sorts every row (~200 ms instead of a few). VACUUM (ANALYZE) reclaims
// the dead rows for reuse and refreshes the planner's statistics. It holds PGlite's single
// connection while it runs, so the server runs it a minute after it starts and then every 6
// hours (api/src/plugins/external/database.ts), not on every request. Measured at 100,000
// cases (tests/bench/case-search-server.ts, busy 2-core machine): about 4 s, nearly all of it
// ANALYZE computing the statistics of the case search's expression indexes; requests wait
// that long at worst, four times a day. A service of realistic size holds far fewer cases.
// Checkpoints (below) keep the write-ahead log bounded, which PostgreSQL's checkpointer does
// on a server.
// A PostgreSQL server whose autovacuum is off (a setting some operators and CI machines use)
// gets the same upkeep, plus analyzeIfDue below: without fresh statistics, a statement the
// server prepared (statement-cache.ts, decision 048) keeps the generic plan PostgreSQL chose
// while its table was small, a sequential scan, however large the table grows (decision 052).
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

export interface MaintenanceResult {
  durationMs: number;
}

export async function vacuumAnalyze(db: Kysely<Database>): Promise<MaintenanceResult> {
  const started = performance.now();
  await sql`vacuum (analyze)`.execute(db);
  return { durationMs: performance.now() - started };
}

/**
 * Writes what the write-ahead log holds into the tables and recycles the log down to what
 * max_wal_size and min_wal_size keep (connect.ts EMBEDDED_SETTINGS). PostgreSQL's
 * checkpointer does this by itself; PGlite has none, so without it the log of an embedded
 * database only grows. Cheap when little was written since the last one.
 */
export async function checkpoint(db: Kysely<Database>): Promise<MaintenanceResult> {
  const started = performance.now();
  await sql`checkpoint`.execute(db);
  return { durationMs: performance.now() - started };
}

export interface CheckpointDecision {
  /** Log written since the last checkpoint began, in bytes (before this one). */
  walBytes: number;
  /** The checkpoint's duration, when one ran. */
  durationMs?: number;
}

/** Log since the last checkpoint that is not worth a checkpoint of its own (its record). */
const NOTHING_WRITTEN_BYTES = 1024;

/**
 * The checkpointer's rule for a database that has none: a checkpoint once the log written
 * since the last one passes half of max_wal_size (PostgreSQL starts one at about that point),
 * or once the last one is `maxAgeMs` old and something was written since. Run often (every
 * few seconds): when nothing is due it is one small query. So the log stays within about
 * max_wal_size plus what is written between two runs, whatever the load.
 */
export async function checkpointIfDue(
  db: Kysely<Database>,
  { maxAgeMs }: { maxAgeMs: number },
): Promise<CheckpointDecision> {
  const { rows } = await sql<{ walBytes: number; ageMs: number; maxWalBytes: number }>`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 as wal_bytes,
           (extract(epoch from clock_timestamp() - checkpoint_time) * 1000)::float8 as age_ms,
           pg_size_bytes(current_setting('max_wal_size'))::float8 as max_wal_bytes
      from pg_control_checkpoint()`.execute(db);
  const state = rows[0];
  if (!state) return { walBytes: 0 };
  const due =
    state.walBytes >= state.maxWalBytes / 2 ||
    (state.ageMs >= maxAgeMs && state.walBytes > NOTHING_WRITTEN_BYTES);
  if (!due) return { walBytes: state.walBytes };
  const { durationMs } = await checkpoint(db);
  return { walBytes: state.walBytes, durationMs };
}

/**
 * Autovacuum's default rule for analyzing a table (autovacuum_analyze_threshold 50,
 * autovacuum_analyze_scale_factor 0.1): analyze once the rows inserted, updated or deleted
 * since its last analyze pass 50 plus a tenth of the rows the planner counts.
 */
const ANALYZE_THRESHOLD_ROWS = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

export interface AnalyzeDecision {
  /** The tables analyzed, as schema.table; empty when none was due. */
  tables: string[];
  durationMs: number;
}

/**
 * Analyzes the tables that changed enough since their last analyze (autovacuum's rule above),
 * for a database whose autovacuum does not: the planner then knows their size, and PostgreSQL
 * drops the plans it cached for them (ANALYZE invalidates them). When nothing is due it is
 * one small query. The counts come from the cumulative statistics, which a connection reports
 * about once a second, so a table is seen due a moment after the changes.
 */
export async function analyzeIfDue(db: Kysely<Database>): Promise<AnalyzeDecision> {
  const started = performance.now();
  const { rows } = await sql<{ schema: string; table: string }>`
    select s.schemaname as schema, s.relname as table
      from pg_stat_user_tables s
      join pg_class c on c.oid = s.relid
     where s.n_mod_since_analyze >=
           ${ANALYZE_THRESHOLD_ROWS} + ${ANALYZE_SCALE_FACTOR} * greatest(c.reltuples, 0)
       -- Only tables this user may analyze: PostgreSQL skips another owner's table with a
       -- warning and leaves it due, so it would be tried again at every look.
       and pg_has_role(c.relowner, 'USAGE')
     order by s.n_mod_since_analyze desc`.execute(db);
  const tables: string[] = [];
  for (const { schema, table } of rows) {
    await sql`analyze ${sql.id(schema, table)}`.execute(db);
    tables.push(`${schema}.${table}`);
  }
  return { tables, durationMs: performance.now() - started };
}

/** Whether the database's autovacuum launcher runs (PostgreSQL's `autovacuum` setting). */
export async function autovacuumIsOn(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    on: boolean;
  }>`select current_setting('autovacuum')::boolean as on`.execute(db);
  return rows[0]?.on === true;
}
