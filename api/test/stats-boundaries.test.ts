// The stats query's calendar (api/src/services/stats-service.ts) at its edges, on the real
// database (PGlite, or PostgreSQL with DATABASE_URL): the calendar month and the ISO week
// (Monday to Sunday) in Africa/Johannesburg, whatever the database session's time zone.
// Exact instants first, then a property against an independent reference (Intl's calendar
// for the zone) over instants clustered around midnights, month ends and the year's turn.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getStats } from '../src/services/stats-service';
import { DEFAULT_SERVICE_TIME_ZONE as SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import { build, type TestApp } from './helpers';

/** SAST wall-clock time (UTC+2 all year, no daylight saving) as an instant. */
const sast = (local: string): Date => new Date(`${local}+02:00`);

let counter = 0;

describe('stats calendar boundaries in Africa/Johannesburg', () => {
  let t: TestApp;
  let userId: number;

  beforeAll(async () => {
    t = await build();
    userId = (await t.createUser({ status: 'approved' })).row.id;
  });
  afterAll(() => t.close());

  async function clearCases(): Promise<void> {
    await t.db.deleteFrom('cases').execute();
  }

  async function insertCase(
    createdAt: Date,
    status: 'in_progress' | 'completed' = 'completed',
    deleted = false,
  ): Promise<void> {
    counter += 1;
    await t.db
      .insertInto('cases')
      .values({
        caseId: `STATS-${String(counter)}`,
        userId,
        status,
        createdAt,
        completedAt: status === 'completed' ? createdAt : null,
        deletedAt: deleted ? new Date() : null,
      })
      .execute();
  }

  /** getStats in a transaction whose session time zone is not the service's. */
  async function statsAt(now: Date, sessionZone = 'Pacific/Kiritimati') {
    return t.db.transaction().execute(async (tx) => {
      await sql`select set_config('TimeZone', ${sessionZone}, true)`.execute(tx);
      return getStats(tx, now);
    });
  }

  describe('month', () => {
    beforeEach(async () => {
      await clearCases();
      await insertCase(sast('2026-12-31T23:30:00.000')); // Thu 31 Dec, 21:30 UTC
      await insertCase(sast('2026-12-31T23:59:59.999'));
      await insertCase(sast('2027-01-01T00:00:00.000')); // Fri 1 Jan, still 31 Dec in UTC
      await insertCase(sast('2027-01-01T01:59:00.000')); // 23:59 UTC on the 31st
    });

    it('keeps 23:30 and 23:59:59.999 on the 31st in that month, and starts the next at 00:00 local', async () => {
      expect(await statsAt(sast('2026-12-31T23:45:00.000'))).toMatchObject({
        thisMonthIncidents: 2,
      });
      expect(await statsAt(sast('2027-01-01T00:00:00.000'))).toMatchObject({
        thisMonthIncidents: 2,
      });
      expect(await statsAt(sast('2027-01-31T23:59:59.999'))).toMatchObject({
        thisMonthIncidents: 2,
      });
      expect(await statsAt(sast('2027-02-01T00:00:00.000'))).toMatchObject({
        thisMonthIncidents: 0,
      });
    });

    it('does not depend on the database session time zone', async () => {
      const now = sast('2026-12-31T23:45:00.000');
      for (const zone of ['UTC', 'America/New_York', 'Asia/Tokyo', SERVICE_TIME_ZONE])
        expect(await statsAt(now, zone), zone).toEqual(await statsAt(now));
    });
  });

  describe('ISO week', () => {
    beforeEach(async () => {
      await clearCases();
      // The week Mon 28 Dec 2026 to Sun 3 Jan 2027 spans the year's turn.
      await insertCase(sast('2026-12-27T23:59:59.999')); // Sun: the week before
      await insertCase(sast('2026-12-28T00:00:00.000')); // Mon 00:00: this week
      await insertCase(sast('2027-01-03T23:59:00.000')); // Sun 23:59: this week
      await insertCase(sast('2027-01-04T00:00:00.000')); // Mon 00:00: the next
    });

    it('runs from Monday 00:00 to Sunday 23:59 local, across the new year', async () => {
      expect(await statsAt(sast('2026-12-27T23:59:00.000'))).toMatchObject({
        thisWeekIncidents: 1,
      });
      expect(await statsAt(sast('2026-12-28T00:00:00.000'))).toMatchObject({
        thisWeekIncidents: 2,
      });
      // Sun 3 Jan 23:59 SAST: same week as Mon 28 Dec, though it is January now.
      expect(await statsAt(sast('2027-01-03T23:59:00.000'))).toEqual({
        thisMonthIncidents: 2,
        thisWeekIncidents: 2,
        activeIncidents: 0,
      });
      // Mon 4 Jan 00:00 SAST (Sun 22:00 UTC): a new week with only its own case.
      expect(await statsAt(sast('2027-01-04T00:00:00.000'))).toMatchObject({
        thisWeekIncidents: 1,
      });
    });
  });

  it('counts as active only cases in progress, of any date; deleted cases count nowhere', async () => {
    await clearCases();
    const now = sast('2026-11-18T12:00:00.000');
    await insertCase(sast('2026-11-18T08:00:00.000'), 'in_progress');
    await insertCase(sast('2024-02-29T08:00:00.000'), 'in_progress');
    await insertCase(sast('2026-11-18T09:00:00.000'), 'completed');
    await insertCase(sast('2026-11-18T10:00:00.000'), 'in_progress', true);
    await insertCase(sast('2026-11-18T10:30:00.000'), 'completed', true);
    expect(await statsAt(now)).toEqual({
      thisMonthIncidents: 2,
      thisWeekIncidents: 2,
      activeIncidents: 2,
    });
  });

  it('agrees with the calendar of the zone (Intl) for instants around every boundary', async () => {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone: SERVICE_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    /** The local calendar date of an instant, as a UTC midnight (for day arithmetic). */
    const localDay = (d: Date): Date => {
      const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]));
      return new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)));
    };
    const monthOf = (d: Date) => localDay(d).toISOString().slice(0, 7);
    /** The local Monday that starts the ISO week. */
    const weekOf = (d: Date) => {
      const day = localDay(d);
      const sinceMonday = (day.getUTCDay() + 6) % 7;
      return new Date(day.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
    };

    // Local midnights that start a month, a leap day, a Monday, and the year's turn.
    const anchors = [
      '2026-11-01',
      '2026-11-02',
      '2026-11-09',
      '2026-12-01',
      '2026-12-28',
      '2027-01-01',
      '2027-01-04',
      '2028-02-29',
      '2028-03-01',
    ].map((day) => sast(`${day}T00:00:00.000`).getTime());
    const offsets = [-86_400_000, -3_600_000, -1_800_000, -60_000, -1, 0, 1, 60_000, 7_200_000];
    const instant = fc
      .tuple(fc.constantFrom(...anchors), fc.constantFrom(...offsets))
      .map(([anchor, offset]) => new Date(anchor + offset));
    const caseArb = fc.record({
      createdAt: instant,
      status: fc.constantFrom('in_progress' as const, 'completed' as const),
      deleted: fc.boolean(),
    });

    await fc.assert(
      fc.asyncProperty(
        fc.array(caseArb, { minLength: 1, maxLength: 12 }),
        fc.array(instant, { minLength: 1, maxLength: 3 }),
        async (cases, nows) => {
          await clearCases();
          for (const c of cases) await insertCase(c.createdAt, c.status, c.deleted);
          const live = cases.filter((c) => !c.deleted);
          for (const now of nows) {
            expect(await statsAt(now), now.toISOString()).toEqual({
              thisMonthIncidents: live.filter((c) => monthOf(c.createdAt) === monthOf(now)).length,
              thisWeekIncidents: live.filter((c) => weekOf(c.createdAt) === weekOf(now)).length,
              activeIncidents: live.filter((c) => c.status === 'in_progress').length,
            });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
