// Incident reports through sync (issue 41): the type's own data checked on the server with a
// stable code, completion checked again on the server, the completed report locked, and
// corrections as addenda signed by the server; a refused change holds nothing else back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import type { TestApp } from './helpers';
import {
  Device,
  buildSyncApp,
  humanId,
  pullAll,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

const COMPLETE = {
  incidentType: 'water-rescue' as const,
  title: 'Car in the river',
  description: 'Vehicle swept off a low-water bridge',
  location: 'Liesbeek low-water bridge',
  responderName: 'Thandi Nkosi',
  incidentStartTime: '2026-12-08T08:00:00.000Z',
  incidentEndTime: '2026-12-08T09:00:00.000Z',
  typeSpecificData: { waterType: 'Swift water', victims: 2, rescueTechnique: 'Boat' },
};

describe('incident reports through sync', () => {
  let t: TestApp;
  let alice: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
  });
  afterAll(() => t.close());

  const row = (id: string) =>
    t.db.selectFrom('incidentReports').selectAll().where('id', '=', id).executeTakeFirst();

  it('refuses type data that does not fit the type with TYPE_DATA_INVALID; the next change still applies', async () => {
    const device = new Device(alice);
    const bad = uuid();
    const good = uuid();
    const res = await device.push(
      device.m('incidentReport.upsert', {
        id: bad,
        humanId: humanId('I'),
        fields: { incidentType: 'fire-support', typeSpecificData: { victims: 2 } },
      }),
      device.m('incidentReport.upsert', {
        id: good,
        humanId: humanId('I'),
        fields: { incidentType: 'water-rescue', typeSpecificData: { victims: 2 } },
      }),
    );
    expect(res.results[0]).toMatchObject({
      status: 'rejected',
      code: RejectionCode.TYPE_DATA_INVALID,
    });
    expect(res.results[0]?.message).toContain('typeSpecificData.victims');
    expect(res.results[1]).toMatchObject({ status: 'applied' });
    expect(await row(bad)).toBeUndefined();
    // A later change of the data alone is held to the stored type.
    const later = await device.push(
      device.m('incidentReport.upsert', {
        id: good,
        fields: { typeSpecificData: { victims: -1 } },
      }),
    );
    expect(later.results[0]).toMatchObject({ code: RejectionCode.TYPE_DATA_INVALID });
    expect((await row(good))?.typeSpecificData).toEqual({ victims: 2 });
  });

  it('refuses an unknown type with VALIDATION_FAILED', async () => {
    const device = new Device(alice);
    const res = await device.pushRaw([
      {
        ...device.m('incidentReport.upsert', {
          id: uuid(),
          humanId: humanId('I'),
          fields: { incidentType: 'water-rescue' },
        }),
        args: { id: uuid(), humanId: humanId('I'), fields: { incidentType: 'kite-rescue' } },
      },
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { status: string; code?: string }[] };
    expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'VALIDATION_FAILED' });
  });

  it('completes only a complete report, then locks it; an addendum corrects it with before/after and the author', async () => {
    const device = new Device(alice);
    const id = uuid();
    await device.push(
      device.m('incidentReport.upsert', {
        id,
        humanId: humanId('I'),
        fields: { incidentType: 'water-rescue', title: 'Car in the river' },
      }),
    );
    const early = await device.push(
      device.m('incidentReport.complete', { id, completedAt: '2026-12-08T10:00:00.000Z' }),
    );
    expect(early.results[0]).toMatchObject({ code: RejectionCode.INCIDENT_REPORT_INCOMPLETE });
    expect(early.results[0]?.message).toContain('Record victims');
    expect((await row(id))?.status).toBe('in_progress');

    const done = await device.push(
      device.m('incidentReport.upsert', { id, fields: COMPLETE }),
      device.m('incidentReport.complete', { id, completedAt: '2026-12-08T10:00:00.000Z' }),
    );
    expect(done.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect((await row(id))?.status).toBe('completed');

    const locked = await device.push(
      device.m('incidentReport.upsert', { id, fields: { title: 'Changed' } }),
    );
    expect(locked.results[0]).toMatchObject({ code: RejectionCode.INCIDENT_REPORT_LOCKED });
    expect((await row(id))?.title).toBe('Car in the river');

    const addendumId = uuid();
    const fix = await device.push(
      device.m('incidentReport.addendum', {
        id: addendumId,
        incidentReportId: id,
        reason: 'Three people were on the roof',
        changes: [
          {
            field: 'typeSpecificData',
            before: COMPLETE.typeSpecificData,
            after: { ...COMPLETE.typeSpecificData, victims: 3 },
          },
        ],
      }),
    );
    expect(fix.results[0]?.status).toBe('applied');
    expect((await row(id))?.typeSpecificData).toMatchObject({ victims: 3 });
    const addendum = await t.db
      .selectFrom('incidentReportAddenda')
      .selectAll()
      .where('id', '=', addendumId)
      .executeTakeFirstOrThrow();
    expect(addendum).toMatchObject({
      incidentReportId: id,
      reason: 'Three people were on the roof',
    });
    expect(addendum.authorName).toBeTruthy();

    // An addendum's data is held to the type too.
    const wrong = await device.push(
      device.m('incidentReport.addendum', {
        id: uuid(),
        incidentReportId: id,
        reason: 'x',
        changes: [{ field: 'typeSpecificData', before: null, after: { floors: 2 } }],
      }),
    );
    expect(wrong.results[0]).toMatchObject({ code: RejectionCode.TYPE_DATA_INVALID });

    const pulled = await pullAll(alice.client);
    expect(
      pulled.changes.some((c) => c.entity === 'incidentReportAddendum' && c.id === addendumId),
    ).toBe(true);
  });

  it('an addendum to a report still in progress is refused', async () => {
    const device = new Device(alice);
    const id = uuid();
    await device.push(
      device.m('incidentReport.upsert', {
        id,
        humanId: humanId('I'),
        fields: { incidentType: 'other' },
      }),
    );
    const res = await device.push(
      device.m('incidentReport.addendum', {
        id: uuid(),
        incidentReportId: id,
        reason: 'Early',
        changes: [{ field: 'title', before: null, after: 'X' }],
      }),
    );
    expect(res.results[0]).toMatchObject({ code: RejectionCode.INVALID_STATE });
  });

  it('GET /api/incident-reports lists what the user may read, newest first, by each filter, a page at a time', async () => {
    const bob = await syncUser(t);
    const device = new Device(bob);
    const ids = [uuid(), uuid(), uuid()];
    const fields = [
      {
        incidentType: 'hazmat',
        title: 'Tanker leak N1',
        priority: 'high',
        responderName: 'Sipho Dlamini',
      },
      { incidentType: 'animal-rescue', title: 'Dog in the canal', responderCallSign: 'R9' },
      { incidentType: 'other', title: 'Lift stuck' },
    ] as const;
    // One after another (createdAt is the device's time of each): the newest is the last.
    for (const [i, f] of fields.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await device.push(
        device.m('incidentReport.upsert', { id: ids[i] ?? '', humanId: humanId('I'), fields: f }),
      );
    }
    const get = async (query: string) => {
      const res = await bob.client.get(`/api/incident-reports${query}`);
      expect(res.status).toBe(200);
      return {
        ids: ((await res.json()) as { id: string }[]).map((r) => r.id),
        next: res.headers.get('x-next-cursor'),
      };
    };
    const mine = await get('');
    expect(mine.ids.filter((id) => ids.includes(id))).toEqual([ids[2], ids[1], ids[0]]);
    expect((await get('?incidentType=hazmat')).ids).toEqual([ids[0]]);
    expect((await get('?priority=high')).ids).toEqual([ids[0]]);
    expect((await get('?q=canal')).ids).toEqual([ids[1]]);
    expect((await get('?responder=r9')).ids).toEqual([ids[1]]);
    expect((await get('?responder=dlamini&q=tanker')).ids).toEqual([ids[0]]);
    expect((await get('?to=2020-01-01')).ids).toEqual([]);
    const first = await get('?limit=2');
    expect(first.ids).toHaveLength(2);
    expect(first.next).toBeTruthy();
    const second = await get(`?limit=2&cursor=${first.next ?? ''}`);
    expect(second.ids).not.toContain(first.ids[0]);
    const bad = await bob.client.get('/api/incident-reports?incidentType=kite-rescue');
    expect(bad.status).toBe(400);
    const badCursor = await bob.client.get('/api/incident-reports?cursor=nonsense');
    expect(badCursor.status).toBe(400);
  });
});
