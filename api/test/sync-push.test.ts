// POST /api/sync/push over real HTTP: idempotency, seq order, rejections, locked cases,
// conflicts, permissions and ownership, human-id collisions and protocol versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import type { TestApp } from './helpers';
import {
  Device,
  RESPONDER,
  auditEntries,
  buildSyncApp,
  caseRow,
  humanId,
  newCase,
  setPermissions,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('sync push', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t);
  });
  afterAll(() => t.close());

  it('applies a new case with the device time as createdAt and the pusher as owner', async () => {
    const device = new Device(alice);
    const { id, caseId } = await newCase(device, {
      patientName: 'Thandi',
      incidentLatitude: '-33.92487',
      oxygenAdministered: true,
    });
    const row = await caseRow(t, id);
    expect(row).toMatchObject({
      caseId,
      patientName: 'Thandi',
      oxygenAdministered: true,
      userId: alice.id,
      status: 'in_progress',
    });
    expect(Number(row.incidentLatitude)).toBe(-33.92487);
    const audit = await auditEntries(t, 'sync.case.upsert', { entityId: id });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorUserId).toBe(alice.id);
  });

  it('acknowledges a replayed batch as duplicates without a second effect (response lost after commit)', async () => {
    const device = new Device(alice);
    const caseUuid = uuid();
    const batch = [
      device.m('case.upsert', {
        id: caseUuid,
        humanId: humanId('C'),
        fields: { patientName: 'Sipho' },
      }),
      device.m('vitalSign.record', {
        id: uuid(),
        caseId: caseUuid,
        type: 'heartRate',
        value: '88',
        numericValue: 88,
        timestamp: new Date().toISOString(),
      }),
      device.m('case.upsert', { id: caseUuid, fields: { patientName: 'Sipho Dlamini' } }),
    ];
    const first = await device.push(...batch);
    expect(first.lastAppliedSeq).toBe(3);
    expect(first.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    const versionAfter = (await caseRow(t, caseUuid)).version;
    const auditCount = async () =>
      (await t.db.selectFrom('auditLog').select('id').where('entityId', '=', caseUuid).execute())
        .length;
    const auditsAfter = await auditCount();

    // The response never reached the device; it sends the same batch again.
    const replay = await device.push(...batch);
    expect(replay.lastAppliedSeq).toBe(3);
    expect(replay.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect((await caseRow(t, caseUuid)).version).toBe(versionAfter);
    expect(
      await t.db.selectFrom('vitalSigns').select('id').where('caseId', '=', caseUuid).execute(),
    ).toHaveLength(1);
    expect(await auditCount()).toBe(auditsAfter);
    expect((await caseRow(t, caseUuid)).patientName).toBe('Sipho Dlamini');
  });

  it('stops the batch at a gap and applies nothing after it', async () => {
    const device = new Device(alice);
    const { id } = await newCase(device);
    const m2 = device.m('case.upsert', { id, fields: { patientName: 'Two' } });
    const m3 = device.m('case.upsert', { id, fields: { patientName: 'Three' } });
    const m4 = device.m('case.upsert', { id, fields: { patientName: 'Four' } });
    const gap = await device.push(m3, m4);
    expect(gap.lastAppliedSeq).toBe(1);
    expect(gap.results).toEqual([]);
    expect((await caseRow(t, id)).patientName).toBe('Thandi');
    // Delivered out of order inside one batch, the server still applies them in seq order.
    const healed = await device.push(m4, m2, m3);
    expect(healed.lastAppliedSeq).toBe(4);
    expect(healed.results.map((r) => [r.seq, r.status])).toEqual([
      [2, 'applied'],
      [3, 'applied'],
      [4, 'applied'],
    ]);
    expect((await caseRow(t, id)).patientName).toBe('Four');
  });

  it('rejects a mutation that can never apply, records it, and goes on with the queue', async () => {
    const device = new Device(alice);
    const { id } = await newCase(device);
    const bad = device.m('case.upsert', { id, fields: { gcsEyeOpening: 9 } });
    const unknown = { ...device.m('case.upsert', { id, fields: {} }), name: 'case.teleport' };
    const good = device.m('case.upsert', { id, fields: { gcsEyeOpening: 3 } });
    const res = await device.push(bad, unknown as never, good);
    expect(res.lastAppliedSeq).toBe(4);
    expect(res.results.map((r) => [r.status, r.code])).toEqual([
      ['rejected', RejectionCode.VALIDATION_FAILED],
      ['rejected', RejectionCode.VALIDATION_FAILED],
      ['applied', undefined],
    ]);
    expect(res.results[0]?.message).toContain('gcsEyeOpening');
    expect((await caseRow(t, id)).gcsEyeOpening).toBe(3);
    const rejections = await t.db
      .selectFrom('syncRejections')
      .selectAll()
      .where('deviceId', '=', device.deviceId)
      .orderBy('seq')
      .execute();
    expect(rejections.map((r) => [Number(r.seq), r.reason])).toEqual([
      [2, 'VALIDATION_FAILED'],
      [3, 'VALIDATION_FAILED'],
    ]);
    expect(rejections[0]?.details).toMatchObject({
      name: 'case.upsert',
      args: { id, fields: { gcsEyeOpening: 9 } },
    });
    // A rejected mutation is acknowledged too: replaying it (the first answer was lost) gets
    // the same rejection again, with no second effect and no second record of it.
    const replayed = (await device.push(bad)).results[0];
    expect(replayed).toMatchObject({ status: 'rejected', code: 'VALIDATION_FAILED' });
    expect(replayed?.message).toEqual(expect.any(String));
    const again = await t.db
      .selectFrom('syncRejections')
      .select('id')
      .where('deviceId', '=', device.deviceId)
      .execute();
    expect(again).toHaveLength(2);
  });

  it('rejects a write referring to a record the server does not have, without blocking', async () => {
    const device = new Device(alice);
    const orphan = device.m('vitalSign.record', {
      id: uuid(),
      caseId: uuid(),
      type: 'spo2',
      value: '97',
      timestamp: new Date().toISOString(),
    });
    const res = await device.push(orphan);
    expect(res.results[0]).toMatchObject({ status: 'rejected', code: RejectionCode.NOT_FOUND });
    expect(res.lastAppliedSeq).toBe(1);
  });

  it('locks a completed case: only addenda are accepted', async () => {
    const device = new Device(alice);
    const { id } = await newCase(device);
    const vital = uuid();
    await device.push(
      device.m('vitalSign.record', {
        id: vital,
        caseId: id,
        type: 'heartRate',
        value: '120',
        numericValue: 120,
        timestamp: new Date().toISOString(),
      }),
    );
    const completedAt = new Date().toISOString();
    expect(
      (await device.push(device.m('case.complete', { id, completedAt }))).results[0]?.status,
    ).toBe('applied');
    expect(await caseRow(t, id)).toMatchObject({ status: 'completed' });

    const res = await device.push(
      device.m('case.upsert', { id, fields: { patientName: 'Changed' } }),
      device.m('vitalSign.record', {
        id: uuid(),
        caseId: id,
        type: 'heartRate',
        value: '100',
        timestamp: new Date().toISOString(),
      }),
      device.m('vitalSign.void', { id: vital, reason: 'wrong patient' }),
      device.m('case.delete', { id }),
      device.m('case.addendum', {
        id: uuid(),
        caseId: id,
        reason: 'Name spelt wrong',
        changes: [{ field: 'patientName', before: 'Thandi', after: 'Thandie' }],
      }),
      device.m('case.complete', { id, completedAt }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'CASE_LOCKED',
      'CASE_LOCKED',
      'CASE_LOCKED',
      'CASE_LOCKED',
      'applied',
      'applied',
    ]);
    // The edit was refused; the addendum's correction is applied.
    expect(await caseRow(t, id)).toMatchObject({
      patientName: 'Thandie',
      status: 'completed',
      deletedAt: null,
    });
    const addenda = await t.db
      .selectFrom('caseAddenda')
      .selectAll()
      .where('caseId', '=', id)
      .execute();
    expect(addenda).toHaveLength(1);
    expect(addenda[0]).toMatchObject({
      reason: 'Name spelt wrong',
      userId: alice.id,
      changes: [{ field: 'patientName', before: 'Thandi', after: 'Thandie' }],
    });
  });

  it('keeps vital signs and CPR events append-only: corrections are voids', async () => {
    const device = new Device(alice);
    const { id } = await newCase(device);
    const vital = uuid();
    const at = new Date().toISOString();
    const record = {
      id: vital,
      caseId: id,
      type: 'bloodGlucose' as const,
      value: '2.1',
      numericValue: 2.1,
      timestamp: at,
    };
    await device.push(device.m('vitalSign.record', record));
    const res = await device.push(
      device.m('vitalSign.record', { ...record, value: '5.1', numericValue: 5.1 }),
      device.m('vitalSign.void', { id: vital, reason: 'Meter not calibrated' }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual(['APPEND_ONLY', 'applied']);
    expect(
      await t.db.selectFrom('vitalSigns').selectAll().where('id', '=', vital).executeTakeFirst(),
    ).toMatchObject({
      value: '2.1',
      voidReason: 'Meter not calibrated',
    });

    const session = uuid();
    const shock = uuid();
    const voiding = uuid();
    const cpr = await device.push(
      device.m('cprSession.upsert', {
        id: session,
        humanId: humanId('S'),
        fields: { startTime: at, caseId: id },
      }),
      device.m('cprEvent.record', {
        id: shock,
        cprSessionId: session,
        type: 'shock',
        at,
        details: { energyJoules: 200 },
      }),
      device.m('cprEvent.void', {
        id: voiding,
        cprSessionId: session,
        voidsEventId: shock,
        at,
        reason: 'Logged twice',
      }),
    );
    expect(cpr.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    const events = await t.db
      .selectFrom('cprEvents')
      .selectAll()
      .where('cprSessionId', '=', session)
      .orderBy('version')
      .execute();
    expect(events.map((e) => [e.type, e.voidsEventId])).toEqual([
      ['shock', null],
      ['void', shock],
    ]);
  });

  it('applies the later write but records a conflict when another person changed the field since the base version', async () => {
    const admin = await syncUser(t, {}, 'administrator');
    const aliceDevice = new Device(alice);
    const adminDevice = new Device(admin);
    const { id } = await newCase(aliceDevice, {
      patientName: 'Unknown male',
      patientGender: 'male',
    });
    const base = (await caseRow(t, id)).version;

    const adminEdit = await adminDevice.push(
      adminDevice.m(
        'case.upsert',
        { id, fields: { patientName: 'John Mokoena' } },
        { baseVersion: base },
      ),
    );
    expect(adminEdit.results[0]).toMatchObject({ status: 'applied' });
    expect(adminEdit.results[0]?.conflicts).toBeUndefined();

    // Alice edited offline from the same base: her write wins, the admin's value is kept for review.
    const aliceEdit = await aliceDevice.push(
      aliceDevice.m(
        'case.upsert',
        { id, fields: { patientName: 'J. Mokoena', patientGender: 'male', approximateAge: 40 } },
        { baseVersion: base },
      ),
    );
    expect(aliceEdit.results[0]).toMatchObject({
      status: 'applied',
      conflicts: [{ field: 'patientName', serverValue: 'John Mokoena', clientValue: 'J. Mokoena' }],
    });
    expect(await caseRow(t, id)).toMatchObject({
      patientName: 'J. Mokoena',
      approximateAge: 40,
      updatedBy: alice.id,
    });
    const conflicts = await t.db
      .selectFrom('syncConflicts')
      .selectAll()
      .where('entityId', '=', id)
      .execute();
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({
      entityType: 'cases',
      field: 'patientName',
      serverValue: 'John Mokoena',
      clientValue: 'J. Mokoena',
      serverAuthor: admin.id,
      clientAuthor: alice.id,
      resolvedAt: null,
    });

    // The same person on a second device: last write wins, no conflict.
    const tablet = new Device(alice);
    const again = await tablet.push(
      tablet.m(
        'case.upsert',
        { id, fields: { patientName: 'Jabu Mokoena' } },
        { baseVersion: base },
      ),
    );
    expect(again.results[0]?.conflicts).toBeUndefined();
    // A base version that already includes the other person's write is no conflict either.
    const current = (await caseRow(t, id)).version;
    const fresh = await adminDevice.push(
      adminDevice.m(
        'case.upsert',
        { id, fields: { patientName: 'Jabulani Mokoena' } },
        { baseVersion: current },
      ),
    );
    expect(fresh.results[0]?.conflicts).toBeUndefined();
    expect(
      await t.db.selectFrom('syncConflicts').select('id').where('entityId', '=', id).execute(),
    ).toHaveLength(1);
  });

  it("checks ownership before it answers anything about a record's state (deleted, completed)", async () => {
    const aliceDevice = new Device(alice);
    const { id } = await newCase(aliceDevice);
    await aliceDevice.push(aliceDevice.m('case.delete', { id }));
    const stranger = new Device(await syncUser(t));
    const answer = await stranger.push(
      stranger.m('case.upsert', { id, fields: { patientName: 'Probe' } }),
      stranger.m('case.complete', { id, completedAt: new Date().toISOString() }),
      stranger.m('vitalSign.record', {
        id: uuid(),
        caseId: id,
        type: 'spo2',
        value: '90',
        timestamp: new Date().toISOString(),
      }),
    );
    // Not DELETED: a responder who may not change Alice's cases learns no more than that.
    expect(answer.results.map((r) => r.code)).toEqual([
      RejectionCode.NOT_OWNER,
      RejectionCode.NOT_OWNER,
      RejectionCode.NOT_OWNER,
    ]);
    // The owner is told the truth.
    const own = await aliceDevice.push(
      aliceDevice.m('case.upsert', { id, fields: { patientName: 'Late edit' } }),
    );
    expect(own.results[0]?.code).toBe(RejectionCode.DELETED);
  });

  it('enforces permissions and ownership through sync, and audits the denials', async () => {
    const viewer = await syncUser(t, {});
    const viewerDevice = new Device(viewer);
    const denied = await viewerDevice.push(
      viewerDevice.m('case.upsert', {
        id: uuid(),
        humanId: humanId('C'),
        fields: { patientName: 'X' },
      }),
    );
    expect(denied.results[0]).toMatchObject({ status: 'rejected', code: RejectionCode.FORBIDDEN });

    const { id } = await newCase(new Device(alice));
    const bobDevice = new Device(bob);
    const notOwner = await bobDevice.push(
      bobDevice.m('case.upsert', { id, fields: { patientName: 'Hijacked' } }),
      bobDevice.m('vitalSign.record', {
        id: uuid(),
        caseId: id,
        type: 'spo2',
        value: '90',
        timestamp: new Date().toISOString(),
      }),
      bobDevice.m('case.delete', { id }),
    );
    expect(notOwner.results.map((r) => r.code)).toEqual(['NOT_OWNER', 'NOT_OWNER', 'NOT_OWNER']);
    expect(await caseRow(t, id)).toMatchObject({ patientName: 'Thandi', deletedAt: null });
    const denials = await auditEntries(t, 'sync.rejected', { actorUserId: bob.id });
    expect(denials).toHaveLength(3);
    expect(denials.every((d) => d.outcome === 'denied')).toBe(true);

    const supervisor = await syncUser(t, {
      ...RESPONDER,
      casesLogged: { view: true, edit: true, delete: true },
    });
    const supDevice = new Device(supervisor);
    const allowed = await supDevice.push(
      supDevice.m('case.upsert', { id, fields: { patientName: 'Corrected' } }),
      supDevice.m('case.delete', { id }),
    );
    expect(allowed.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await caseRow(t, id)).toMatchObject({ patientName: 'Corrected', userId: alice.id });
    expect((await caseRow(t, id)).deletedAt).not.toBeNull();
  });

  it('rejects a human id that already belongs to another record, never merging them', async () => {
    const shared = humanId('C');
    const d1 = new Device(alice);
    const d2 = new Device(bob);
    const first = uuid();
    const second = uuid();
    expect(
      (
        await d1.push(
          d1.m('case.upsert', { id: first, humanId: shared, fields: { patientName: 'First' } }),
        )
      ).results[0]?.status,
    ).toBe('applied');
    const clash = await d2.push(
      d2.m('case.upsert', { id: second, humanId: shared, fields: { patientName: 'Second' } }),
    );
    expect(clash.results[0]).toMatchObject({
      status: 'rejected',
      code: RejectionCode.HUMAN_ID_COLLISION,
    });
    expect(await caseRow(t, first)).toMatchObject({ patientName: 'First', userId: alice.id });
    expect(
      await t.db.selectFrom('cases').select('id').where('id', '=', second).executeTakeFirst(),
    ).toBeUndefined();
    const rejection = await t.db
      .selectFrom('syncRejections')
      .selectAll()
      .where('deviceId', '=', d2.deviceId)
      .executeTakeFirstOrThrow();
    expect(rejection.details).toMatchObject({ humanId: shared, existingId: first });
    // Also for incident numbers: a report and a mass-casualty incident each check their own table.
    const incident = humanId('I');
    const r1 = await d1.push(
      d1.m('incidentReport.upsert', {
        id: uuid(),
        humanId: incident,
        fields: { incidentType: 'water-rescue' },
      }),
    );
    const r2 = await d2.push(
      d2.m('incidentReport.upsert', {
        id: uuid(),
        humanId: incident,
        fields: { incidentType: 'hazmat' },
      }),
    );
    expect([r1.results[0]?.status, r2.results[0]?.code]).toEqual(['applied', 'HUMAN_ID_COLLISION']);
  });

  it('answers 426 UPDATE_REQUIRED to a client older than the minimum protocol, acknowledging nothing', async () => {
    const device = new Device(alice);
    const m = device.m('case.upsert', { id: uuid(), humanId: humanId('C'), fields: {} });
    for (const path of ['/api/sync/push', '/api/sync/pull']) {
      const res = await alice.client.post(path, {
        protocolVersion: 0,
        schemaVersion: 1,
        deviceId: device.deviceId,
        mutations: [m],
        cursor: null,
      });
      expect(res.status).toBe(426);
      expect(await res.json()).toMatchObject({ code: 'UPDATE_REQUIRED' });
    }
    expect(
      await t.db
        .selectFrom('devices')
        .select('deviceId')
        .where('deviceId', '=', device.deviceId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('acknowledges nothing without a session, for another actor, or for a device of another user', async () => {
    const device = new Device(alice);
    const m = device.m('case.upsert', { id: uuid(), humanId: humanId('C'), fields: {} });
    const anonymous = await t.client().post('/api/sync/push', {
      protocolVersion: 1,
      schemaVersion: 1,
      deviceId: device.deviceId,
      mutations: [m],
    });
    expect(anonymous.status).toBe(401);

    const asBob = await bob.client.post('/api/sync/push', {
      protocolVersion: 1,
      schemaVersion: 1,
      deviceId: device.deviceId,
      mutations: [m],
    });
    expect(asBob.status).toBe(403);
    expect(await asBob.json()).toMatchObject({ code: 'ACTOR_MISMATCH' });

    expect((await device.push(m)).lastAppliedSeq).toBe(1);
    const bobOnAlicesDevice = new Device(bob);
    const hijack = await bobOnAlicesDevice.pushRaw(
      [
        {
          ...bobOnAlicesDevice.m('case.upsert', { id: uuid(), humanId: humanId('C'), fields: {} }),
          deviceId: device.deviceId,
        },
      ],
      {
        deviceId: device.deviceId,
      },
    );
    expect(hijack.status).toBe(409);
    expect(await hijack.json()).toMatchObject({ code: 'DEVICE_USER_MISMATCH' });
  });

  it('refuses a malformed batch with 400 and no effect', async () => {
    const device = new Device(alice);
    const res = await device.pushRaw([{ seq: 1 }]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await device.pushRaw([])).status).toBe(400);
  });

  it('syncs incident reports, mass-casualty incidents and casualties, and soft-deletes reports', async () => {
    const device = new Device(alice);
    const report = uuid();
    const mci = uuid();
    const casualty = uuid();
    const res = await device.push(
      device.m('incidentReport.upsert', {
        id: report,
        humanId: humanId('I'),
        fields: {
          incidentType: 'vehicle-extrication',
          latitude: -26.2041,
          longitude: '28.0473',
          typeSpecificData: { vehiclesInvolved: 2 },
        },
      }),
      device.m('mciIncident.upsert', {
        id: mci,
        humanId: humanId('I'),
        fields: { startedAt: new Date().toISOString(), incidentType: 'bus crash' },
      }),
      device.m('mciCasualty.record', {
        id: casualty,
        mciIncidentId: mci,
        tagNumber: 'T-001',
        triageColour: 'RED',
      }),
      device.m('mciCasualty.update', {
        id: casualty,
        fields: { assignedTo: 'Sipho', transported: true },
      }),
      device.m('incidentReport.delete', { id: report }),
    );
    // RESPONDER has incidentReports without delete.
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      'FORBIDDEN',
    ]);
    expect(
      await t.db
        .selectFrom('mciCasualties')
        .selectAll()
        .where('id', '=', casualty)
        .executeTakeFirst(),
    ).toMatchObject({
      triageColour: 'RED',
      assignedTo: 'Sipho',
      transported: true,
      userId: alice.id,
    });
    const stored = await t.db
      .selectFrom('incidentReports')
      .selectAll()
      .where('id', '=', report)
      .executeTakeFirstOrThrow();
    expect([
      Number(stored.latitude),
      Number(stored.longitude),
      stored.typeSpecificData,
      stored.deletedAt,
    ]).toEqual([-26.2041, 28.0473, { vehiclesInvolved: 2 }, null]);

    await setPermissions(t, alice.id, {
      ...RESPONDER,
      incidentReports: { read: true, create: true, edit: true, delete: true },
    });
    try {
      const removed = await device.push(
        device.m('incidentReport.delete', { id: report }),
        device.m('incidentReport.upsert', { id: report, fields: { title: 'Too late' } }),
      );
      expect(removed.results.map((r) => r.code ?? r.status)).toEqual(['applied', 'DELETED']);
      expect(
        (
          await t.db
            .selectFrom('incidentReports')
            .select('deletedAt')
            .where('id', '=', report)
            .executeTakeFirstOrThrow()
        ).deletedAt,
      ).toBeInstanceOf(Date);
    } finally {
      await setPermissions(t, alice.id, RESPONDER);
    }
  });
});
