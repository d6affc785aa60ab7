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
