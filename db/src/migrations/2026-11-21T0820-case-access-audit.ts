// Case access audit (docs/decisions/007): a device records every view, print, PDF and export
// of a case as mutation `case.access`, and the server writes it to audit_log keyed by the
// event's own id (details.accessEventId). The unique index makes an event land once even if a
// device sends it again under another mutation; a case's access history finds the entries
// of its child records (vital signs, addenda, refused access) by details.caseId.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index audit_log_access_event_idx
    on audit_log ((details->>'accessEventId'))
    where details ? 'accessEventId'`.execute(db);
  await sql`create index audit_log_case_idx
    on audit_log ((details->>'caseId'), id)
    where details ? 'caseId'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index audit_log_case_idx`.execute(db);
  await sql`drop index audit_log_access_event_idx`.execute(db);
}
