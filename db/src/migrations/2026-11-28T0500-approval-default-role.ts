// The role an approval gives when the administrator picks none (issue 37, decision 059).
// The app's built-in default becomes Responder, who documents patients, CPR, mass-casualty
// incidents and incident reports; this migration keeps every system as it was meant to be:
//   - A system already in use (it has accounts) that never chose a default role keeps the
//     one it had, Member, now written down in System Settings where an administrator sees
//     and changes it. A default role an administrator chose is left exactly as it is.
//   - A new system (no account yet) starts with a Responder who sees their own patients
//     only: the seeded role's Cases Logged "view" grant, which shows every colleague's
//     patient (decision 024), is taken off there, so that stays an explicit grant. A
//     Responder role of a system in use keeps what it has.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ inUse: boolean }>`
    select exists (select 1 from users) as "inUse"`.execute(db);
  if (rows[0]?.inUse === true) {
    await sql`insert into system_settings (key, value)
      select 'defaultRoleId', to_jsonb(id) from roles where name = 'member'
      on conflict (key) do nothing`.execute(db);
    return;
  }
  await sql`update roles set permissions = permissions - 'casesLogged'
    where name = 'responder' and is_system`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo safely: the written default is an ordinary setting an administrator
  // may have kept or changed since, and a role's permissions are theirs to edit.
}
