// The push's bookkeeping rows (decision 044): every mutation of every push writes one audit_log
// row and one applied_mutations row, and each index on them is kept up by every push. Only the
// indexes some query uses stay:
// - audit_log_actor_idx (actor_user_id, at): no query reads the log by person. Dropped.
// - audit_log_at_idx: no query of the server reads the log by time either, but an
//   investigation asks for a period. The log is append-only and `at` is the insert's time, so
//   rows arrive in time order: a BRIN index finds a period for almost nothing to keep up (a
//   few kilobytes for 100,000 rows). A block range filled since the last vacuum is read in
//   full, never missed, until it is summarised: on PostgreSQL autosummarize asks autovacuum
//   to do it as soon as the range is full; the embedded server's own vacuum (decision 013)
//   does it there.
// - applied_mutations_device_seq_idx (device_id, seq): no query reads handled mutations by
//   seq; the push asks by (device_id, mutation_id), which the primary key serves, and the key
//   leads with device_id for the foreign key to devices as well. Dropped.
// Kept, each with its reader: audit_log_pkey; audit_log_entity_idx and audit_log_case_idx
// (a case's access history, case-record-service.ts); audit_log_access_event_idx (unique: an
// access event is recorded once; batch-records.ts reads it); applied_mutations_pkey.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index audit_log_actor_idx`.execute(db);
  await sql`drop index audit_log_at_idx`.execute(db);
  await sql`create index audit_log_at_idx on audit_log using brin (at)
    with (autosummarize = on)`.execute(db);
  await sql`drop index applied_mutations_device_seq_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index applied_mutations_device_seq_idx
    on applied_mutations (device_id, seq)`.execute(db);
  await sql`drop index audit_log_at_idx`.execute(db);
  await sql`create index audit_log_at_idx on audit_log (at)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (actor_user_id, at)`.execute(db);
}
