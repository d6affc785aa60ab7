// GET /api/stats (spec §3 Stats, the dashboard's Quick Stats): cases this calendar month,
// this ISO week (Monday to Sunday) and those still in progress. "This month" and "this week"
// are the service's local calendar, not UTC: a case at 23:30 on the 31st in Johannesburg
// belongs to that month even though it is 21:30 UTC.
import { sql, type Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { Stats } from '@rescuelog/sync-protocol/stats';
import { serviceTimeZone } from '@rescuelog/sync-protocol/time';

export async function getStats(
  db: Kysely<Database>,
  now = new Date(),
  timeZone: string = serviceTimeZone(),
): Promise<Stats> {
  // date_trunc on the local wall-clock time, then back to an instant with `at time zone`.
  // PostgreSQL's 'week' is the ISO week, which starts on Monday. Deleted (tombstoned) cases
  // are not incidents any more.
  const result = await sql<{ thisMonth: string; thisWeek: string; active: string }>`
    with local as (
      select
        date_trunc('month', ${now}::timestamptz at time zone ${timeZone}) as month_start,
        date_trunc('week', ${now}::timestamptz at time zone ${timeZone}) as week_start
    )
    select
      count(*) filter (
        where c.created_at >= (local.month_start at time zone ${timeZone})
          and c.created_at < ((local.month_start + interval '1 month') at time zone ${timeZone})
      ) as this_month,
      count(*) filter (
        where c.created_at >= (local.week_start at time zone ${timeZone})
          and c.created_at < ((local.week_start + interval '7 days') at time zone ${timeZone})
      ) as this_week,
      count(*) filter (where c.status = 'in_progress') as active
    from cases c cross join local
    where c.deleted_at is null
  `.execute(db);
  const row = result.rows[0];
  return {
    thisMonthIncidents: Number(row?.thisMonth ?? 0),
    thisWeekIncidents: Number(row?.thisWeek ?? 0),
    activeIncidents: Number(row?.active ?? 0),
  };
}
