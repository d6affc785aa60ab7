// GET /api/cases/:caseId, POST /api/cases/:caseId/unlock and GET /api/cases/:caseId/access-history
// over real HTTP against the real database (docs/decisions/007).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caseAccessHistorySchema,
  caseRecordResponseSchema,
  type CaseAccessEntry,
} from '@rescuelog/sync-protocol/cases/api';
import { caseRecordSchema } from '@rescuelog/sync-protocol/cases/case-schema';
import type { TestApp } from './helpers';
import {
  Device,
  OWN_CASES_ONLY,
  buildSyncApp,
  caseRow,
  completeCaseFields,
  completeCaseVital,
  humanId,
  newCase,
  pullAll,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('one case by its number', () => {
  let t: TestApp;
  let alice: SyncUser;
  let viewer: SyncUser;
  let outsider: SyncUser;
  let admin: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    await t.db
      .updateTable('users')
      .set({ fullName: 'Alice Dlamini', callSign: 'Rescue 7' })
      .where('id', '=', alice.id)
      .execute();
    viewer = await syncUser(t); // RESPONDER: views every case, edits only their own
    outsider = await syncUser(t, OWN_CASES_ONLY);
    admin = await syncUser(t, {}, 'administrator');
  });
  afterAll(() => t.close());

  /** A completed case of Alice's with two readings (one voided) and an addendum. */
  async function completedCase() {
    const device = new Device(alice);
    const id = uuid();
    const caseId = humanId('C');
    const vital = completeCaseVital(id);
    const wrong = { ...completeCaseVital(id), value: '180', numericValue: 180 };
    const res = await device.push(
      device.m('case.upsert', { id, humanId: caseId, fields: completeCaseFields() }),
      device.m('vitalSign.record', vital),
      device.m('vitalSign.record', wrong),
      device.m('vitalSign.void', { id: wrong.id, reason: 'Misread' }),
      device.m('case.complete', { id, completedAt: '2026-11-21T09:30:00.000Z' }),
      device.m('case.addendum', {
        id: uuid(),
        caseId: id,
        reason: 'Age from ID document',
        changes: [{ field: 'approximateAge', before: 34, after: 35 }],
      }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual(Array(6).fill('applied'));
    return { id, caseId, device };
  }

  const audits = (caseUuid: string, action: string) =>
    t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', action)
      .where((eb) => eb(eb.ref('details', '->>').key('caseId'), '=', caseUuid))
      .execute();

  describe('GET /api/cases/:caseId', () => {
    it('gives the owner the whole record as the sync records, and audits the view', async () => {
      const { id, caseId } = await completedCase();
      const res = await alice.client.get(`/api/cases/${caseId}`);
      expect(res.status).toBe(200);
      const body = caseRecordResponseSchema.parse(await res.json());
      expect(body.case).toMatchObject({
        id,
        caseId,
        status: 'completed',
        approximateAge: 35,
        patientName: 'Thandi',
        userId: alice.id,
      });
      expect(body.case.version).toBe((await caseRow(t, id)).version);
      expect(body.vitalSigns).toHaveLength(2);
      expect(body.vitalSigns.filter((v) => v.voidedAt !== null)).toHaveLength(1);
      expect(body.addenda).toMatchObject([
        {
          reason: 'Age from ID document',
          userId: alice.id,
          changes: [{ field: 'approximateAge', before: 34, after: 35 }],
        },
      ]);
      const [view, ...more] = await audits(id, 'case.view');
      expect(more).toEqual([]);
      expect(view).toMatchObject({
        actorUserId: alice.id,
        outcome: 'success',
        entityType: 'case',
        entityId: id,
        ip: '127.0.0.1',
        details: { humanId: caseId, source: 'server' },
      });
    });

    it('finds the case by a read-alike of its number (lower case, O for 0)', async () => {
      const { caseId } = await completedCase();
      const typed = caseId.toLowerCase().replace(/0/g, 'o');
      const res = await alice.client.get(`/api/cases/${typed}`);
      expect(res.status).toBe(200);
      expect((await res.json()) as { case: { caseId: string } }).toMatchObject({
        case: { caseId },
      });
    });

    it("shows another responder's case to whoever may view cases logged, and refuses (audited) anyone else", async () => {
      const { id, caseId } = await completedCase();
      expect((await viewer.client.get(`/api/cases/${caseId}`)).status).toBe(200);
      expect((await admin.client.get(`/api/cases/${caseId}`)).status).toBe(200);

      const refused = await outsider.client.get(`/api/cases/${caseId}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: 'You do not have permission to view this case.',
        code: 'FORBIDDEN',
      });
      const denials = await audits(id, 'access.denied');
      expect(denials).toMatchObject([
        {
          actorUserId: outsider.id,
          outcome: 'denied',
          details: { code: 'FORBIDDEN', humanId: caseId },
        },
      ]);
      // Their own case they always see.
      const { caseId: mine } = await newCase(new Device(outsider), {});
      expect((await outsider.client.get(`/api/cases/${mine}`)).status).toBe(200);
    });

    it('answers 404 for an unknown or deleted case and 400 for something that is not a case number', async () => {
      const device = new Device(alice);
      const id = uuid();
      const caseId = humanId('C');
      await device.push(
        device.m('case.upsert', { id, humanId: caseId, fields: { patientName: 'Gone' } }),
        device.m('case.delete', { id }),
      );
      for (const number of [caseId, humanId('C')]) {
        const res = await alice.client.get(`/api/cases/${number}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'Case not found', code: 'NOT_FOUND' });
      }
      const bad = await alice.client.get('/api/cases/not-a-case');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await audits(id, 'case.view')).toEqual([]);
    });
  });

  describe('POST /api/cases/:caseId/unlock', () => {
    it('reopens a completed case for administrators: every device pulls it, the unlock is audited with its reason, and the case can be edited and completed again', async () => {
      const { id, caseId, device } = await completedCase();
      const before = await caseRow(t, id);
      const cursor = (await pullAll(alice.client)).cursor;

      const res = await admin.client.post(`/api/cases/${caseId}/unlock`, {
        reason: '  Patient identity mixed up with another call  ',
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { case: unknown };
      const unlocked = caseRecordSchema.parse(body.case);
      expect(unlocked).toMatchObject({ id, status: 'in_progress', completedAt: null });
      const after = await caseRow(t, id);
      expect(after).toMatchObject({
        status: 'in_progress',
        completedAt: null,
        updatedBy: admin.id,
      });
      expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
      expect(unlocked.version).toBe(after.version);

      const pulled = await pullAll(alice.client, cursor);
      expect(pulled.changes.find((c) => c.id === id)?.data).toMatchObject({
        status: 'in_progress',
        completedAt: null,
      });
      expect(await audits(id, 'case.unlock')).toMatchObject([
        {
          actorUserId: admin.id,
          outcome: 'success',
          entityType: 'case',
          entityId: id,
          details: {
            reason: 'Patient identity mixed up with another call',
            completedAt: '2026-11-21T09:30:00.000Z',
          },
        },
      ]);

      const edit = await device.push(
        device.m('case.upsert', { id, fields: { patientName: 'Thandeka' } }),
        device.m('case.complete', { id, completedAt: '2026-11-21T11:00:00.000Z' }),
      );
      expect(edit.results.map((r) => r.code ?? r.status)).toEqual(['applied', 'applied']);
      expect(await caseRow(t, id)).toMatchObject({ patientName: 'Thandeka', status: 'completed' });
    });

    it('is for administrators only, needs a reason, and only unlocks a completed case', async () => {
      const { id, caseId } = await completedCase();
      const member = await alice.client.post(`/api/cases/${caseId}/unlock`, { reason: 'Mine' });
      expect(member.status).toBe(403);
      expect(await member.json()).toMatchObject({ code: 'ADMIN_REQUIRED' });

      for (const body of [
        {},
        { reason: '   ' },
        { reason: 'x'.repeat(2001) },
        { reason: 'ok', extra: 1 },
      ]) {
        const res = await admin.client.post(`/api/cases/${caseId}/unlock`, body);
        expect(res.status, JSON.stringify(body).slice(0, 50)).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      expect((await caseRow(t, id)).status).toBe('completed');

      expect(
        (await admin.client.post(`/api/cases/${caseId}/unlock`, { reason: 'Fix' })).status,
      ).toBe(200);
      const again = await admin.client.post(`/api/cases/${caseId}/unlock`, { reason: 'Fix' });
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        error: 'Only a completed case can be unlocked; this case is already in progress.',
        code: 'CONFLICT',
      });
      const unknown = await admin.client.post(`/api/cases/${humanId('C')}/unlock`, {
        reason: 'Fix',
      });
      expect(unknown.status).toBe(404);
      expect(await audits(id, 'case.unlock')).toHaveLength(1);
    });
  });

  describe('GET /api/cases/:caseId/access-history', () => {
    it('lists every view, print, export, edit, completion, addendum, unlock and refusal, newest first, with who, when and from where', async () => {
      const { id, caseId, device } = await completedCase();
      await alice.client.get(`/api/cases/${caseId}`);
      await outsider.client.get(`/api/cases/${caseId}`);
      const printedAt = '2026-11-21T10:05:00.000Z';
      const print = device.m('case.access', {
        id: uuid(),
        caseId: id,
        action: 'print',
        detail: 'handover',
      });
      await device.push({ ...print, clientTime: printedAt });
      const od = new Device(outsider);
      await od.push(od.m('case.access', { id: uuid(), caseId: id, action: 'export' }));
      await admin.client.post(`/api/cases/${caseId}/unlock`, { reason: 'Wrong patient name' });
      // A refused edit by someone who may not change it.
      const vd = new Device(viewer);
      await vd.push(vd.m('case.upsert', { id, fields: { patientName: 'Hijack' } }));

      const res = await admin.client.get(`/api/cases/${caseId}/access-history`);
      expect(res.status).toBe(200);
      const history = caseAccessHistorySchema.parse(await res.json());
      expect(history.caseId).toBe(caseId);
      expect(history.nextCursor).toBeNull();
      const ids = history.entries.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const byAction = (action: string): CaseAccessEntry[] =>
        history.entries.filter((e) => e.action === action);
      expect(history.entries.map((e) => e.action).reverse()).toEqual([
        'sync.case.upsert',
        'sync.vitalSign.record',
        'sync.vitalSign.record',
        'sync.vitalSign.void',
        'sync.case.complete',
        'sync.case.addendum',
        'case.view',
        'access.denied',
        'case.print',
        'sync.rejected',
        'case.unlock',
        'sync.rejected',
      ]);
      expect(byAction('sync.case.upsert')[0]).toMatchObject({
        label: 'Edited',
        outcome: 'success',
        source: 'device',
        actor: { id: alice.id, fullName: 'Alice Dlamini', callSign: 'Rescue 7' },
        fields: expect.arrayContaining(['patientName', 'receivingHospital']),
        ip: '127.0.0.1',
      });
      expect(byAction('case.print')[0]).toMatchObject({
        label: 'Printed',
        source: 'device',
        occurredAt: printedAt,
        detail: 'handover',
      });
      expect(byAction('case.view')[0]).toMatchObject({
        label: 'Viewed',
        source: 'server',
        occurredAt: null,
      });
      expect(byAction('sync.case.addendum')[0]).toMatchObject({
        label: 'Addendum added',
        reason: 'Age from ID document',
        fields: ['approximateAge'],
      });
      expect(byAction('case.unlock')[0]).toMatchObject({
        label: 'Unlocked',
        reason: 'Wrong patient name',
        actor: { id: admin.id },
      });
      expect(byAction('access.denied')[0]).toMatchObject({
        outcome: 'denied',
        actor: { id: outsider.id },
      });
      expect(byAction('sync.rejected').map((e) => [e.outcome, e.detail])).toEqual([
        ['denied', 'case.upsert NOT_OWNER'],
        ['denied', 'case.access FORBIDDEN'],
      ]);
      expect(history.entries.every((e) => typeof e.userAgent === 'string')).toBe(true);
    });

    it('pages newest first with a cursor, without gaps or repeats', async () => {
      const { id, caseId, device } = await completedCase();
      for (let i = 0; i < 5; i++)
        await device.push(device.m('case.access', { id: uuid(), caseId: id, action: 'view' }));
      const all = caseAccessHistorySchema.parse(
        await (await admin.client.get(`/api/cases/${caseId}/access-history?limit=200`)).json(),
      );
      expect(all.entries).toHaveLength(11);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `limit=3${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await admin.client.get(`/api/cases/${caseId}/access-history?${query}`);
        expect(res.status).toBe(200);
        const page = caseAccessHistorySchema.parse(await res.json());
        expect(page.entries.length).toBeLessThanOrEqual(3);
        seen.push(...page.entries.map((e) => e.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(pages).toBe(4);
      expect(seen).toEqual(all.entries.map((e) => e.id));
    });

    it('is for administrators only, checks its query, and answers 404 for an unknown case', async () => {
      const { caseId } = await completedCase();
      const member = await viewer.client.get(`/api/cases/${caseId}/access-history`);
      expect(member.status).toBe(403);
      expect(await member.json()).toMatchObject({ code: 'ADMIN_REQUIRED' });
      for (const query of ['limit=0', 'limit=201', 'cursor=abc', 'page=2']) {
        const res = await admin.client.get(`/api/cases/${caseId}/access-history?${query}`);
        expect(res.status, query).toBe(400);
      }
      expect((await admin.client.get(`/api/cases/${humanId('C')}/access-history`)).status).toBe(
        404,
      );
    });
  });
});
