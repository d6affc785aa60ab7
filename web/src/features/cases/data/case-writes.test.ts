import 'fake-indexeddb/auto';
import { generateHumanId, HUMAN_ID_PATTERN } from '@rescuelog/sync-protocol/platform/human-id';
import { afterEach, describe, expect, it } from 'vitest';
import { getSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import {
  deviceOf,
  outbox,
  seedCase,
  seedCompletableCase,
  storedCase,
  wipeDevice,
} from '../completed/case-test-kit';
import {
  addCaseAddendum,
  completeCase,
  createCase,
  recordCaseAccess,
  recordVitalSign,
  saveCaseFields,
  validateCaseFields,
  voidVitalSign,
} from './case-writes';
import { normaliseCaseId } from './use-case';

const USER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(USER);
});

function db() {
  const session = getSyncSession();
  if (!session) throw new Error('no session');
  return session.db;
}

describe('case writes on the device', () => {
  it('creates a case with a device-generated case number, stored and queued in one go', async () => {
    deviceOf(USER);
    const { id, caseId } = await createCase({ responderName: 'Thandi Nkosi' });
    expect(caseId).toMatch(HUMAN_ID_PATTERN);
    expect(await storedCase(id)).toMatchObject({
      id,
      caseId,
      responderName: 'Thandi Nkosi',
      status: 'in_progress',
      patientRefusedTransport: false,
      oxygenAdministered: false,
    });
    const [entry] = await outbox();
    expect(entry?.mutation).toMatchObject({
      name: 'case.upsert',
      args: { id, humanId: caseId, fields: { responderName: 'Thandi Nkosi' } },
      entityIds: [id],
      actorUserId: 7,
    });
  });

  it('saves only the changed fields, on top of the version the device holds', async () => {
    deviceOf(USER);
    const { id } = await seedCase({ patientName: 'A' });
    await saveCaseFields({ id, status: 'in_progress' }, { approximateAge: 30 });
    await saveCaseFields({ id, status: 'in_progress' }, {});
    const entries = await outbox();
    expect(entries).toHaveLength(2);
    expect(entries[1]?.mutation.args).toEqual({ id, fields: { approximateAge: 30 } });
    expect(await storedCase(id)).toMatchObject({ patientName: 'A', approximateAge: 30 });
  });

  it('refuses to edit a completed case (corrections are addenda), and applies an addendum', async () => {
    deviceOf(USER);
    const { id } = await seedCompletableCase({ patientName: 'Before' });
    await completeCase({ id }, new Date('2026-11-20T11:00:00.000Z'));
    expect(await storedCase(id)).toMatchObject({
      status: 'completed',
      completedAt: '2026-11-20T11:00:00.000Z',
    });
    await expect(
      saveCaseFields({ id, status: 'completed' }, { patientName: 'After' }),
    ).rejects.toThrow(/only addenda can be added/);

    const addendumId = await addCaseAddendum(
      { id },
      'Name misspelt',
      [{ field: 'patientName', before: 'Before', after: 'After' }],
      { fullName: 'Thandi Nkosi', callSign: 'RS-12' },
    );
    expect(await storedCase(id)).toMatchObject({ patientName: 'After', status: 'completed' });
    // Signed on the device by the signed-in user until the server's copy (with its stamp) arrives.
    expect(await db().store('caseAddenda').get(addendumId)).toMatchObject({
      caseId: id,
      reason: 'Name misspelt',
      changes: [{ field: 'patientName', before: 'Before', after: 'After' }],
      authorName: 'Thandi Nkosi',
      authorCallSign: 'RS-12',
    });
  });

  it('validates values against the synced schema with the field named', () => {
    expect(validateCaseFields({ approximateAge: 30, patientName: 'X' })).toEqual([]);
    expect(validateCaseFields({ approximateAge: 200 })).toEqual([
      { field: 'approximateAge', message: expect.any(String) },
    ]);
    expect(validateCaseFields({ incidentLatitude: 95 })).toEqual([
      { field: 'incidentLatitude', message: 'Latitude must be between -90 and 90' },
    ]);
  });

  it('records vital signs append-only and voids with a reason', async () => {
    deviceOf(USER);
    const { id } = await seedCase({});
    const vitalId = await recordVitalSign(id, {
      type: 'heartRate',
      value: '88',
      numericValue: 88,
      status: 'normal',
      timestamp: new Date('2026-11-20T10:15:00.000Z'),
    });
    expect(await db().store('vitalSigns').get(vitalId)).toMatchObject({
      caseId: id,
      type: 'heartRate',
      value: '88',
      voidedAt: null,
    });
    await voidVitalSign(vitalId, id, 'Wrong patient');
    expect(await db().store('vitalSigns').get(vitalId)).toMatchObject({
      voidReason: 'Wrong patient',
      voidedAt: expect.any(String),
    });
  });

  it('audits each view once per ten minutes per screen, without marking the case unsynced', async () => {
    deviceOf(USER);
    const { id } = await seedCase({});
    const t0 = Date.parse('2026-11-20T10:00:00Z');
    await recordCaseAccess(id, 'view', 'patient-details', t0);
    await recordCaseAccess(id, 'view', 'patient-details', t0 + 9 * 60_000);
    await recordCaseAccess(id, 'view', 'primary-survey', t0 + 60_000);
    await recordCaseAccess(id, 'view', 'patient-details', t0 + 11 * 60_000);
    await recordCaseAccess(id, 'print', undefined, t0 + 11 * 60_000);
    await recordCaseAccess(id, 'print', undefined, t0 + 11 * 60_000);
    const access = (await outbox()).filter((e) => e.mutation.name === 'case.access');
    expect(
      access.map((e) => [
        (e.mutation.args as { action: string }).action,
        (e.mutation.args as { detail?: string }).detail,
      ]),
    ).toEqual([
      ['view', 'patient-details'],
      ['view', 'primary-survey'],
      ['view', 'patient-details'],
      ['print', undefined],
      ['print', undefined],
    ]);
    expect(access.every((e) => !e.entityIds.includes(id))).toBe(true);
  });

  it('saves nothing and says why without a local database', async () => {
    deviceOf(USER);
    stopSyncSession();
    await expect(createCase({})).rejects.toThrow(/no local database/);
    await expect(
      recordCaseAccess('00000000-0000-4000-8000-000000000000', 'view'),
    ).resolves.toBeUndefined();
  });
});

describe('normaliseCaseId', () => {
  it('reads a case number as typed from a radio call', () => {
    const id = generateHumanId('C');
    const spoken = id.toLowerCase().replace(/-/g, '').replace(/0/g, 'o').replace(/1/g, 'i');
    expect(normaliseCaseId(spoken)).toBe(id);
    expect(normaliseCaseId(' not-a-case ')).toBe('NOT-A-CASE');
  });
});
