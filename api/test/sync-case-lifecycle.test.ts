// The case lifecycle through sync (docs/decisions/007): access events recorded on a device
// (case.access) land in the audit log once; completion is checked on the server; addenda on
// a completed case apply their `after` values, record a conflict instead of silently
// overwriting another person's later change, and the device shows them at once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import { readRejections, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import type { TestApp } from './helpers';
import {
  Device,
  OWN_CASES_ONLY,
  RESPONDER,
  auditEntries,
  buildSyncApp,
  caseRow,
  completeCaseVital,
  completedCase,
  newCase,
  pullAll,
  syncUser,
  transportAs,
  uuid,
  type SyncUser,
} from './sync-fixtures';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

describe('case lifecycle through sync', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t);
  });
  afterAll(() => t.close());

  const accessAudits = (eventId: string) =>
    t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', 'like', 'case.%')
      .where((eb) => eb(eb.ref('details', '->>').key('accessEventId'), '=', eventId))
      .execute();

  describe('case.access', () => {
    it('writes one audit entry with who, what, the case, when it happened and was received, and from where; no record changes', async () => {
      const device = new Device(alice);
      const { id, caseId } = await newCase(device);
      const before = await caseRow(t, id);
      const eventId = uuid();
      const m = device.m('case.access', {
        id: eventId,
        caseId: id,
        action: 'print',
        detail: 'handover',
      });
      const occurredAt = '2026-11-21T06:00:00.000Z';
      const started = Date.now();
      const res = await device.push({ ...m, clientTime: occurredAt });
      expect(res.results[0]).toMatchObject({ status: 'applied' });

      const [entry, ...more] = await accessAudits(eventId);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actorUserId: alice.id,
        action: 'case.print',
        outcome: 'success',
        entityType: 'case',
        entityId: id,
        ip: '127.0.0.1',
        details: {
          accessEventId: eventId,
          caseId: id,
          humanId: caseId,
          occurredAt,
          detail: 'handover',
          source: 'device',
        },
      });
      expect(entry?.userAgent).toEqual(expect.any(String));
      // `at` is the server's receipt, not the device's clock.
      expect(entry?.at.getTime()).toBeGreaterThanOrEqual(started - 5_000);
      const after = await caseRow(t, id);
      expect(after.version).toBe(before.version);
      expect(after.updatedAt).toEqual(before.updatedAt);
    });

    it('is idempotent by the event id: a replay, or the same event under a new mutation, adds no second entry', async () => {
      const device = new Device(alice);
      const { id } = await newCase(device);
      const eventId = uuid();
      const first = device.m('case.access', { id: eventId, caseId: id, action: 'view' });
      expect((await device.push(first)).results[0]?.status).toBe('applied');
      expect((await device.push(first)).results[0]?.status).toBe('duplicate');
      // Another device (say the app reinstalled, with a fresh outbox) sends the same event.
      const other = new Device(alice);
      const resent = other.m('case.access', { id: eventId, caseId: id, action: 'view' });
      expect((await other.push(resent)).results[0]?.status).toBe('applied');
      expect(await accessAudits(eventId)).toHaveLength(1);
      // The id reused for something else is refused, not merged.
      const reused = other.m('case.access', { id: eventId, caseId: id, action: 'export' });
      expect((await other.push(reused)).results[0]).toMatchObject({
        status: 'rejected',
        code: RejectionCode.APPEND_ONLY,
      });
      expect(await accessAudits(eventId)).toHaveLength(1);
    });

    it('is recorded on a completed or deleted case, and refused for an unknown case', async () => {
      const device = new Device(alice);
      const completed = await completedCase(device);
      const deleted = await newCase(device);
      await device.push(device.m('case.delete', { id: deleted.id }));
      const res = await device.push(
        device.m('case.access', { id: uuid(), caseId: completed.id, action: 'pdf' }),
        device.m('case.access', { id: uuid(), caseId: deleted.id, action: 'view' }),
        device.m('case.access', { id: uuid(), caseId: uuid(), action: 'view' }),
      );
      expect(res.results.map((r) => r.code ?? r.status)).toEqual([
        'applied',
        'applied',
        RejectionCode.NOT_FOUND,
      ]);
    });

    it('refuses and audits as a denial the access of a case the actor may not see; anyone who may see it is never refused', async () => {
      const device = new Device(alice);
      const { id } = await newCase(device);
      const outsider = await syncUser(t, OWN_CASES_ONLY);
      const od = new Device(outsider);
      const eventId = uuid();
      const refused = await od.push(
        od.m('case.access', { id: eventId, caseId: id, action: 'export' }),
      );
      expect(refused.results[0]).toMatchObject({
        status: 'rejected',
        code: RejectionCode.FORBIDDEN,
      });
      expect(await accessAudits(eventId)).toEqual([]);
      expect(await auditEntries(t, 'sync.rejected', { actorUserId: outsider.id })).toMatchObject([
        { outcome: 'denied', details: { caseId: id, code: 'FORBIDDEN' } },
      ]);

      // Bob may see every case (casesLogged view) but edit none of Alice's: his access counts.
      const bd = new Device(bob);
      expect(
        (await bd.push(bd.m('case.access', { id: uuid(), caseId: id, action: 'view' }))).results[0]
          ?.status,
      ).toBe('applied');
    });
  });

  describe('case.complete', () => {
    it('is refused with CASE_INCOMPLETE listing every problem while required fields are missing', async () => {
      const device = new Device(alice);
      const { id } = await newCase(device, { patientName: 'Sipho', incidentType: 'Fall' });
      const res = await device.push(
        device.m('case.complete', { id, completedAt: new Date().toISOString() }),
      );
      expect(res.results[0]).toMatchObject({
        status: 'rejected',
        code: RejectionCode.CASE_INCOMPLETE,
      });
      const message = res.results[0]?.message ?? '';
      for (const problem of [
        'incident location',
        'approximate age',
        'gender',
        'level of consciousness',
        'triage status',
        'vital signs',
        'call was received',
        'responder arrival time',
        'receiving hospital',
      ])
        expect(message).toContain(problem);
      expect(message).not.toContain('incident type');
      expect((await caseRow(t, id)).status).toBe('in_progress');
      const rejection = await t.db
        .selectFrom('syncRejections')
        .select('details')
        .where('deviceId', '=', device.deviceId)
        .executeTakeFirstOrThrow();
      expect(rejection.details.problems).toEqual(
        expect.arrayContaining([
          { field: 'vitalSigns', step: 'secondary-survey', message: expect.any(String) },
        ]),
      );
    });

    it('counts only readings that are not voided, and completes once the case is whole', async () => {
      const device = new Device(alice);
      const { id } = await newCase(device);
      const vital = completeCaseVital(id);
      const res = await device.push(
        device.m('vitalSign.record', vital),
        device.m('vitalSign.void', { id: vital.id, reason: 'Wrong patient' }),
        device.m('case.complete', { id, completedAt: new Date().toISOString() }),
      );
      expect(res.results.map((r) => r.code ?? r.status)).toEqual([
        'applied',
        'applied',
        RejectionCode.CASE_INCOMPLETE,
      ]);
      expect(res.results[2]?.message).toBe(
        'The case cannot be completed: Record at least one set of vital signs.',
      );
      const completedAt = '2026-11-21T09:30:00.000Z';
      const done = await device.push(
        device.m('vitalSign.record', completeCaseVital(id)),
        device.m('case.complete', { id, completedAt }),
      );
      expect(done.results.map((r) => r.status)).toEqual(['applied', 'applied']);
      expect(await caseRow(t, id)).toMatchObject({
        status: 'completed',
        completedAt: new Date(completedAt),
      });
    });
  });

  describe('case.addendum', () => {
    it('is refused on a case in progress: change the fields directly', async () => {
      const device = new Device(alice);
      const { id } = await newCase(device);
      const res = await device.push(
        device.m('case.addendum', {
          id: uuid(),
          caseId: id,
          reason: 'Typo',
          changes: [{ field: 'patientName', before: 'Thandi', after: 'Thandie' }],
        }),
      );
      expect(res.results[0]).toMatchObject({
        status: 'rejected',
        code: RejectionCode.INVALID_STATE,
      });
      expect(res.results[0]?.message).toContain('still in progress');
      expect(
        await t.db.selectFrom('caseAddenda').select('id').where('caseId', '=', id).execute(),
      ).toEqual([]);
      expect((await caseRow(t, id)).patientName).toBe('Thandi');
    });

    it('applies each change to the completed case with a new version every device pulls', async () => {
      const device = new Device(alice);
      const { id } = await completedCase(device);
      const before = await caseRow(t, id);
      const cursor = (await pullAll(bob.client)).cursor;
      const addendumId = uuid();
      const res = await device.push(
        device.m('case.addendum', {
          id: addendumId,
          caseId: id,
          reason: 'Age confirmed from ID document; hospital changed en route',
          changes: [
            { field: 'approximateAge', before: 34, after: 36 },
            { field: 'receivingHospital', before: 'Tygerberg Hospital', after: 'Groote Schuur' },
            { field: 'patientName', before: 'Thandi', after: 'Thandi' },
          ],
        }),
      );
      expect(res.results[0]).toMatchObject({ status: 'applied' });
      expect(res.results[0]?.conflicts).toBeUndefined();
      const after = await caseRow(t, id);
      expect(after).toMatchObject({
        approximateAge: 36,
        receivingHospital: 'Groote Schuur',
        patientName: 'Thandi',
        status: 'completed',
        updatedBy: alice.id,
      });
      expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
      const versions = after.fieldVersions as Record<string, { version: string; by: number }>;
      expect(versions.approximateAge).toEqual({ version: expect.any(String), by: alice.id });
      expect(versions.receivingHospital).toEqual(versions.approximateAge);
      // Unchanged fields keep their version.
      expect(versions.patientName).toEqual(
        (before.fieldVersions as Record<string, unknown>).patientName,
      );
      const [audit] = await auditEntries(t, 'sync.case.addendum', { entityId: addendumId });
      expect(audit?.details).toMatchObject({
        caseId: id,
        fields: ['approximateAge', 'receivingHospital', 'patientName'],
        applied: ['approximateAge', 'receivingHospital'],
        fieldVersion: versions.approximateAge?.version,
      });
      // Another user's device pulls the corrected case and the addendum.
      const pulled = await pullAll(bob.client, cursor);
      expect(pulled.changes.find((c) => c.entity === 'case' && c.id === id)?.data).toMatchObject({
        approximateAge: 36,
        receivingHospital: 'Groote Schuur',
      });
      expect(pulled.changes.some((c) => c.entity === 'caseAddendum' && c.id === addendumId)).toBe(
        true,
      );
    });

    it('refuses a value the case field does not accept, or a field listed twice, and changes nothing', async () => {
      const device = new Device(alice);
      const { id } = await completedCase(device);
      const before = await caseRow(t, id);
      const bad = await device.push(
        device.m('case.addendum', {
          id: uuid(),
          caseId: id,
          reason: 'Fix',
          changes: [
            { field: 'patientName', before: 'Thandi', after: 'Thandiwe' },
            { field: 'approximateAge', before: 34, after: 'thirty-six' },
          ],
        }),
        device.m('case.addendum', {
          id: uuid(),
          caseId: id,
          reason: 'Fix',
          changes: [
            { field: 'patientName', before: 'Thandi', after: 'A' },
            { field: 'patientName', before: 'A', after: 'B' },
          ],
        }),
      );
      expect(bad.results.map((r) => r.code)).toEqual([
        RejectionCode.VALIDATION_FAILED,
        RejectionCode.VALIDATION_FAILED,
      ]);
      expect(bad.results[0]?.message).toContain('approximateAge');
      const after = await caseRow(t, id);
      expect(after.version).toBe(before.version);
      expect(after.patientName).toBe('Thandi');
      expect(
        await t.db.selectFrom('caseAddenda').select('id').where('caseId', '=', id).execute(),
      ).toEqual([]);
    });

    it("applies a correction made from a stale value but records a conflict with the other person's value", async () => {
      const device = new Device(alice);
      const { id } = await completedCase(device);
      const supervisor = await syncUser(t, {
        ...RESPONDER,
        casesLogged: { view: true, edit: true, delete: false },
      });
      const sd = new Device(supervisor);
      // The supervisor corrects the hospital first…
      expect(
        (
          await sd.push(
            sd.m('case.addendum', {
              id: uuid(),
              caseId: id,
              reason: 'Diverted',
              changes: [
                { field: 'receivingHospital', before: 'Tygerberg Hospital', after: 'Karl Bremer' },
              ],
            }),
          )
        ).results[0]?.conflicts,
      ).toBeUndefined();
      // …then Alice, offline, corrects it from the value she saw.
      const res = await device.push(
        device.m('case.addendum', {
          id: uuid(),
          caseId: id,
          reason: 'Wrong hospital',
          changes: [
            { field: 'receivingHospital', before: 'Tygerberg Hospital', after: 'Groote Schuur' },
          ],
        }),
      );
      expect(res.results[0]).toMatchObject({
        status: 'applied',
        conflicts: [
          { field: 'receivingHospital', serverValue: 'Karl Bremer', clientValue: 'Groote Schuur' },
        ],
      });
      expect((await caseRow(t, id)).receivingHospital).toBe('Groote Schuur');
      const conflicts = await t.db
        .selectFrom('syncConflicts')
        .selectAll()
        .where('entityId', '=', id)
        .execute();
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({
        entityType: 'cases',
        field: 'receivingHospital',
        serverValue: 'Karl Bremer',
        clientValue: 'Groote Schuur',
        serverAuthor: supervisor.id,
        clientAuthor: alice.id,
      });
      // Her own later correction from a stale value is no conflict (she wrote it last).
      const again = await device.push(
        device.m('case.addendum', {
          id: uuid(),
          caseId: id,
          reason: 'Spelling',
          changes: [
            { field: 'receivingHospital', before: 'Karl Bremer', after: 'Groote Schuur Hospital' },
          ],
        }),
      );
      expect(again.results[0]?.conflicts).toBeUndefined();
      expect(
        await t.db.selectFrom('syncConflicts').select('id').where('entityId', '=', id).execute(),
      ).toHaveLength(1);
    });

    it('shows on the device at once, offline, and stays after the server applies it', async () => {
      const device = new Device(alice);
      const { id } = await completedCase(device);
      const db = openAppDatabase(alice.id, { indexedDB: new IDBFactory(), IDBKeyRange });
      try {
        const transport = transportAs(alice);
        expect(await pullChanges({ db, transport })).toMatchObject({ kind: 'pulled' });
        expect(await db.store('cases').get(id)).toMatchObject({
          status: 'completed',
          approximateAge: 34,
        });
        await saveMutation(db, {
          name: 'case.addendum',
          args: {
            id: uuid(),
            caseId: id,
            reason: 'Age from ID',
            changes: [
              { field: 'approximateAge', before: 34, after: 35 },
              { field: 'patientGender', before: 'female', after: 'male' },
            ],
          },
          baseVersion: null,
          actorUserId: alice.id,
        });
        expect(await db.store('cases').get(id)).toMatchObject({
          approximateAge: 35,
          patientGender: 'male',
        });
        expect(await drainOutbox({ db, transport })).toMatchObject({
          kind: 'drained',
          rejected: 0,
        });
        expect(await pullChanges({ db, transport })).toMatchObject({ kind: 'pulled' });
        const server = await caseRow(t, id);
        expect(await db.store('cases').get(id)).toMatchObject({
          approximateAge: 35,
          patientGender: 'male',
          version: server.version,
        });
        expect(await readRejections(db)).toEqual([]);
      } finally {
        db.close();
      }
    });
  });

  describe('case.discard (issue 37: an untouched New Case leaves nothing behind)', () => {
    const started = { responderName: 'Alice Mokoena', responderCallSign: 'R1' };

    it("tombstones its author's case that holds only what New Case put there", async () => {
      const device = new Device(alice);
      const { id } = await newCase(device, started);
      const res = await device.push(device.m('case.discard', { id }));
      expect(res.results[0]).toMatchObject({ status: 'applied' });
      expect((await caseRow(t, id)).deletedAt).not.toBeNull();
    });

    it("keeps a case with a field written, a reading, or someone else's", async () => {
      const device = new Device(alice);
      const written = await newCase(device, { ...started, patientName: 'Thandi' });
      const withReading = await newCase(device, started);
      await device.push(device.m('vitalSign.record', completeCaseVital(withReading.id)));
      const res = await device.push(
        device.m('case.discard', { id: written.id }),
        device.m('case.discard', { id: withReading.id }),
      );
      expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied']);
      expect((await caseRow(t, written.id)).deletedAt).toBeNull();
      expect((await caseRow(t, withReading.id)).deletedAt).toBeNull();

      const other = await newCase(new Device(bob), started);
      const refused = await device.push(device.m('case.discard', { id: other.id }));
      expect(refused.results[0]).toMatchObject({
        status: 'rejected',
        code: RejectionCode.NOT_OWNER,
      });
      expect((await caseRow(t, other.id)).deletedAt).toBeNull();
    });
  });
});
