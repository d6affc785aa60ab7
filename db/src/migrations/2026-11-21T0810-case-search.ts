// Indexes for case search (GET /api/cases, Cases Logged; docs/decisions/009-case-search.md).
// Every list is newest first (created_at desc, case_id desc) over live rows, so each index
// is partial (deleted_at is null) and ends in that order: a filter on its leading column
// reads the first page straight from the index. case_id is ordered in the "C" collation so
// the order does not depend on the database's locale (the device sorts by code unit).
// "Contains" filters (patient name, responder name or call sign) use pg_trgm trigram GIN
// indexes when the extension can be created: PostgreSQL ships it in contrib (trusted, so the
// database owner may create it) and the embedded PGlite loads it (db/src/connect.ts). Where
// it cannot be created the search still works, scanning in date order instead.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const LIVE = sql`where deleted_at is null`;
const NEWEST = sql`created_at desc, case_id collate "C" desc`;

const TRIGRAM_INDEXES = [
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

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index cases_search_newest_idx on cases (${NEWEST}) ${LIVE}`.execute(db);
  await sql`create index cases_search_user_idx on cases (user_id, ${NEWEST}) ${LIVE}`.execute(db);
  await sql`create index cases_search_status_idx on cases (status, ${NEWEST}) ${LIVE}`.execute(db);
  await sql`create index cases_search_incident_type_idx on cases (lower(incident_type), ${NEWEST}) ${LIVE}`.execute(
    db,
  );
  // Case number from its start, folded like foldCaseNumber() in sync-protocol/src/cases/search.ts.
  await sql`create index cases_search_case_number_idx on cases (translate(upper(case_id), 'OIL- ', '011') text_pattern_ops) ${LIVE}`.execute(
    db,
  );

  // A plpgsql block runs in a subtransaction: if the extension is missing or may not be
  // created here, the migration goes on without trigram indexes instead of failing.
  await sql`do $$
    begin
      create extension if not exists pg_trgm;
    exception when others then
      raise notice 'pg_trgm unavailable (%): case search by name scans in date order', sqlerrm;
    end
  $$`.execute(db);
  if (await hasTrigrams(db)) {
    for (const [name, column] of TRIGRAM_INDEXES) {
      await sql`create index ${sql.id(name)} on cases using gin (lower(${sql.id(column)}) gin_trgm_ops) ${LIVE}`.execute(
        db,
      );
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of TRIGRAM_INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  for (const name of [
    'cases_search_case_number_idx',
    'cases_search_incident_type_idx',
    'cases_search_status_idx',
    'cases_search_user_idx',
    'cases_search_newest_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  // The pg_trgm extension stays: other objects may use it, and it holds no data.
}
