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
 * Writes what the write-ahead log holds into the tables and recycles the log down to
 * max_wal_size (connect.ts EMBEDDED_SETTINGS). PostgreSQL's checkpointer does this by itself;
 * PGlite has none, so without it the log of an embedded database only grows. Cheap when little
 * was written since the last one; the server runs it every few minutes.
 */
export async function checkpoint(db: Kysely<Database>): Promise<MaintenanceResult> {
  const started = performance.now();
  await sql`checkpoint`.execute(db);
  return { durationMs: performance.now() - started };
}
