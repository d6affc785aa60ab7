// An addendum names its author as they were when it was written (docs/decisions/011): the
// server stamps the acting user's full name and call sign from `users` when it applies the
// `case.addendum` mutation, so a device that has no directory of names (offline too) shows
// the signature with the record. Rows written before this have none and stay null: their
// author is known only by user id (a later rename must not rewrite who signed then).
// Adding nullable columns without a default is a catalogue change only: no row is rewritten,
// so no trigger runs and no row gets a new sync version.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('case_addenda')
    .addColumn('author_name', 'text')
    .addColumn('author_call_sign', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('case_addenda')
    .dropColumn('author_call_sign')
    .dropColumn('author_name')
    .execute();
}
