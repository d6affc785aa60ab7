// Two btree indexes of 2026-11-21T0530 that every query reading them now finds in a partial
// index of case search (docs/decisions/043-case-index-write-cost.md). Each new case, and each
// change of its status, entered them on the push's path for nothing:
// - cases_created_idx (created_at): the case list's date range and status filters and the
//   dashboard's month and week counts all read live cases (deleted_at is null), which
//   cases_search_newest_idx (created_at desc, case_id) holds in the list's own order;
//   EXPLAIN on both databases picks it for each of them once this one is gone (and drops the
//   incremental sort the older one needed).
// - cases_status_idx (status): the list's status filter and the count of active cases read
//   live cases too (cases_search_status_idx; the count, a large share of the table, scans).
// cases_user_created_idx stays: a pull by a responder who sees only their own cases reads
// `cases where user_id = …` over every row, tombstones included (the children's visibility
// subquery), which the partial cases_search_user_idx cannot answer.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists cases_created_idx`.execute(db);
  await sql`drop index if exists cases_status_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists cases_created_idx on cases (created_at)`.execute(db);
  await sql`create index if not exists cases_status_idx on cases (status)`.execute(db);
}
