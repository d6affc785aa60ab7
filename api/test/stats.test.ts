// GET /api/stats and GET /api/cases over real HTTP, plus the calendar boundaries of the
// stats query (month and ISO week in Africa/Johannesburg, not UTC) checked directly against
// the database with a fixed "now". Case rows are inserted straight into the database, as
// the sync engine will write them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import type { Stats } from '@rescuelog/sync-protocol/stats';
import { getStats } from '../src/services/stats-service';
import { build, loginAs, type TestApp, type TestUser } from './helpers';

interface ErrorBody {
  code: string;
}

let caseCounter = 0;

describe('stats and cases', () => {
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await build();
    author = await t.createUser({ status: 'approved' });
    // The list shows other people's cases only with an explicit grant (decision 024).
    await t.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ casesLogged: { view: true } }) })
      .where('id', '=', author.row.id)
      .execute();
  });
  afterAll(() => t.close());

  async function insertCase(values: {
    createdAt: Date | string;
    status?: 'in_progress' | 'completed';
    userId?: number;
    deleted?: boolean;
    incidentType?: string;
  }) {
    caseCounter += 1;
    const row = await t.db
      .insertInto('cases')
      .values({
        caseId: `T-${String(caseCounter).padStart(4, '0')}`,
        userId: values.userId ?? author.row.id,
        status: values.status ?? 'completed',
        createdAt: values.createdAt,
        incidentType: values.incidentType ?? null,
        completedAt: values.status === 'in_progress' ? null : values.createdAt,
        deletedAt: values.deleted ? new Date() : null,
      })
      .returning(['id', 'caseId'])
      .executeTakeFirstOrThrow();
    return row;
  }

  async function clearCases() {
    await t.db.deleteFrom('cases').execute();
  }

  describe('calendar boundaries (service, fixed now)', () => {
    beforeAll(async () => {
      await clearCases();
      // 1 November 2026 is a Sunday; SAST is UTC+2 all year.
      await insertCase({ createdAt: '2026-10-31T21:30:00Z' }); // Sat 31 Oct 23:30 SAST
      await insertCase({ createdAt: '2026-10-31T22:30:00Z' }); // Sun 1 Nov 00:30 SAST
      await insertCase({ createdAt: '2026-11-01T21:30:00Z' }); // Sun 1 Nov 23:30 SAST
      await insertCase({ createdAt: '2026-11-01T22:30:00Z', status: 'in_progress' }); // Mon 2 Nov 00:30 SAST
      await insertCase({ createdAt: '2026-11-01T22:40:00Z', status: 'in_progress', deleted: true });
    });

    // "This month" and "this week" are whole calendar periods in SAST.
    it('puts 23:30 on the last day of the month in that month, and 00:30 the next day in the next', async () => {
      // Sat 31 Oct, 23:45 SAST: October has only the 23:30 case (in UTC, the 00:30 SAST case
      // would be October's too). The week Mon 26 Oct - Sun 1 Nov has three.
      expect(await getStats(t.db, new Date('2026-10-31T21:45:00Z'))).toEqual({
        thisMonthIncidents: 1,
        thisWeekIncidents: 3,
        activeIncidents: 1,
      });
      // Sun 1 Nov, 00:35 SAST (still 31 Oct in UTC): November has the three from 00:30 on.
      expect(await getStats(t.db, new Date('2026-10-31T22:35:00Z'))).toEqual({
        thisMonthIncidents: 3,
        thisWeekIncidents: 3,
        activeIncidents: 1,
      });
    });

    it('starts the week on Monday: Sunday 23:30 is last week, Monday 00:30 this week', async () => {
      // Sun 1 Nov, noon SAST.
      expect(await getStats(t.db, new Date('2026-11-01T10:00:00Z'))).toEqual({
        thisMonthIncidents: 3,
        thisWeekIncidents: 3,
        activeIncidents: 1,
      });
      // Mon 2 Nov, 00:45 SAST (still Sunday in UTC): the new week holds only the 00:30 case.
      expect(await getStats(t.db, new Date('2026-11-01T22:45:00Z'))).toEqual({
        thisMonthIncidents: 3,
        thisWeekIncidents: 1,
        activeIncidents: 1,
      });
      expect(await getStats(t.db, new Date('2026-11-02T10:00:00Z'))).toEqual({
        thisMonthIncidents: 3,
        thisWeekIncidents: 1,
        activeIncidents: 1,
      });
    });
  });

  describe('GET /api/stats', () => {
    it('counts real rows for the current month, week and cases in progress; deleted cases do not count', async () => {
      await clearCases();
      const now = new Date();
      await insertCase({ createdAt: now, status: 'in_progress' });
      await insertCase({ createdAt: now, status: 'completed' });
      await insertCase({ createdAt: now, status: 'in_progress', deleted: true });
      await insertCase({ createdAt: '2020-01-01T10:00:00Z', status: 'in_progress' });
      const client = await loginAs(t, author);
      const res = await client.get('/api/stats');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect((await res.json()) as Stats).toEqual({
        thisMonthIncidents: 2,
        thisWeekIncidents: 2,
        activeIncidents: 2,
      });
    });

    it('needs an approved, signed-in user', async () => {
      expect((await t.client().get('/api/stats')).status).toBe(401);
      const pending = await loginAs(t, await t.createUser({ status: 'pending' }));
      const res = await pending.get('/api/stats');
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).code).toBe('ACCOUNT_PENDING');
    });
  });

  describe('GET /api/cases', () => {
    let other: TestUser;

    beforeAll(async () => {
      await clearCases();
      other = await t.createUser({ status: 'approved' });
      await insertCase({ createdAt: '2026-11-10T08:00:00Z', incidentType: 'Cardiac' });
      await insertCase({
        createdAt: '2026-11-12T08:00:00Z',
        status: 'in_progress',
        incidentType: 'MVA',
      });
      await insertCase({ createdAt: '2026-11-11T08:00:00Z', userId: other.row.id });
      await insertCase({ createdAt: '2026-11-13T08:00:00Z', deleted: true });
    });

    it('lists case summaries newest first, without deleted cases', async () => {
      const client = await loginAs(t, author);
      const res = await client.get('/api/cases');
      expect(res.status).toBe(200);
      const cases = (await res.json()) as CaseSummary[];
      expect(cases.map((c) => c.createdAt)).toEqual([
        '2026-11-12T08:00:00.000Z',
        '2026-11-11T08:00:00.000Z',
        '2026-11-10T08:00:00.000Z',
      ]);
      expect(cases[0]).toMatchObject({
        status: 'in_progress',
        incidentType: 'MVA',
        completedAt: null,
        userId: author.row.id,
      });
      expect(typeof cases[0]?.id).toBe('string');
      expect(Object.keys(cases[0] ?? {}).sort()).toEqual([
        'caseId',
        'completedAt',
        'createdAt',
        'id',
        'incidentType',
        'patientName',
        'responderCallSign',
        'responderName',
        'status',
        'userId',
      ]);
    });

    it("shows only a user's own cases when their casesLogged permission withholds view", async () => {
      await t.db
        .updateTable('users')
        .set({ permissions: JSON.stringify({ casesLogged: { view: false, edit: true } }) })
        .where('id', '=', other.row.id)
        .execute();
      const own = (await (
        await (await loginAs(t, other)).get('/api/cases')
      ).json()) as CaseSummary[];
      expect(own.map((c) => c.userId)).toEqual([other.row.id]);

      await t.db
        .updateTable('users')
        .set({ permissions: JSON.stringify({ casesLogged: true }) })
        .where('id', '=', other.row.id)
        .execute();
      const all = (await (
        await (await loginAs(t, other)).get('/api/cases')
      ).json()) as CaseSummary[];
      expect(all).toHaveLength(3);
    });

    it('honours limit (default 50, 1 to 200)', async () => {
      await t.db
        .insertInto('cases')
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            caseId: `BULK-${String(i)}`,
            userId: author.row.id,
            createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
          })),
        )
        .execute();
      const client = await loginAs(t, author);
      expect(((await (await client.get('/api/cases')).json()) as CaseSummary[]).length).toBe(50);
      expect(
        ((await (await client.get('/api/cases?limit=3')).json()) as CaseSummary[]).length,
      ).toBe(3);
      expect(
        ((await (await client.get('/api/cases?limit=200')).json()) as CaseSummary[]).length,
      ).toBe(63);
      for (const bad of ['0', '201', 'abc', '1.5', '-1']) {
        const res = await client.get(`/api/cases?limit=${bad}`);
        expect(res.status, bad).toBe(400);
        expect(((await res.json()) as ErrorBody).code).toBe('VALIDATION_FAILED');
      }
    });
  });
});
