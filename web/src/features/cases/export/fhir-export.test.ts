// The offline FHIR export reads the device's database (fake-indexeddb), with changes made the
// way screens make them (saveMutation: local effect + outbox), and nothing on the network.
// The file it produces is checked with Medplum's R4 validator and HL7's definitions.
import 'fake-indexeddb/auto';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import type { LocalChange as MutationInput } from '@/lib/sync/sync-session';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { fhirBundleProblems } from '../../../../../sync-protocol/test/cases/fhir-validator';
import { CaseNotOnDeviceError, downloadBlob, exportCaseAsFhir, fhirFileName } from './fhir-export';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

const USER_ID = 41;
const NOW = new Date('2026-11-21T12:00:00.000Z');
let db: SyncDatabase | undefined;

afterEach(async () => {
  if (db) {
    db.close();
    await db.delete();
    db = undefined;
  }
});

function openDb(): SyncDatabase {
  db = openAppDatabase(USER_ID);
  return db;
}

function save(d: SyncDatabase, name: MutationInput['name'], args: unknown) {
  return saveMutation(d, { name, args, baseVersion: null, actorUserId: USER_ID });
}

async function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(blob);
  });
}

function resources<T extends Resource['resourceType']>(
  bundle: Bundle,
  type: T,
): Extract<Resource, { resourceType: T }>[] {
  return (bundle.entry ?? [])
    .map((e) => e.resource)
    .filter((r): r is Extract<Resource, { resourceType: T }> => r?.resourceType === type);
}

/** A case captured offline: readings (one voided), completed, then corrected by an addendum. */
async function captureCase(d: SyncDatabase) {
  const id = crypto.randomUUID();
  const caseId = generateHumanId('C');
  const wrong = crypto.randomUUID();
  const right = crypto.randomUUID();
  await save(d, 'case.upsert', {
    id,
    humanId: caseId,
    fields: {
      patientName: 'Lerato Khumalo',
      approximateAge: 6,
      patientGender: 'female',
      incidentType: 'Fall',
      incidentLocation: 'Playground, Stellenbosch',
      callReceivedTime: '2026-11-21T08:00:00.000Z',
      responderArrivalTime: '2026-11-21T08:09:00.000Z',
      receivingHospital: 'Red Cross Children’s Hospital',
      splintingTechniques: true,
      medicationsGiven: 'Paracetamol syrup 15 mg/kg',
      avpu: 'A',
      triageStatus: 'Yellow',
      transportPriority: 'Priority 2',
    },
  });
  const reading = (vid: string, value: string, at: string) => ({
    id: vid,
    caseId: id,
    type: 'heartRate',
    value,
    numericValue: Number(value),
    status: 'normal',
    timestamp: at,
    notes: null,
  });
  await save(d, 'vitalSign.record', reading(wrong, '190', '2026-11-21T08:12:00.000Z'));
  await save(d, 'vitalSign.void', { id: wrong, reason: 'Typed 190 for 110' });
  await save(d, 'vitalSign.record', reading(right, '110', '2026-11-21T08:13:00.000Z'));
  await save(d, 'case.complete', { id, completedAt: '2026-11-21T09:30:00.000Z' });
  const addendum = crypto.randomUUID();
  await save(d, 'case.addendum', {
    id: addendum,
    caseId: id,
    reason: 'Hospital name',
    changes: [
      {
        field: 'receivingHospital',
        before: 'Red Cross Children’s Hospital',
        after: 'Tygerberg Hospital',
      },
    ],
  });
  return { id, caseId, wrong, right };
}

describe('exportCaseAsFhir (from the device, offline)', () => {
  it('gives a valid FHIR R4 bundle file of what the device holds, not yet synced included', async () => {
    const d = openDb();
    const { id, caseId, wrong, right } = await captureCase(d);
    expect(await d.outbox.count()).toBeGreaterThan(0); // nothing has reached a server

    const { fileName, blob } = await exportCaseAsFhir(d, id, {
      now: NOW,
      responder: { name: 'Pieter van Wyk', callSign: 'R-12' },
    });
    expect(fileName).toBe(`${caseId}.fhir.json`);
    expect(blob.type).toBe('application/fhir+json');
    const bundle = JSON.parse(await readText(blob)) as Bundle;
    expect(fhirBundleProblems(bundle)).toEqual([]);

    expect(bundle.timestamp).toBe(NOW.toISOString());
    const encounter = resources(bundle, 'Encounter')[0];
    expect(encounter?.identifier?.[0]?.value).toBe(caseId);
    expect(encounter?.status).toBe('finished');
    expect(resources(bundle, 'Patient')[0]?.name).toEqual([{ text: 'Lerato Khumalo' }]);
    // The addendum's correction is applied on the device and recorded as a Provenance.
    expect(resources(bundle, 'Location').map((l) => l.name)).toContain('Tygerberg Hospital');
    expect(resources(bundle, 'Provenance')[0]?.reason).toEqual([{ text: 'Hospital name' }]);
    // The voided reading stays out.
    const heartRates = resources(bundle, 'Observation').filter(
      (o) => o.code.coding?.[0]?.code === '8867-4',
    );
    expect(heartRates.map((o) => [o.id, o.valueQuantity?.value])).toEqual([[right, 110]]);
    expect(JSON.stringify(bundle)).not.toContain(wrong);
    expect(resources(bundle, 'Procedure').map((p) => p.code?.text)).toEqual(['Splinting']);
    expect(resources(bundle, 'Practitioner')[0]?.identifier).toEqual([
      { system: 'urn:rescuelog:call-sign', value: 'R-12' },
    ]);
  });

  it('refuses a case that is not on the device, or was deleted', async () => {
    const d = openDb();
    await expect(exportCaseAsFhir(d, crypto.randomUUID())).rejects.toBeInstanceOf(
      CaseNotOnDeviceError,
    );
    const id = crypto.randomUUID();
    await save(d, 'case.upsert', {
      id,
      humanId: generateHumanId('C'),
      fields: { patientName: 'X' },
    });
    await save(d, 'case.delete', { id });
    await expect(exportCaseAsFhir(d, id)).rejects.toBeInstanceOf(CaseNotOnDeviceError);
  });

  it('an empty new case still exports as a valid bundle', async () => {
    const d = openDb();
    const id = crypto.randomUUID();
    await save(d, 'case.upsert', { id, humanId: generateHumanId('C'), fields: {} });
    const { blob } = await exportCaseAsFhir(d, id, { now: NOW });
    const bundle = JSON.parse(await readText(blob)) as Bundle;
    expect(fhirBundleProblems(bundle)).toEqual([]);
    expect(resources(bundle, 'Encounter')[0]?.status).toBe('in-progress');
  });

  it('file names are the case number', () => {
    expect(fhirFileName('C-2611-7Q4M-XK3P')).toBe('C-2611-7Q4M-XK3P.fhir.json');
  });
});

describe('downloadBlob', () => {
  it('clicks a download link to an object URL, then removes the link and frees the URL', () => {
    vi.useFakeTimers();
    // jsdom has no object URLs; these stand in for the browser's and are put back after.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    try {
      const created: Blob[] = [];
      const revoked: string[] = [];
      Object.assign(URL, {
        createObjectURL: (b: Blob) => {
          created.push(b);
          return 'blob:fhir-export';
        },
        revokeObjectURL: (u: string) => revoked.push(u),
      });
      const clicked: HTMLAnchorElement[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        clicked.push(this);
      });
      const blob = new Blob(['{}'], { type: 'application/fhir+json' });

      downloadBlob('C-2611-7Q4M-XK3P.fhir.json', blob);

      expect(created).toEqual([blob]);
      expect(clicked).toHaveLength(1);
      expect(clicked[0]?.download).toBe('C-2611-7Q4M-XK3P.fhir.json');
      expect(clicked[0]?.getAttribute('href')).toBe('blob:fhir-export');
      expect(document.querySelector('a[download]')).toBeNull();
      expect(revoked).toEqual([]);
      vi.runAllTimers();
      expect(revoked).toEqual(['blob:fhir-export']);
    } finally {
      Object.assign(URL, original);
      vi.useRealTimers();
    }
  });
});
