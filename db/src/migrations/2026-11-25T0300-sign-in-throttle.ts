// Sign-in throttling (docs/decisions/022): a counter in `rate_limits` may now hold a time
// before which its key must wait (failed sign-ins of an email and address pair, of a known
// device, or of an account from unknown devices). Null: no wait.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_limits').addColumn('blocked_until', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_limits').dropColumn('blocked_until').execute();
}
