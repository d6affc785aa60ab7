// The FHIR R4 export of a case, checked with Medplum's R4 validator and HL7's R4 definitions
// (fhir-validator.ts), never with a schema of ours.
import type {
  AllergyIntolerance,
  Bundle,
  Coverage,
  Encounter,
  Observation,
  Patient,
  Procedure,
  Resource,
} from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildFhirBundle,
  CASE_ID_SYSTEM,
  fhirGender,
  nameBasedUuid,
  type FhirExportInput,
  type FhirVitalSignInput,
} from '../../src/cases/fhir';
import { CASE_FIELD_DEFAULTS, type CaseRecord } from '../../src/cases/case-schema';
import {
  checkReferences,
  coreProfile,
  fhirBundleProblems,
  loadFhirR4,
  medplumErrors,
} from './fhir-validator';

const CASE_UUID = '3f0c2a8e-6d0b-4c55-9a6e-2b7f9a1c0d11';
const GENERATED_AT = new Date('2026-11-21T12:00:00.000Z');
const LOINC = 'http://loinc.org';

type CaseInput = FhirExportInput['case'];

function newCase(fields: Partial<CaseRecord> = {}): CaseInput {
  return {
    ...(CASE_FIELD_DEFAULTS as Partial<CaseRecord>),
    id: CASE_UUID,
    caseId: 'C-2611-7Q4M-XK3P',
    status: 'in_progress',
    createdAt: '2026-11-21T08:00:00.000Z',
    ...fields,
  };
}

let vitalSeq = 0;
function vital(
  type: FhirVitalSignInput['type'],
  value: string,
  extra: Partial<FhirVitalSignInput> = {},
): FhirVitalSignInput {
  vitalSeq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(vitalSeq).padStart(12, '0')}`,
    type,
    value,
    numericValue: null,
    status: 'normal',
    timestamp: `2026-11-21T08:${String(20 + vitalSeq).padStart(2, '0')}:00.000Z`,
    notes: null,
    voidedAt: null,
    ...extra,
  };
}

function fullCase(): CaseInput {
  return newCase({
    status: 'completed',
    completedAt: '2026-11-21T10:00:00.000Z',
    patientName: 'Thandi Mokoena',
    approximateAge: 34,
    patientGender: 'Female',
    incidentType: 'Motor vehicle accident',
    responderName: 'Pieter van Wyk',
    responderCallSign: 'R-12',
    callReceivedTime: '2026-11-21T08:00:00.000Z',
    responderArrivalTime: '2026-11-21T08:12:00.000Z',
    incidentLocation: 'N2 near Somerset West',
    incidentLatitude: -34.08,
    incidentLongitude: 18.85,
    ambulanceId: 'AMB-3',
    receivingHospital: 'Tygerberg Hospital',
    transportPriority: 'Urgent',
    departureTime: '2026-11-21T08:40:00.000Z',
    hospitalArrivalTime: '2026-11-21T09:05:00.000Z',
    medicationsGiven: 'Paracetamol 1 g IV 08:30',
    proceduresPerformed: 'Wound irrigation of the left forearm',
    oxygenAdministered: true,
    cprPerformed: true,
    tourniquetApplication: true,
    tourniquetApplicationTime: '2026-11-21T08:14:00.000Z',
    cervicalCollar: true,
    gcsEyeOpening: 3,
    gcsVerbalResponse: 4,
    gcsMotorResponse: 6,
    gcsTotal: 13,
    respiratoryRate: 22,
    capillaryRefillTime: 2.5,
    painScore: 7,
    neuroGcsTotal: 14,
    neuroReassessmentTime: '2026-11-21T08:50:00.000Z',
  });
}

function fullVitals(): FhirVitalSignInput[] {
  return [
    vital('heartRate', '118', { numericValue: 118, status: 'high' }),
    vital('respiratoryRate', '22', { numericValue: 22, status: 'high' }),
    vital('bloodPressure', '92/58', { numericValue: 92, status: 'low' }),
    vital('spo2', '93', { numericValue: 93, status: 'low' }),
    vital('temperature', '36.4', { numericValue: 36.4 }),
    vital('bloodGlucose', '5.6', { numericValue: 5.6 }),
    vital('gcs', '13', { numericValue: 13, status: 'low' }),
    vital('painScore', '7', { numericValue: 7, status: 'high' }),
    vital('capillaryRefill', '2.5', { numericValue: 2.5, status: 'high' }),
    vital('etco2', '38', { numericValue: 38 }),
  ];
}

function build(
  c: CaseInput,
  vitals: FhirVitalSignInput[] = [],
  extra: Partial<FhirExportInput> = {},
): Bundle {
  return buildFhirBundle({ case: c, vitals, generatedAt: GENERATED_AT, ...extra });
}

function resources<T extends Resource['resourceType']>(
  bundle: Bundle,
  type: T,
): Extract<Resource, { resourceType: T }>[] {
  return (bundle.entry ?? [])
    .map((e) => e.resource)
    .filter((r): r is Extract<Resource, { resourceType: T }> => r?.resourceType === type);
}

function only<T>(list: T[]): T {
  expect(list).toHaveLength(1);
  return list[0] as T;
}

function fullUrlOf(bundle: Bundle, resource: Resource): string {
  const entry = (bundle.entry ?? []).find((e) => e.resource === resource);
  if (!entry?.fullUrl) throw new Error('resource is not in the bundle');
  return entry.fullUrl;
}

function observationsCoded(bundle: Bundle, loinc: string): Observation[] {
  return resources(bundle, 'Observation').filter((o) =>
    o.code.coding?.some((c) => c.system === LOINC && c.code === loinc),
  );
}

beforeAll(() => {
  loadFhirR4();
});

describe('the FHIR R4 export of a full, completed case', () => {
  const vitals = fullVitals();
  const voided = vital('heartRate', '180', {
    numericValue: 180,
    voidedAt: '2026-11-21T08:31:00.000Z',
  });
  const bundle = build(fullCase(), [...vitals, voided], {
    addenda: [
      {
        id: '9d7c3c1e-1111-4a2b-8c3d-000000000001',
        reason: 'Wrong spelling of the surname',
        changes: [{ field: 'patientName' }],
        createdAt: '2026-11-21T11:00:00.000Z',
        userId: 5,
        authorName: 'Station Chief',
        authorCallSign: 'HQ-1',
      },
    ],
  });

  it('is a valid R4 collection bundle: Medplum, HL7 bindings and codes, every reference resolving', () => {
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.type).toBe('collection');
    expect(bundle.timestamp).toBe(GENERATED_AT.toISOString());
    expect(fhirBundleProblems(bundle)).toEqual([]);
    for (const entry of bundle.entry ?? [])
      expect(entry.fullUrl).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  });

  it('references resolve inside the bundle, to the patient and the encounter', () => {
    const { references, errors } = checkReferences(bundle);
    expect(errors).toEqual([]);
    const patientUrl = fullUrlOf(bundle, only(resources(bundle, 'Patient')));
    const encounterUrl = fullUrlOf(bundle, only(resources(bundle, 'Encounter')));
    const clinical = [...resources(bundle, 'Observation'), ...resources(bundle, 'Procedure')];
    for (const r of clinical) {
      expect(r.subject?.reference).toBe(patientUrl);
      expect(r.encounter?.reference).toBe(encounterUrl);
    }
    expect(references.length).toBeGreaterThan(clinical.length * 2);
  });

  it('the patient: name, gender; the age as an observation, no invented birth date', () => {
    const patient = only(resources(bundle, 'Patient'));
    expect(patient.name).toEqual([{ text: 'Thandi Mokoena' }]);
    expect(patient.gender).toBe('female');
    expect(patient.birthDate).toBeUndefined();
    const age = only(observationsCoded(bundle, '30525-0'));
    expect(age.valueQuantity).toEqual({
      value: 34,
      unit: 'years',
      system: 'http://unitsofmeasure.org',
      code: 'a',
    });
  });

  it('the encounter: the human case number, emergency class, finished, call received → hospital arrival', () => {
    const encounter: Encounter = only(resources(bundle, 'Encounter'));
    expect(encounter.identifier).toEqual([{ system: CASE_ID_SYSTEM, value: 'C-2611-7Q4M-XK3P' }]);
    expect(encounter.status).toBe('finished');
    expect(encounter.class).toMatchObject({
      system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
      code: 'EMER',
    });
    expect(encounter.period).toEqual({
      start: '2026-11-21T08:00:00.000Z',
      end: '2026-11-21T09:05:00.000Z',
    });
    expect(encounter.reasonCode).toEqual([{ text: 'Motor vehicle accident' }]);
    const locations = resources(bundle, 'Location');
    expect(locations.map((l) => l.name).sort()).toEqual([
      'AMB-3',
      'N2 near Somerset West',
      'Tygerberg Hospital',
    ]);
    const scene = locations.find((l) => l.name === 'N2 near Somerset West');
    expect(scene?.position).toEqual({ latitude: -34.08, longitude: 18.85 });
    const hospital = locations.find((l) => l.name === 'Tygerberg Hospital');
    expect(encounter.hospitalization?.destination?.reference).toBe(
      fullUrlOf(bundle, hospital as Resource),
    );
    const responder = only(resources(bundle, 'Practitioner'));
    expect(responder.name).toEqual([{ text: 'Pieter van Wyk' }]);
    expect(responder.identifier).toEqual([{ system: 'urn:rescuelog:call-sign', value: 'R-12' }]);
  });

  it('one observation per reading, with its LOINC code, UCUM unit and interpretation; voided readings left out', () => {
    const expected: [string, string, number][] = [
      ['8867-4', '/min', 118],
      ['2708-6', '%', 93],
      ['8310-5', 'Cel', 36.4],
      ['15074-8', 'mmol/L', 5.6],
      ['72514-3', '{score}', 7],
      ['44963-7', 's', 2.5],
      ['19889-5', 'mm[Hg]', 38],
    ];
    for (const [code, unit, value] of expected) {
      const readings = observationsCoded(bundle, code).filter((o) => o.note === undefined);
      const reading = only(readings);
      expect(reading.valueQuantity).toMatchObject({
        value,
        system: 'http://unitsofmeasure.org',
        code: unit,
      });
      expect(reading.status).toBe('final');
    }
    const heartRates = observationsCoded(bundle, '8867-4');
    expect(heartRates.map((o) => o.valueQuantity?.value)).toEqual([118]);
    expect(heartRates[0]?.interpretation?.[0]?.coding?.[0]).toMatchObject({
      code: 'H',
      display: 'High',
    });
    expect(JSON.stringify(bundle)).not.toContain(voided.id);
    // SpO2 also carries the pulse oximetry code.
    expect(observationsCoded(bundle, '59408-5')).toHaveLength(1);
  });

  it('blood pressure is the panel with systolic and diastolic components in mm[Hg]', () => {
    const bp = only(observationsCoded(bundle, '85354-9'));
    expect(bp.valueQuantity).toBeUndefined();
    expect(
      bp.component?.map((c) => [
        c.code.coding?.[0]?.code,
        c.valueQuantity?.value,
        c.valueQuantity?.code,
      ]),
    ).toEqual([
      ['8480-6', 92, 'mm[Hg]'],
      ['8462-4', 58, 'mm[Hg]'],
    ]);
    expect(bp.interpretation?.[0]?.coding?.[0]?.code).toBe('L');
  });

  it('the five core vital signs claim, and meet, HL7 R4 vital-signs profiles', () => {
    const profiled = resources(bundle, 'Observation').filter((o) => o.meta?.profile?.length);
    const urls = profiled.flatMap((o) => o.meta?.profile ?? []);
    for (const url of ['heartrate', 'resprate', 'bp', 'oxygensat', 'bodytemp']) {
      expect(urls).toContain(`http://hl7.org/fhir/StructureDefinition/${url}`);
    }
    for (const o of profiled) {
      for (const url of o.meta?.profile ?? [])
        expect(medplumErrors(o, coreProfile(url))).toEqual([]);
    }
  });

  it("the primary survey's GCS with E, V and M components, and the neuro reassessment total", () => {
    const gcs = observationsCoded(bundle, '9269-2');
    const primary = gcs.find((o) => o.component !== undefined);
    expect(primary?.valueQuantity?.value).toBe(13);
    expect(primary?.effectiveDateTime).toBe('2026-11-21T08:12:00.000Z');
    expect(
      primary?.component?.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value]),
    ).toEqual([
      ['9267-6', 3],
      ['9270-0', 4],
      ['9268-4', 6],
    ]);
    const neuro = gcs.find((o) => o.note?.[0]?.text === 'Neuro reassessment');
    expect(neuro).toMatchObject({
      effectiveDateTime: '2026-11-21T08:50:00.000Z',
      valueQuantity: { value: 14 },
    });
    // The gcs reading row is its own observation too.
    expect(gcs).toHaveLength(3);
  });

  it('one completed procedure per ticked intervention, labelled, SNOMED CT only where verified', () => {
    const procedures: Procedure[] = resources(bundle, 'Procedure');
    const labels = procedures.map((p) => p.code?.text);
    expect(labels).toEqual([
      'Oxygen administered',
      'CPR performed',
      'Tourniquet applied',
      'Cervical collar',
      'Procedures performed',
    ]);
    for (const p of procedures) expect(p.status).toBe('completed');
    const cpr = procedures.find((p) => p.code?.text === 'CPR performed');
    expect(cpr?.code?.coding).toEqual([
      {
        system: 'http://snomed.info/sct',
        code: '89666000',
        display: 'Cardiopulmonary resuscitation (procedure)',
      },
    ]);
    expect(
      procedures.find((p) => p.code?.text === 'Cervical collar')?.code?.coding,
    ).toBeUndefined();
    expect(procedures.find((p) => p.code?.text === 'Tourniquet applied')?.performedDateTime).toBe(
      '2026-11-21T08:14:00.000Z',
    );
    expect(procedures.find((p) => p.code?.text === 'Procedures performed')?.note).toEqual([
      { text: 'Wound irrigation of the left forearm' },
    ]);
  });

  it('medications given as one completed MedicationAdministration over the time in care', () => {
    const given = only(resources(bundle, 'MedicationAdministration'));
    expect(given.status).toBe('completed');
    expect(given.medicationCodeableConcept).toEqual({ text: 'Paracetamol 1 g IV 08:30' });
    expect(given.effectivePeriod).toEqual({
      start: '2026-11-21T08:12:00.000Z',
      end: '2026-11-21T09:05:00.000Z',
    });
    expect(given.subject.reference).toBe(fullUrlOf(bundle, only(resources(bundle, 'Patient'))));
  });

  it('each addendum is a Provenance of the encounter: when, who, why and which fields', () => {
    const provenance = only(resources(bundle, 'Provenance'));
    expect(provenance.recorded).toBe('2026-11-21T11:00:00.000Z');
    expect(provenance.reason).toEqual([{ text: 'Wrong spelling of the surname' }]);
    expect(provenance.activity?.text).toBe('Addendum: Patient name');
    expect(provenance.agent[0]?.who).toEqual({
      identifier: { system: 'urn:rescuelog:user-id', value: '5' },
      display: 'Station Chief (HQ-1)',
    });
    expect(provenance.target[0]?.reference).toBe(
      fullUrlOf(bundle, only(resources(bundle, 'Encounter'))),
    );
  });

  it('an addendum from before authors were stamped names its author by account id only', () => {
    const old = build(fullCase(), [], {
      addenda: [
        {
          id: '9d7c3c1e-1111-4a2b-8c3d-000000000002',
          reason: 'Note',
          changes: [],
          createdAt: '2026-11-21T11:00:00.000Z',
          userId: 7,
          authorName: null,
          authorCallSign: null,
        },
      ],
    });
    expect(fhirBundleProblems(old)).toEqual([]);
    expect(only(resources(old, 'Provenance')).agent[0]?.who).toEqual({
      identifier: { system: 'urn:rescuelog:user-id', value: '7' },
      display: 'Addendum author',
    });
  });

  it('exporting the same case twice gives the same ids; another case gets others', () => {
    const again = build(fullCase(), [...vitals, voided]);
    const ids = (b: Bundle) => (b.entry ?? []).map((e) => e.fullUrl);
    expect(ids(again)).toEqual(
      ids(bundle).filter((url) => !url?.includes(only(resources(bundle, 'Provenance')).id ?? '-')),
    );
    const other = build({ ...fullCase(), id: '7a1d9e55-0c3b-4f2e-8a61-5c2e0b9d4f22' }, []);
    expect(ids(other)[0]).not.toBe(ids(bundle)[0]);
  });
});

describe('the export of other cases', () => {
  it('a new, empty case: a patient (name unknown) and an in-progress encounter, valid', () => {
    const bundle = build(newCase());
    expect(fhirBundleProblems(bundle)).toEqual([]);
    expect((bundle.entry ?? []).map((e) => e.resource?.resourceType)).toEqual([
      'Patient',
      'Encounter',
    ]);
    const encounter = only(resources(bundle, 'Encounter'));
    expect(encounter.status).toBe('in-progress');
    expect(encounter.period).toBeUndefined();
    const patient = only(resources(bundle, 'Patient'));
    expect(patient.name).toEqual([
      {
        extension: [
          {
            url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
            valueCode: 'unknown',
          },
        ],
      },
    ]);
    expect(patient.gender).toBeUndefined();
  });

  it('an unknown patient: the name is absent for a reason, not a name "Unknown"', () => {
    const bundle = build(
      newCase({ patientName: 'Unknown', patientGender: 'Unknown', approximateAge: 50 }),
      [vital('heartRate', '40', { numericValue: 40, status: 'low' })],
    );
    expect(fhirBundleProblems(bundle)).toEqual([]);
    const patient: Patient = only(resources(bundle, 'Patient'));
    expect(patient.name?.[0]?.text).toBeUndefined();
    expect(patient.name?.[0]?.extension?.[0]?.valueCode).toBe('unknown');
    expect(patient.gender).toBe('unknown');
    const encounter = only(resources(bundle, 'Encounter'));
    expect(encounter.subject?.display).toBe('Unknown patient');
  });

  it('a refused transport: the encounter ends at departure with that disposition, no hospital', () => {
    const bundle = build(
      newCase({
        status: 'completed',
        patientName: 'Sipho Dlamini',
        patientRefusedTransport: true,
        callReceivedTime: '2026-11-21T08:00:00.000Z',
        responderArrivalTime: '2026-11-21T08:10:00.000Z',
        departureTime: '2026-11-21T08:45:00.000Z',
      }),
      [vital('bloodPressure', '128/84', { numericValue: 128 })],
    );
    expect(fhirBundleProblems(bundle)).toEqual([]);
    const encounter = only(resources(bundle, 'Encounter'));
    expect(encounter.status).toBe('finished');
    expect(encounter.hospitalization).toEqual({
      dischargeDisposition: { text: 'Patient refused transport' },
    });
    expect(encounter.period).toEqual({
      start: '2026-11-21T08:00:00.000Z',
      end: '2026-11-21T08:45:00.000Z',
    });
    expect(resources(bundle, 'Location')).toEqual([]);
  });

  it('a child: age 4 in years (UCUM a), no birth date, readings valid', () => {
    const bundle = build(
      newCase({
        patientName: 'Lerato',
        approximateAge: 4,
        patientGender: 'F',
        responderArrivalTime: '2026-11-21T08:10:00.000Z',
      }),
      [
        vital('heartRate', '130', { numericValue: 130 }),
        vital('respiratoryRate', '28', { numericValue: 28 }),
        vital('temperature', '38.9', { numericValue: 38.9, status: 'high' }),
      ],
    );
    expect(fhirBundleProblems(bundle)).toEqual([]);
    expect(only(resources(bundle, 'Patient')).birthDate).toBeUndefined();
    expect(only(observationsCoded(bundle, '30525-0')).valueQuantity).toMatchObject({
      value: 4,
      code: 'a',
    });
    expect(observationsCoded(bundle, '8310-5')[0]?.interpretation?.[0]?.coding?.[0]?.code).toBe(
      'H',
    );
  });

  it('an intubated patient: verbal absent (charted T), the total counting it as 1', () => {
    const bundle = build(
      newCase({
        gcsEyeOpening: 2,
        gcsVerbalIntubated: true,
        gcsMotorResponse: 4,
        gcsVerbalResponse: null,
        gcsTotal: null,
      }),
    );
    expect(fhirBundleProblems(bundle)).toEqual([]);
    const gcs = only(observationsCoded(bundle, '9269-2'));
    expect(gcs.valueQuantity?.value).toBe(7);
    const verbal = gcs.component?.find((c) => c.code.coding?.[0]?.code === '9270-0');
    expect(verbal?.valueQuantity).toBeUndefined();
    expect(verbal?.dataAbsentReason).toMatchObject({
      coding: [{ code: 'not-performed' }],
      text: 'Intubated (charted T)',
    });
  });

  it('a reading charted as text and times typed out of order still give a valid bundle', () => {
    const bundle = build(
      newCase({
        callReceivedTime: '2026-11-21T09:00:00.000Z',
        hospitalArrivalTime: '2026-11-21T08:00:00.000Z',
      }),
      [vital('bloodGlucose', 'HI'), vital('bloodPressure', 'unrecordable')],
    );
    expect(fhirBundleProblems(bundle)).toEqual([]);
    expect(only(resources(bundle, 'Encounter')).period).toEqual({
      start: '2026-11-21T09:00:00.000Z',
    });
    expect(observationsCoded(bundle, '15074-8')[0]?.valueString).toBe('HI');
    expect(observationsCoded(bundle, '85354-9')[0]).toMatchObject({ valueString: 'unrecordable' });
    expect(observationsCoded(bundle, '85354-9')[0]?.meta).toBeUndefined();
  });

  it('maps gender words to FHIR codes', () => {
    expect(['Male', 'f', 'Unknown', 'Non-binary', '', null].map((g) => fhirGender(g))).toEqual([
      'male',
      'female',
      'unknown',
      'other',
      undefined,
      undefined,
    ]);
  });

  it('name-based ids are UUIDs, stable, and differ by name', () => {
    const a = nameBasedUuid('rescuelog:x:patient');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('rescuelog:x:patient')).toBe(a);
    expect(nameBasedUuid('rescuelog:x:encounter')).not.toBe(a);
  });
});

describe('the checks catch broken resources', () => {
  const bundle = build(fullCase(), fullVitals());
  const broken = (edit: (b: Bundle) => void): Bundle => {
    const copy = structuredClone(bundle);
    edit(copy);
    return copy;
  };
  const find = <T extends Resource['resourceType']>(b: Bundle, type: T) =>
    resources(b, type)[0] as Extract<Resource, { resourceType: T }>;

  it('Medplum rejects an observation without its required status and code', () => {
    const { status: _status, code: _code, ...observation } = find(bundle, 'Observation');
    const errors = medplumErrors(observation as Resource);
    expect(errors.join('\n')).toMatch(/Observation\.status/);
    expect(errors.join('\n')).toMatch(/Observation\.code/);
    expect(
      fhirBundleProblems(
        broken((b) => {
          const o = find(b, 'Observation') as Partial<Observation>;
          delete o.status;
        }),
      ),
    ).not.toEqual([]);
  });

  it('Medplum rejects a property R4 does not have, a bad date and a broken invariant', () => {
    const problems = fhirBundleProblems(
      broken((b) => Object.assign(find(b, 'Patient'), { nickname: 'T' })),
    );
    expect(problems).toHaveLength(2); // in the bundle, and the entry on its own
    for (const p of problems) expect(p).toMatch(/Invalid additional property "nickname"/);
    expect(
      fhirBundleProblems(
        broken((b) => Object.assign(find(b, 'Encounter'), { period: { start: 'yesterday' } })),
      ).join('\n'),
    ).toMatch(/Invalid dateTime/);
    expect(
      fhirBundleProblems(broken((b) => b.entry?.push(structuredClone(b.entry[0]!)))).join('\n'),
    ).toMatch(/bdl-7/);
  });

  it("a heart rate coded as something else fails HL7's heartrate profile", () => {
    const heartRate = structuredClone(observationsCoded(bundle, '8867-4')[0]!);
    heartRate.code = { coding: [{ system: LOINC, code: '9279-1' }] };
    expect(
      medplumErrors(
        heartRate,
        coreProfile('http://hl7.org/fhir/StructureDefinition/heartrate'),
      ).join('\n'),
    ).toMatch(/HeartRateCode/);
  });

  it('a code outside its required value set, or not in its HL7 code system, is caught', () => {
    expect(
      fhirBundleProblems(broken((b) => Object.assign(find(b, 'Patient'), { gender: 'f' }))).join(
        '\n',
      ),
    ).toMatch(/\(Patient\)\.gender: 'f' is not in .*administrative-gender/);
    expect(
      fhirBundleProblems(
        broken((b) => Object.assign(find(b, 'Encounter'), { status: 'completed' })),
      ).join('\n'),
    ).toMatch(/\(Encounter\)\.status: 'completed' is not in/);
    expect(
      fhirBundleProblems(
        broken((b) => {
          const o = observationsCoded(b, '8867-4')[0]!;
          o.interpretation = [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
                  code: 'HIGH',
                },
              ],
            },
          ];
        }),
      ).join('\n'),
    ).toMatch(/HIGH is not a code/);
  });

  it('a reference to something outside the bundle, or to the wrong type, is caught', () => {
    expect(
      checkReferences(
        broken((b) =>
          Object.assign(find(b, 'Procedure'), {
            subject: { reference: 'urn:uuid:00000000-0000-4000-8000-000000000000' },
          }),
        ),
      ).errors,
    ).toEqual([
      expect.stringMatching(
        /\(Procedure\)\.subject: urn:uuid:0{8}-0000-4000-8000-0{12} is not an entry/,
      ),
    ]);
    const encounterUrl = fullUrlOf(bundle, find(bundle, 'Encounter'));
    expect(
      checkReferences(
        broken((b) =>
          Object.assign(find(b, 'Procedure'), { subject: { reference: encounterUrl } }),
        ),
      ).errors.join('\n'),
    ).toMatch(/points at a Encounter; allowed Patient, Group/);
  });
});

describe('the clinical content a receiving hospital needs', () => {
  const SNOMED = 'http://snomed.info/sct';
  const clinical = (fields: Partial<CaseRecord> = {}): CaseInput => ({
    ...fullCase(),
    allergies: 'Penicillin (rash), bee stings',
    medications: 'Enalapril 10 mg daily, metformin 500 mg twice daily',
    pastHistory: 'Hypertension, type 2 diabetes, appendicectomy 2010',
    lastMealTime: '07:30',
    lastMealContent: 'Tea and toast',
    eventsLeadingUp: 'Sudden weakness of the right arm while driving',
    symptoms: ['Headache', 'Nausea'],
    avpu: 'V',
    neuroAvpu: 'A',
    triageStatus: 'ORANGE',
    fastFaceDropping: true,
    fastArmWeakness: true,
    fastSpeechDifficulty: false,
    fastBalanceLoss: false,
    fastVisionLoss: false,
    fastTimeNoted: '2026-11-21T07:45:00.000Z',
    onset: 'Sudden, while driving',
    quality: 'Throbbing',
    severity: '7/10',
    chestExamined: true,
    chestAbnormal: true,
    chestNotes: 'Bruising across the left chest from the seat belt',
    abdomenExamined: true,
    abdomenAbnormal: false,
    hasMedicalAid: true,
    medicalAidProvider: 'Discovery Health, member 123456789',
    ...fields,
  });
  const bundle = build(clinical(), fullVitals());
  const textObservation = (b: Bundle, label: string) =>
    resources(b, 'Observation').filter((o) => o.code.text === label);

  it('with every new resource, is still a bundle Medplum and the HL7 checks accept', () => {
    expect(fhirBundleProblems(bundle)).toEqual([]);
    const types = (bundle.entry ?? []).map((e) => e.resource?.resourceType);
    for (const type of ['AllergyIntolerance', 'MedicationStatement', 'Coverage'])
      expect(types).toContain(type);
  });

  it('allergies as one unconfirmed AllergyIntolerance, word for word, with no guessed code', () => {
    const allergy = only(resources(bundle, 'AllergyIntolerance'));
    expect(allergy.code).toEqual({ text: 'Penicillin (rash), bee stings' });
    expect(allergy.clinicalStatus?.coding?.[0]?.code).toBe('active');
    expect(allergy.verificationStatus?.coding?.[0]?.code).toBe('unconfirmed');
    expect(allergy.patient.reference).toBe(fullUrlOf(bundle, only(resources(bundle, 'Patient'))));
    expect(allergy.encounter?.reference).toBe(
      fullUrlOf(bundle, only(resources(bundle, 'Encounter'))),
    );
  });

  it('"no known allergies" is the SNOMED CT situation; "unknown" is not an allergy', () => {
    const nka = build(clinical({ allergies: 'NKA' }));
    expect(fhirBundleProblems(nka)).toEqual([]);
    expect(only(resources(nka, 'AllergyIntolerance')).code).toEqual({
      coding: [{ system: SNOMED, code: '716186003', display: 'No known allergy (situation)' }],
      text: 'NKA',
    });
    const nkda = build(clinical({ allergies: 'No known drug allergies' }));
    expect(only(resources(nkda, 'AllergyIntolerance')).code?.coding?.[0]?.code).toBe('409137002');
    const unknown = build(clinical({ allergies: 'Unknown' }));
    expect(fhirBundleProblems(unknown)).toEqual([]);
    expect(resources(unknown, 'AllergyIntolerance')).toEqual([]);
    expect(only(textObservation(unknown, 'Allergies')).valueString).toBe('Unknown');
  });

  it("the patient's own medications as a MedicationStatement; 'none' as the medication history", () => {
    const statement = only(resources(bundle, 'MedicationStatement'));
    expect(statement.status).toBe('active');
    expect(statement.medicationCodeableConcept).toEqual({
      text: 'Enalapril 10 mg daily, metformin 500 mg twice daily',
    });
    expect(statement.category?.coding?.[0]?.code).toBe('patientspecified');
    const none = build(clinical({ medications: 'None' }));
    expect(fhirBundleProblems(none)).toEqual([]);
    expect(resources(none, 'MedicationStatement')).toEqual([]);
    expect(only(observationsCoded(none, '10160-0')).valueString).toBe('None');
    // "Unknown" is an answer too, not an active medicine called "Unknown".
    const unknown = build(clinical({ medications: 'Unknown' }));
    expect(fhirBundleProblems(unknown)).toEqual([]);
    expect(resources(unknown, 'MedicationStatement')).toEqual([]);
    expect(only(observationsCoded(unknown, '10160-0')).valueString).toBe('Unknown');
  });

  it('past history, events leading up, last oral intake and signs and symptoms, as written', () => {
    expect(only(observationsCoded(bundle, '11348-0')).valueString).toBe(
      'Hypertension, type 2 diabetes, appendicectomy 2010',
    );
    expect(only(observationsCoded(bundle, '10164-2')).valueString).toBe(
      'Sudden weakness of the right arm while driving',
    );
    expect(only(textObservation(bundle, 'Last oral intake')).valueString).toBe(
      '07:30 — Tea and toast',
    );
    expect(only(textObservation(bundle, 'Signs and symptoms')).valueString).toBe(
      'Headache; Nausea',
    );
  });

  it('AVPU as level of responsiveness with the SNOMED CT finding: V on arrival, A at reassessment', () => {
    const avpu = observationsCoded(bundle, '11454-6');
    expect(
      avpu.map((o) => [o.note?.[0]?.text, o.effectiveDateTime, o.valueCodeableConcept]),
    ).toEqual([
      [
        'Primary survey',
        '2026-11-21T08:12:00.000Z',
        {
          coding: [{ system: SNOMED, code: '300202002', display: 'Responds to voice' }],
          text: 'V — Responds to voice',
        },
      ],
      [
        'Neuro reassessment',
        '2026-11-21T08:50:00.000Z',
        {
          coding: [{ system: SNOMED, code: '248234008', display: 'Mentally alert' }],
          text: 'A — Alert',
        },
      ],
    ]);
  });

  it('the triage colour on the South African Triage Scale; a colour it does not have stays text', () => {
    const triage = only(textObservation(bundle, 'Triage category (South African Triage Scale)'));
    expect(triage.valueCodeableConcept).toEqual({
      coding: [
        { system: 'urn:rescuelog:sats-triage', code: 'ORANGE', display: 'Orange — Very urgent' },
      ],
      text: 'Orange — Very urgent',
    });
    const typed = build(clinical({ triageStatus: 'Purple' }));
    expect(fhirBundleProblems(typed)).toEqual([]);
    expect(
      only(textObservation(typed, 'Triage category (South African Triage Scale)'))
        .valueCodeableConcept,
    ).toEqual({
      text: 'Purple',
    });
  });

  it('the BE-FAST screen: each sign, positive with the signs found, and the time noted', () => {
    const fast = only(textObservation(bundle, 'BE-FAST stroke screen'));
    expect(fast.interpretation).toEqual([
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
            code: 'POS',
            display: 'Positive',
          },
        ],
        text: 'Positive: Face drooping, Arm weakness',
      },
    ]);
    expect(fast.component?.map((c) => [c.code.text, c.valueBoolean ?? c.valueDateTime])).toEqual([
      ['Face drooping', true],
      ['Arm weakness', true],
      ['Speech difficulty', false],
      ['Balance loss', false],
      ['Vision loss', false],
      ['Last known well / time noted', '2026-11-21T07:45:00.000Z'],
    ]);
    const negative = build(
      clinical({ fastFaceDropping: false, fastArmWeakness: false, fastTimeNoted: null }),
    );
    expect(
      only(textObservation(negative, 'BE-FAST stroke screen')).interpretation?.[0]?.coding?.[0]
        ?.code,
    ).toBe('NEG');
    // Two signs checked and none found is not a negative screen.
    const partial = build(newCase({ fastFaceDropping: false, fastArmWeakness: false }));
    expect(fhirBundleProblems(partial)).toEqual([]);
    expect(only(textObservation(partial, 'BE-FAST stroke screen')).interpretation).toBeUndefined();
  });

  it('OPQRST: the answers given, one component each', () => {
    const opqrst = only(textObservation(bundle, 'Pain assessment (OPQRST)'));
    expect(opqrst.component?.map((c) => [c.code.text, c.valueString])).toEqual([
      ['Onset', 'Sudden, while driving'],
      ['Quality', 'Throbbing'],
      ['Severity', '7/10'],
    ]);
  });

  it('the body exam: a region per finding, abnormal or normal, regions not examined left out', () => {
    const exams = resources(bundle, 'Observation').filter(
      (o) => o.category?.[0]?.coding?.[0]?.code === 'exam' && o.bodySite,
    );
    expect(
      exams.map((o) => [o.code.text, o.interpretation?.[0]?.coding?.[0]?.code, o.valueString]),
    ).toEqual([
      ['Chest examination', 'A', 'Bruising across the left chest from the seat belt'],
      ['Abdomen examination', 'N', undefined],
    ]);
    const examinedOnly = build(newCase({ headExamined: true }));
    expect(fhirBundleProblems(examinedOnly)).toEqual([]);
    expect(only(textObservation(examinedOnly, 'Head examination')).note).toEqual([
      { text: 'Examined; no finding recorded' },
    ]);
  });

  it('the medical aid as a Coverage of the patient: the scheme as the payor, as written', () => {
    const coverage = only(resources(bundle, 'Coverage'));
    expect(coverage.status).toBe('active');
    expect(coverage.payor).toEqual([{ display: 'Discovery Health, member 123456789' }]);
    expect(coverage.beneficiary.reference).toBe(
      fullUrlOf(bundle, only(resources(bundle, 'Patient'))),
    );
    expect(coverage.type?.text).toBe('Medical aid');
    // No medical aid (a provider typed before the answer changed is not exported).
    expect(resources(build(clinical({ hasMedicalAid: false })), 'Coverage')).toEqual([]);
    // Medical aid, scheme not recorded: the payor is there, absent for a reason.
    const unnamed = build(clinical({ medicalAidProvider: null }));
    expect(fhirBundleProblems(unnamed)).toEqual([]);
    expect(only(resources(unnamed, 'Coverage')).payor).toEqual([
      {
        extension: [
          {
            url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
            valueCode: 'unknown',
          },
        ],
      },
    ]);
  });

  it('the checks reject a broken allergy, statement or coverage', () => {
    const broken = (edit: (b: Bundle) => void): string[] => {
      const copy = structuredClone(bundle);
      edit(copy);
      return fhirBundleProblems(copy);
    };
    expect(
      broken((b) => {
        const a = resources(b, 'AllergyIntolerance')[0] as Partial<AllergyIntolerance>;
        delete a.patient;
      }).join('\n'),
    ).toMatch(/AllergyIntolerance\.patient/);
    expect(
      broken((b) => {
        const a = resources(b, 'AllergyIntolerance')[0]!;
        a.verificationStatus = {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
              code: 'reported',
            },
          ],
        };
      }).join('\n'),
    ).toMatch(/reported is not a code/);
    expect(
      broken((b) =>
        Object.assign(resources(b, 'MedicationStatement')[0]!, { status: 'taking' }),
      ).join('\n'),
    ).toMatch(/\(MedicationStatement\)\.status: 'taking' is not in/);
    expect(
      broken((b) => {
        const c = resources(b, 'Coverage')[0] as Partial<Coverage>;
        delete c.payor;
      }).join('\n'),
    ).toMatch(/Coverage\.payor/);
    // An AVPU both valued and absent for a reason breaks R4's obs-6.
    expect(
      broken((b) =>
        Object.assign(observationsCoded(b, '11454-6')[0]!, {
          dataAbsentReason: { text: 'Not assessed' },
        }),
      ).join('\n'),
    ).toMatch(/obs-6/);
  });
});

describe('the rest of the primary survey, the neuro reassessment and the notes', () => {
  const SNOMED = 'http://snomed.info/sct';
  const surveyed = (fields: Partial<CaseRecord> = {}): CaseInput => ({
    ...fullCase(),
    airwayStatus: 'Partially obstructed',
    breathingStatus: 'Laboured',
    circulationStatus: 'Pale, cool, clammy',
    pupilResponsesiveness: 'PEARL',
    hemorrhagingActive: true,
    hemorrhagingLocation: 'Left leg',
    hemorrhagingType: 'Arterial',
    hemorrhagingSeverity: 'Catastrophic',
    hemorrhagingControlStatus: 'Controlled',
    hemorrhagingInterventions: ['Direct pressure', 'Tourniquet', 'Pressure bandage', 'Other'],
    hemorrhagingInterventionOther: 'Improvised windlass removed',
    neuroPupils: 'Unequal',
    neuroMotorFunction: 'Weakness right side',
    neuroSensoryFunction: 'Reduced',
    neuroNotes: 'Right pupil 5 mm, left 3 mm',
    incidentDescription: 'Car left the road and hit a tree; driver found slumped over the wheel',
    additionalFindings: 'Smell of alcohol on the breath',
    additionalNotes: 'Police on scene, case number CAS 123/11/2026',
    callerName: 'Sipho Dlamini',
    callerPhone: '082 555 0100',
    sceneSafe: true,
    helpCalled: true,
    ...fields,
  });
  const bundle = build(surveyed(), fullVitals());
  const byText = (b: Bundle, label: string) =>
    resources(b, 'Observation').filter((o) => o.code.text === label);
  const notedAs = (list: Observation[], note: string) =>
    only(list.filter((o) => o.note?.some((n) => n.text === note)));

  it('with every new resource, is still a bundle Medplum and the HL7 checks accept', () => {
    expect(fhirBundleProblems(bundle)).toEqual([]);
  });

  it('airway, breathing (LOINC respiratory effort) and circulation as charted, dated at arrival', () => {
    const airway = only(byText(bundle, 'Airway status'));
    expect(airway.valueCodeableConcept).toEqual({ text: 'Partially obstructed' });
    expect(airway.effectiveDateTime).toBe('2026-11-21T08:12:00.000Z');
    expect(airway.category?.[0]?.coding?.[0]?.code).toBe('exam');
    const breathing = only(observationsCoded(bundle, '80341-1'));
    expect(breathing.code.text).toBe('Breathing status');
    expect(breathing.valueCodeableConcept).toEqual({
      coding: [{ system: SNOMED, code: '248549001', display: 'Labored breathing' }],
      text: 'Laboured',
    });
    expect(only(byText(bundle, 'Circulation status')).valueCodeableConcept).toEqual({
      text: 'Pale, cool, clammy',
    });
    // A choice with no finding of its own stays text; "Absent" is apnoea.
    const noisy = build(surveyed({ breathingStatus: 'Noisy' }));
    expect(only(observationsCoded(noisy, '80341-1')).valueCodeableConcept).toEqual({
      text: 'Noisy',
    });
    const absent = build(surveyed({ breathingStatus: 'Absent' }));
    expect(only(observationsCoded(absent, '80341-1')).valueCodeableConcept?.coding?.[0]?.code).toBe(
      '1023001',
    );
  });

  it('pupils on arrival (PEARL, coded) and at reassessment (unequal, as text), each dated', () => {
    const pupils = byText(bundle, 'Pupils');
    const arrival = notedAs(pupils, 'Primary survey');
    expect(arrival.valueCodeableConcept).toEqual({
      coding: [
        { system: SNOMED, code: '386666001', display: 'Pupils equal and reacting to light' },
      ],
      text: 'PEARL',
    });
    expect(arrival.effectiveDateTime).toBe('2026-11-21T08:12:00.000Z');
    const reassessed = notedAs(pupils, 'Neuro reassessment');
    expect(reassessed.valueCodeableConcept).toEqual({ text: 'Unequal' });
    expect(reassessed.effectiveDateTime).toBe('2026-11-21T08:50:00.000Z');
  });

  it('the catastrophic bleeding: yes, where, type, severity and control; its interventions as procedures', () => {
    const bleeding = only(byText(bundle, 'Catastrophic bleeding'));
    expect(bleeding.valueBoolean).toBe(true);
    expect(bleeding.bodySite).toEqual({ text: 'Left leg' });
    expect(bleeding.component?.map((c) => [c.code.text, c.valueString])).toEqual([
      ['Bleeding type', 'Arterial'],
      ['Bleeding severity', 'Catastrophic'],
      ['Bleeding control status', 'Controlled'],
    ]);
    const bleedingUrl = fullUrlOf(bundle, bleeding);
    const procedures = resources(bundle, 'Procedure');
    const forBleeding = procedures.filter((p) =>
      p.reasonReference?.some((r) => r.reference === bleedingUrl),
    );
    // The tourniquet is the checklist's one procedure (with its time), not a second one.
    expect(forBleeding.map((p) => p.code?.text)).toEqual([
      'Direct pressure',
      'Tourniquet applied',
      'Pressure bandage',
      'Improvised windlass removed',
    ]);
    expect(procedures.filter((p) => /tourniquet/i.test(p.code?.text ?? ''))).toHaveLength(1);
    expect(forBleeding[1]?.performedDateTime).toBe('2026-11-21T08:14:00.000Z');
  });

  it('a bleeding control typed under Other that is also on the list is one procedure, not two entries with one id', () => {
    const twice = build(
      surveyed({
        hemorrhagingInterventions: ['Elevation', 'Other'],
        hemorrhagingInterventionOther: 'elevation',
      }),
    );
    const urls = (twice.entry ?? []).map((e) => e.fullUrl);
    expect(new Set(urls).size).toBe(urls.length);
    expect(
      resources(twice, 'Procedure').filter((p) => /elevation/i.test(p.code?.text ?? '')),
    ).toHaveLength(1);
    expect(fhirBundleProblems(twice)).toEqual([]);
  });

  it('a tourniquet on the bleeding list alone is still exported, with its time', () => {
    const listOnly = build(
      newCase({
        hemorrhagingActive: true,
        hemorrhagingLocation: 'Other',
        hemorrhagingLocationOther: 'Left armpit',
        hemorrhagingInterventions: ['Tourniquet'],
        tourniquetApplicationTime: '2026-11-21T08:14:00.000Z',
      }),
    );
    expect(fhirBundleProblems(listOnly)).toEqual([]);
    const tourniquet = only(resources(listOnly, 'Procedure'));
    expect(tourniquet.code?.text).toBe('Tourniquet applied');
    expect(tourniquet.performedDateTime).toBe('2026-11-21T08:14:00.000Z');
    expect(only(byText(listOnly, 'Catastrophic bleeding')).bodySite).toEqual({
      text: 'Left armpit',
    });
    // "No catastrophic bleeding" is a finding too.
    const none = build(newCase({ hemorrhagingActive: false }));
    expect(fhirBundleProblems(none)).toEqual([]);
    expect(only(byText(none, 'Catastrophic bleeding')).valueBoolean).toBe(false);
    expect(resources(none, 'Procedure')).toEqual([]);
  });

  it('the neuro reassessment: motor and sensory function with the notes, at the reassessment time', () => {
    const neuro = only(byText(bundle, 'Neurological examination (neuro reassessment)'));
    expect(neuro.component?.map((c) => [c.code.text, c.valueString])).toEqual([
      ['Motor function', 'Weakness right side'],
      ['Sensory function', 'Reduced'],
    ]);
    expect(neuro.note).toEqual([{ text: 'Right pupil 5 mm, left 3 mm' }]);
    expect(neuro.effectiveDateTime).toBe('2026-11-21T08:50:00.000Z');
    const notesOnly = build(newCase({ neuroNotes: 'Moves toes on command' }));
    expect(fhirBundleProblems(notesOnly)).toEqual([]);
    expect(
      only(byText(notesOnly, 'Neurological examination (neuro reassessment)')).valueString,
    ).toBe('Moves toes on command');
  });

  it('the incident description, other findings and notes word for word; the caller is not exported', () => {
    expect(only(byText(bundle, 'Incident description')).valueString).toBe(
      'Car left the road and hit a tree; driver found slumped over the wheel',
    );
    expect(only(byText(bundle, 'Additional findings')).valueString).toBe(
      'Smell of alcohol on the breath',
    );
    expect(only(byText(bundle, 'Additional notes')).valueString).toBe(
      'Police on scene, case number CAS 123/11/2026',
    );
    const json = JSON.stringify(bundle);
    expect(json).not.toContain('Sipho Dlamini');
    expect(json).not.toContain('082 555 0100');
    expect(resources(bundle, 'RelatedPerson')).toEqual([]);
  });

  it('an empty case still gets none of them', () => {
    const empty = build(newCase());
    expect((empty.entry ?? []).map((e) => e.resource?.resourceType)).toEqual([
      'Patient',
      'Encounter',
    ]);
  });

  it('the checks reject a broken bleeding, breathing or bleeding-control procedure', () => {
    const broken = (edit: (b: Bundle) => void): string[] => {
      const copy = structuredClone(bundle);
      edit(copy);
      return fhirBundleProblems(copy);
    };
    expect(broken(() => undefined)).toEqual([]);
    // Valued and absent for a reason at once (obs-6).
    expect(
      broken((b) =>
        Object.assign(byText(b, 'Catastrophic bleeding')[0]!, {
          dataAbsentReason: { text: 'Not assessed' },
        }),
      ).join('\n'),
    ).toMatch(/obs-6/);
    // A component without its code.
    expect(
      broken((b) => {
        const component = byText(b, 'Catastrophic bleeding')[0]!.component![0] as {
          code?: unknown;
        };
        delete component.code;
      }).join('\n'),
    ).toMatch(/component\[0\]\.code Missing required property/);
    // A breathing finding with a status R4 does not have.
    expect(
      broken((b) => Object.assign(observationsCoded(b, '80341-1')[0]!, { status: 'done' })).join(
        '\n',
      ),
    ).toMatch(/\(Observation\)\.status: 'done' is not in/);
    // A procedure whose reason points outside the bundle.
    expect(
      broken((b) => {
        const p = resources(b, 'Procedure').find((x) => x.code?.text === 'Pressure bandage')!;
        p.reasonReference = [{ reference: 'urn:uuid:00000000-0000-4000-8000-999999999999' }];
      }).join('\n'),
    ).toMatch(
      /reasonReference\[0\]: urn:uuid:0{8}-0{4}-4000-8000-9{12} is not an entry of the bundle/,
    );
  });
});
