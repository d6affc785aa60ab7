// updated_at follows every UPDATE unless the statement sets it itself, so no code path can
// forget it.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const tables = [
  'roles',
  'users',
  'notifications',
  'medical_inventory',
  'system_settings',
  'cases',
  'vital_signs',
  'cpr_sessions',
  'cpr_events',
  'incident_reports',
  'mci_incidents',
  'mci_casualties',
  'case_addenda',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function touch_updated_at() returns trigger language plpgsql as $$
    begin
      if new.updated_at is not distinct from old.updated_at then
        new.updated_at := now();
      end if;
      return new;
    end
  $$`.execute(db);
  for (const table of tables) {
    await sql`create trigger ${sql.raw(`${table}_touch_updated_at`)} before update on ${sql.table(table)}
      for each row execute function touch_updated_at()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) {
    await sql`drop trigger ${sql.raw(`${table}_touch_updated_at`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop function touch_updated_at()`.execute(db);
}
