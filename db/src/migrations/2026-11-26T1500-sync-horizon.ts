// The pull's safe horizon as one statement (decision 033, its issue 12 addendum; the argument
// is in api/src/services/sync/sync-tables.ts syncHorizon). Its two reads must happen in this
// order, and both before the pull's snapshot: (1) the last value the version sequence handed
// out, then (2) the lowest write ticket held. One SQL statement does not order its subqueries;
// a plpgsql function runs its statements one after the other, so the order is the code's.
// Neither read depends on a snapshot (a sequence's row is updated in place, pg_locks is the
// lock table as it is now), so the function can run in any transaction state; the pull runs
// it on its own, before the statement that reads the page (and takes the page's snapshot).
// `ticket_base` is the caller's (TICKET_BASE): tickets are advisory keys at or above it.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function sync_horizon(ticket_base bigint) returns bigint
    language plpgsql volatile as $$
    declare
      handed_out bigint;
      low bigint;
    begin
      -- (1) first: a write that takes its ticket after (2) takes its versions after this.
      select case when is_called then last_value else 0 end into handed_out from sync_version_seq;
      -- (2) then: a bigint advisory key is (classid << 32 | objid), objsubid 1.
      select min(((l.classid::bigint << 32) | l.objid::bigint) - ticket_base) into low
        from pg_locks l
        where l.locktype = 'advisory' and l.objsubid = 1
          and l.database = (select oid from pg_database where datname = current_database())
          and ((l.classid::bigint << 32) | l.objid::bigint) >= ticket_base;
      -- least() ignores a null (no ticket held).
      return least(handed_out + 1, low);
    end
  $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function sync_horizon(bigint)`.execute(db);
}
