// Case search indexes on expressions, without the `deleted_at is null` predicate
// (docs/decisions/009-case-search.md). PostgreSQL's planner ignores the statistics of a
// partial index's expressions, so with 2026-11-21T0810's partial indexes it guessed 0.5 % for
// every "contains" and case-number filter: EXPLAIN ANALYZE at 100,000 cases showed a whole
// case number scanning every row in date order (~300 ms) and a common name sorting thousands
// of trigram matches. Whole-table indexes give it real estimates (ANALYZE keeps their
// expression statistics), so it reads a rare match through the index and a common one in
// date order. Deleted rows are few (tombstones), so indexing them costs little.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const NEWEST = sql`created_at desc, case_id collate "C" desc`;
const TRIGRAM = [
  ['cases_search_patient_name_trgm_idx', 'patient_name'],
  ['cases_search_responder_name_trgm_idx', 'responder_name'],
  ['cases_search_responder_call_sign_trgm_idx', 'responder_call_sign'],
] as const;

async function hasTrigrams(db: Kysely<unknown>): Promise<boolean> {
  const result = await sql<{
    ok: boolean;
  }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
  return result.rows[0]?.ok === true;
}

async function rebuild(db: Kysely<unknown>, partial: boolean): Promise<void> {
  const where = partial ? sql`where deleted_at is null` : sql``;
  for (const name of [
    'cases_search_case_number_idx',
    'cases_search_incident_type_idx',
    ...TRIGRAM.map(([n]) => n),
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
  await sql`create index cases_search_case_number_idx on cases (translate(upper(case_id), 'OIL- ', '011') text_pattern_ops) ${where}`.execute(
    db,
  );
  await sql`create index cases_search_incident_type_idx on cases (lower(incident_type), ${NEWEST}) ${where}`.execute(
    db,
  );
  if (await hasTrigrams(db)) {
    for (const [name, column] of TRIGRAM) {
      await sql`create index ${sql.id(name)} on cases using gin (lower(${sql.id(column)}) gin_trgm_ops) ${where}`.execute(
        db,
      );
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, false);
  // Statistics for the new expressions now, not at the next autovacuum.
  await sql`analyze cases`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true);
}
