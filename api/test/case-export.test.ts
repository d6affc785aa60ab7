// GET /api/cases/:caseId/fhir over real HTTP: a case pushed through the sync API comes back as
// a FHIR R4 Bundle that Medplum's R4 validator and HL7's definitions accept, built from the
// server's rows (voided readings out, addenda applied); every export is audited; a member
// whose casesLogged entry withholds view cannot export someone else's case.
import type { Bundle, Observation, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { TestApp } from './helpers';
import {
  Device,
  OWN_CASES_ONLY,
  auditEntries,
  buildSyncApp,
  humanId,
  newCase,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';
import { fhirBundleProblems } from '../../sync-protocol/test/cases/fhir-validator';

const CALL = '2026-11-21T08:00:00.000Z';

function resources<T extends Resource['resourceType']>(
  bundle: Bundle,
  type: T,
): Extract<Resource, { resourceType: T }>[] {
  return (bundle.entry ?? [])
    .map((e) => e.resource)
    .filter((r): r is Extract<Resource, { resourceType: T }> => r?.resourceType === type);
}

function coded(bundle: Bundle, loinc: string): Observation[] {
  return resources(bundle, 'Observation').filter((o) =>
    o.code.coding?.some((c) => c.code === loinc),
  );
}

describe('GET /api/cases/:caseId/fhir', () => {
  let t: TestApp;
  let alice: SyncUser;
  let colleague: SyncUser;
  let restricted: SyncUser;
  let device: Device;
  const id = uuid();
  const caseId = humanId('C');
  const keptVital = uuid();
  const voidedVital = uuid();

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    colleague = await syncUser(t); // casesLogged.view: sees every case
    restricted = await syncUser(t, OWN_CASES_ONLY);
    device = new Device(alice);
    const result = await device.push(
      device.m('case.upsert', {
        id,
        humanId: caseId,
        fields: {
          patientName: 'Thandi Mokoena',
          approximateAge: 34,
          patientGender: 'female',
          incidentType: 'Motor vehicle accident',
          incidentLocation: 'N2 near Somerset West',
          incidentLatitude: '-34.08',
          incidentLongitude: 18.85,
          avpu: 'A',
          triageStatus: 'YELLOW',
          allergies: 'Penicillin',
          hasMedicalAid: true,
          medicalAidProvider: 'Discovery Health',
          breathingStatus: 'Normal',
          pupilResponsesiveness: 'PEARL',
          hemorrhagingActive: false,
          neuroMotorFunction: 'Moves all limbs normally',
          callReceivedTime: CALL,
          responderArrivalTime: '2026-11-21T08:12:00.000Z',
          hospitalArrivalTime: '2026-11-21T09:05:00.000Z',
          receivingHospital: 'Tygerberg Hospital',
          transportPriority: 'P2',
          oxygenAdministered: true,
          cervicalCollar: true,
          medicationsGiven: 'Paracetamol 1 g IV',
          gcsEyeOpening: 4,
          gcsVerbalResponse: 5,
          gcsMotorResponse: 6,
          gcsTotal: 15,
        },
      }),
      device.m('vitalSign.record', {
        id: voidedVital,
        caseId: id,
        type: 'heartRate',
        value: '180',
        numericValue: 180,
        status: 'high',
        timestamp: '2026-11-21T08:14:00.000Z',
        notes: null,
      }),
      device.m('vitalSign.void', { id: voidedVital, reason: 'Typed 180 for 108' }),
      device.m('vitalSign.record', {
        id: keptVital,
        caseId: id,
        type: 'heartRate',
        value: '108',
        numericValue: 108,
        status: 'high',
        timestamp: '2026-11-21T08:15:00.000Z',
        notes: null,
      }),
      device.m('case.complete', { id, completedAt: '2026-11-21T10:00:00.000Z' }),
      device.m('case.addendum', {
        id: uuid(),
        caseId: id,
        reason: 'Surname misspelt',
        changes: [{ field: 'patientName', before: 'Thandi Mokoena', after: 'Thandi Mokwena' }],
      }),
    );
    expect(result.results.map((r) => r.status)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      'applied',
      'applied',
    ]);
  });
  afterAll(() => t.close());

  const exportAs = (who: SyncUser, humanCaseId = caseId) =>
    who.client.get(`/api/cases/${humanCaseId}/fhir`);

  it('answers 200 application/fhir+json with a bundle Medplum and HL7 accept, from the server rows', async () => {
    const res = await exportAs(alice);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${caseId}.fhir.json"`,
    );
    const bundle = (await res.json()) as Bundle;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect(fhirBundleProblems(bundle)).toEqual([]);

    const encounter = resources(bundle, 'Encounter')[0];
    expect(encounter?.identifier).toEqual([{ system: 'urn:rescuelog:case-id', value: caseId }]);
    expect(encounter?.status).toBe('finished');
    expect(encounter?.period).toEqual({ start: CALL, end: '2026-11-21T09:05:00.000Z' });
    // The addendum is applied to the case, and is itself a Provenance.
    expect(resources(bundle, 'Patient')[0]?.name).toEqual([{ text: 'Thandi Mokwena' }]);
    expect(resources(bundle, 'Provenance')[0]?.reason).toEqual([{ text: 'Surname misspelt' }]);
    // The voided reading is not exported; the correction is.
    const heartRates = coded(bundle, '8867-4');
    expect(heartRates.map((o) => [o.id, o.valueQuantity?.value])).toEqual([[keptVital, 108]]);
    expect(JSON.stringify(bundle)).not.toContain(voidedVital);
    expect(resources(bundle, 'Procedure').map((p) => p.code?.text)).toEqual([
      'Oxygen administered',
      'Cervical collar',
    ]);
    expect(resources(bundle, 'MedicationAdministration')[0]?.medicationCodeableConcept?.text).toBe(
      'Paracetamol 1 g IV',
    );
    // The account that logged the case stands in for the responder the case does not name.
    expect(resources(bundle, 'Practitioner')[0]?.name).toEqual([{ text: alice.user.row.fullName }]);
    expect(resources(bundle, 'Location').find((l) => l.position)?.position).toEqual({
      latitude: -34.08,
      longitude: 18.85,
    });
    // The server's rows carry the history, conscious level, triage and medical aid too.
    expect(resources(bundle, 'AllergyIntolerance')[0]?.code).toEqual({ text: 'Penicillin' });
    expect(coded(bundle, '11454-6')[0]?.valueCodeableConcept?.coding?.[0]?.code).toBe('248234008');
    expect(
      resources(bundle, 'Observation').find((o) => o.code.text?.startsWith('Triage'))
        ?.valueCodeableConcept?.coding?.[0]?.code,
    ).toBe('YELLOW');
    expect(resources(bundle, 'Coverage')[0]?.payor).toEqual([{ display: 'Discovery Health' }]);
    // And the rest of the primary survey and the neuro reassessment.
    const byText = (label: string) =>
      resources(bundle, 'Observation').find((o) => o.code.text === label);
    expect(coded(bundle, '80341-1')[0]?.valueCodeableConcept?.coding?.[0]?.code).toBe('1290338002');
    expect(byText('Pupils')?.valueCodeableConcept?.text).toBe('PEARL');
    expect(byText('Catastrophic bleeding')?.valueBoolean).toBe(false);
    expect(
      byText('Neurological examination (neuro reassessment)')?.component?.[0]?.valueString,
    ).toBe('Moves all limbs normally');
  });

  it('records every export in the audit log against the case', async () => {
    const before = await auditEntries(t, 'case.export');
    const res = await exportAs(colleague);
    expect(res.status).toBe(200);
    const rows = await auditEntries(t, 'case.export', { actorUserId: colleague.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'success', entityType: 'case', entityId: id });
    expect(rows[0]?.details).toMatchObject({
      caseId: id,
      humanId: caseId,
      source: 'server',
      detail: 'fhir-r4',
    });
    const after = await auditEntries(t, 'case.export');
    expect(after.length).toBe(before.length + 1);
  });

  it("refuses a member whose casesLogged entry withholds view someone else's case (403, audited), but not their own", async () => {
    const res = await exportAs(restricted);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: ErrorCode.FORBIDDEN });
    const denied = await auditEntries(t, 'access.denied', { actorUserId: restricted.id });
    expect(denied).toHaveLength(1);
    expect(denied[0]?.details).toMatchObject({ caseId: id, attempted: 'case.export' });
    expect(await auditEntries(t, 'case.export', { actorUserId: restricted.id })).toEqual([]);

    const { caseId: ownCaseId } = await newCase(new Device(restricted), { patientName: 'Sipho' });
    const mine = await exportAs(restricted, ownCaseId);
    expect(mine.status).toBe(200);
    const bundle = (await mine.json()) as Bundle;
    expect(fhirBundleProblems(bundle)).toEqual([]);
    expect(resources(bundle, 'Encounter')[0]?.status).toBe('in-progress');
  });

  it('finds the case by its number as a person types it (lower case, no dashes)', async () => {
    const res = await exportAs(colleague, caseId.toLowerCase().replaceAll('-', ''));
    expect(res.status).toBe(200);
  });

  it('404 NOT_FOUND for an unknown or deleted case; 400 for something that is no case number', async () => {
    const unknown = await exportAs(alice, humanId('C'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Case not found', code: ErrorCode.NOT_FOUND });

    const gone = uuid();
    const goneCaseId = humanId('C');
    await device.push(
      device.m('case.upsert', { id: gone, humanId: goneCaseId, fields: { patientName: 'X' } }),
      device.m('case.delete', { id: gone }),
    );
    const deleted = await exportAs(alice, goneCaseId);
    expect(deleted.status).toBe(404);
    expect(await deleted.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });

    const bad = await exportAs(alice, 'not-a-case');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      error: 'Invalid record number',
    });
  });

  it('needs a session', async () => {
    const res = await t.client().get(`/api/cases/${caseId}/fhir`);
    expect(res.status).toBe(401);
  });
});
