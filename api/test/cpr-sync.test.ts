// CPR sessions and events through POST /api/sync/push (issue 39): the server refuses bad
// events with a stable code and a clear reason (for the device's rejection inbox), writes
// nothing for them, and goes on with the rest of the batch; ROSC or termination ends the
// session, which then takes only voids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import {
  Device,
  auditEntries,
  buildSyncApp,
  humanId,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('CPR sessions over sync', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t);
  });
  afterAll(() => t.close());

  const START = '2026-12-08T10:00:00.000Z';
  const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
  const events = (session: string) =>
    t.db
      .selectFrom('cprEvents')
      .select(['type', 'voidsEventId', 'userId'])
      .where('cprSessionId', '=', session)
      .orderBy('at')
      .execute();

  it('refuses bad events with a reason, keeps the good ones of the same batch', async () => {
    const device = new Device(alice);
    const session = uuid();
    const res = await device.push(
      device.m('cprSession.upsert', {
        id: session,
        humanId: humanId('S'),
        fields: { startTime: START },
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'shock',
        at: at(-30),
        details: { energyJoules: 150 },
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'shock',
        at: at(25 * 3600),
        details: { energyJoules: 150 },
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'shock',
        at: at(20),
        details: { energyJoules: -5 },
      }),
      device.m('cprEvent.void', {
        id: uuid(),
        cprSessionId: session,
        voidsEventId: uuid(),
        at: at(21),
        reason: 'Wrong button',
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'shock',
        at: at(22),
        details: { energyJoules: 150 },
      }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'applied',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'NOT_FOUND',
      'applied',
    ]);
    expect(res.results[1]?.message).toBe('The event time is before the CPR session started.');
    expect(res.results[2]?.message).toBe(
      'The event time is more than 24 hours after the CPR session started.',
    );
    expect((await events(session)).map((e) => e.type)).toEqual(['shock']);
  });

  it('refuses a shock without its energy and a termination without its reason', async () => {
    const device = new Device(alice);
    const session = uuid();
    const res = await device.push(
      device.m('cprSession.upsert', {
        id: session,
        humanId: humanId('S'),
        fields: { startTime: START },
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'shock',
        at: at(5),
        details: {},
      }),
      device.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'termination',
        at: at(6),
        details: { reason: '  ' },
      }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'applied',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
    ]);
    expect(await events(session)).toEqual([]);
  });

  it('ends the session at ROSC; afterwards only voids, from either device', async () => {
    const lead = new Device(alice);
    const scribe = new Device(bob);
    const session = uuid();
    const shock = uuid();
    const ok = await lead.push(
      lead.m('cprSession.upsert', {
        id: session,
        humanId: humanId('S'),
        fields: { startTime: START },
      }),
      lead.m('cprEvent.record', {
        id: shock,
        cprSessionId: session,
        type: 'shock',
        at: at(60),
        details: { energyJoules: 200 },
      }),
      lead.m('cprEvent.record', { id: uuid(), cprSessionId: session, type: 'rosc', at: at(754) }),
    );
    expect(ok.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    const row = await t.db
      .selectFrom('cprSessions')
      .selectAll()
      .where('id', '=', session)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', outcome: 'rosc', totalDuration: 754 });
    expect(new Date(row.endTime ?? 0).toISOString()).toBe(at(754));

    const late = await scribe.push(
      scribe.m('cprEvent.record', {
        id: uuid(),
        cprSessionId: session,
        type: 'adrenaline',
        at: at(760),
        details: { doseMg: 1 },
      }),
      scribe.m('cprEvent.void', {
        id: uuid(),
        cprSessionId: session,
        voidsEventId: shock,
        at: at(800),
        reason: 'Shock was not delivered',
      }),
      scribe.m('cprSession.upsert', { id: session, fields: { patientAge: '54' } }),
    );
    expect(late.results.map((r) => r.code ?? r.status)).toEqual([
      'CPR_SESSION_COMPLETED',
      'applied',
      'CPR_SESSION_COMPLETED',
    ]);
    expect(late.results[0]?.message).toBe(
      'The CPR session has ended; only corrections (voids) can be added.',
    );
    expect(await events(session)).toEqual([
      { type: 'shock', voidsEventId: null, userId: alice.id },
      { type: 'rosc', voidsEventId: null, userId: alice.id },
      { type: 'void', voidsEventId: shock, userId: bob.id },
    ]);
  });

  it('audits a view and a print of a session, once per access event, for those who may see it', async () => {
    const device = new Device(alice);
    const session = uuid();
    const view = uuid();
    const res = await device.push(
      device.m('cprSession.upsert', {
        id: session,
        humanId: humanId('S'),
        fields: { startTime: START },
      }),
      device.m('cprSession.access', { id: view, cprSessionId: session, action: 'view' }),
      device.m('cprSession.access', { id: uuid(), cprSessionId: session, action: 'print' }),
    );
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    const again = await device.push(
      device.m('cprSession.access', { id: view, cprSessionId: session, action: 'view' }),
    );
    expect(again.results[0]?.code ?? again.results[0]?.status).not.toBe('rejected');
    expect(await auditEntries(t, 'cprSession.view', { entityId: session })).toHaveLength(1);
    expect(await auditEntries(t, 'cprSession.print', { entityId: session })).toHaveLength(1);
  });
});
