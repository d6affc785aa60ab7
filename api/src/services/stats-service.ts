// GET /api/stats (spec §3 Stats, the dashboard's Quick Stats): cases this calendar month,
// this ISO week (Monday to Sunday) and those still in progress. "This month" and "this week"
// are the service's local calendar, not UTC: a case at 23:30 on the 31st in Johannesburg
// belongs to that month even though it is 21:30 UTC.
import { sql, type Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { Stats } from '@rescuelog/sync-protocol/stats';
import { serviceTimeZone } from '@rescuelog/sync-protocol/time';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { canSeeAllCases } from './cases-service';

/**
 * `viewer`: the counts cover the cases this user may see, by the one rule the lists follow
 * (cases-service.ts canSeeAllCases, decision 024): every case with a Cases Logged grant,
 * else only the cases they logged. Without a viewer (the calendar tests), every case.
 */
export async function getStats(
  db: Kysely<Database>,
  now = new Date(),
  timeZone: string = serviceTimeZone(),
  viewer?: Pick<User, 'id' | 'role' | 'permissions'>,
): Promise<Stats> {
  const visible =
    viewer === undefined || canSeeAllCases(viewer) ? sql`true` : sql`user_id = ${viewer.id}`;
  // date_trunc on the local wall-clock time, then back to an instant with `at time zone`.
  // PostgreSQL's 'week' is the ISO week, which starts on Monday. Deleted (tombstoned) cases
  // are not incidents any more. Each count is its own range or equality on an index of the
  // live cases (cases_search_newest_idx on created_at, cases_search_status_idx on status), so
  // it reads this month's and the open cases, not every case ever logged (decision 030).
  const monthStart = sql`date_trunc('month', ${now}::timestamptz at time zone ${timeZone})`;
  const weekStart = sql`date_trunc('week', ${now}::timestamptz at time zone ${timeZone})`;
  const result = await sql<{ thisMonth: string; thisWeek: string; active: string }>`
    select
      (select count(*) from cases
        where deleted_at is null and ${visible}
          and created_at >= (${monthStart} at time zone ${timeZone})
          and created_at < ((${monthStart} + interval '1 month') at time zone ${timeZone})
      ) as this_month,
      (select count(*) from cases
        where deleted_at is null and ${visible}
          and created_at >= (${weekStart} at time zone ${timeZone})
          and created_at < ((${weekStart} + interval '7 days') at time zone ${timeZone})
      ) as this_week,
      (select count(*) from cases
        where deleted_at is null and ${visible} and status = 'in_progress') as active
  `.execute(db);
  const row = result.rows[0];
  return {
    thisMonthIncidents: Number(row?.thisMonth ?? 0),
    thisWeekIncidents: Number(row?.thisWeek ?? 0),
    activeIncidents: Number(row?.active ?? 0),
  };
}
