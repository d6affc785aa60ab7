// Out-of-range and impossible dates (issue 37): the case list's day filters answer 400 with
// the message naming the problem, never a 500 (0001-01-01 once reached PostgreSQL as year 0),
// and a pushed time that is not a real day of the calendar, or outside the years the product
// accepts (decision 057), is rejected on its own while the rest of the batch applies. Runs on
// whichever database the suite runs on (PGlite, or PostgreSQL with DATABASE_URL): both are
// what the request reaches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import { loginAs, type TestApp, type TestClient } from './helpers';
import {
  buildSyncApp,
  caseRow,
  completeCaseVital,
  Device,
  humanId,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

const OUT_OF_RANGE = 'Use a date between 1900 and 9999';

let t: TestApp;
let alice: SyncUser;
let admin: TestClient;

beforeAll(async () => {
  t = await buildSyncApp();
  alice = await syncUser(t);
  admin = await loginAs(t, await t.createUser({ role: 'administrator', status: 'approved' }));
});
afterAll(() => t.close());

describe('GET /api/cases with a day out of range or not on the calendar', () => {
  const BAD_DAYS: Array<[string, string]> = [
    ['0001-01-01', OUT_OF_RANGE],
    ['1899-12-31', OUT_OF_RANGE],
    ['10000-01-01', OUT_OF_RANGE],
    ['2026-02-30', 'There is no 30 February 2026'],
    ['2026-04-31', 'There is no 31 April 2026'],
    ['2026-02-29', 'There is no 29 February 2026'],
    ['2026-13-01', 'Use a date like 2026-11-21'],
  ];

  it.each(
    BAD_DAYS.flatMap(([day, message]) => [
      ['from', day, message],
      ['to', day, message],
    ]),
  )('?%s=%s answers 400: %s', async (param, day, message) => {
    const res = await admin.get(`/api/cases?${param}=${day}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: message,
      code: 'VALIDATION_FAILED',
      fieldErrors: { [param]: [message] },
    });
  });

  it('answers the first and last days it accepts, and a leap day', async () => {
    for (const query of [
      '?from=1900-01-01',
      '?to=1900-01-01',
      '?from=9999-12-31',
      '?to=9999-12-31',
      '?from=2028-02-29&to=2028-02-29',
    ]) {
      const res = await admin.get(`/api/cases${query}`);
      expect(res.status, `${query}: ${await res.clone().text()}`).toBe(200);
    }
  });

  it('refuses a cursor whose position is in year 0000 (a forged cursor, not a 500)', async () => {
    const cursor = Buffer.from(JSON.stringify(['0000-12-31T22:00:00.000000Z', 'C-X'])).toString(
      'base64url',
    );
    const res = await admin.get(`/api/cases?cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fieldErrors: { cursor: ['Invalid input'] } });
  });
});

describe('a pushed time out of range or not on the calendar', () => {
  const BAD_TIMES: Array<[string, string]> = [
    ['0001-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['10000-01-01T00:00:00.000Z', OUT_OF_RANGE],
    ['+010000-01-01T00:00:00.000Z', OUT_OF_RANGE],
    // In range as written, but its UTC instant is in 1899.
    ['1900-01-01T01:00:00+02:00', OUT_OF_RANGE],
    ['2026-02-30T00:00:00.000Z', 'There is no 30 February 2026'],
    ['2026-04-31T08:00:00.000Z', 'There is no 31 April 2026'],
    ['2026-02-29T08:00:00+02:00', 'There is no 29 February 2026'],
  ];

  it.each(BAD_TIMES)('%s is rejected, and the rest of the batch applies', async (bad, message) => {
    const device = new Device(alice);
    const kept = uuid();
    const refused = uuid();
    const res = await device.push(
      device.m('case.upsert', { id: kept, humanId: humanId('C'), fields: { patientName: 'A' } }),
      device.m('case.upsert', {
        id: refused,
        humanId: humanId('C'),
        fields: { patientName: 'B', callReceivedTime: bad },
      }),
      device.m('vitalSign.record', { ...completeCaseVital(kept), timestamp: bad }),
      device.m('case.upsert', {
        id: kept,
        fields: { callReceivedTime: '2028-02-29T08:00:00.000Z' },
      }),
    );
    expect(res.results.map((r) => [r.seq, r.status, r.code, r.message])).toEqual([
      [1, 'applied', undefined, undefined],
      [2, 'rejected', RejectionCode.VALIDATION_FAILED, `args.fields.callReceivedTime: ${message}`],
      [3, 'rejected', RejectionCode.VALIDATION_FAILED, `args.timestamp: ${message}`],
      [4, 'applied', undefined, undefined],
    ]);
    expect((await caseRow(t, kept)).callReceivedTime?.toISOString()).toBe(
      '2028-02-29T08:00:00.000Z',
    );
    const stored = await t.db
      .selectFrom('cases')
      .select('id')
      .where('id', '=', refused)
      .executeTakeFirst();
    expect(stored).toBeUndefined();
    const vitals = await t.db
      .selectFrom('vitalSigns')
      .select('id')
      .where('caseId', '=', kept)
      .execute();
    expect(vitals).toEqual([]);
  });
});
