import { describe, expect, it } from 'vitest';
import { CASE_STEP_KEYS } from '../../src/cases/steps';
import {
  REQUIRED_FOR_COMPLETION,
  validateCaseForCompletion,
  type CompletionProblem,
} from '../../src/cases/completion';
import type { CaseRecord } from '../../src/cases/case-schema';
import { ONE_VITAL, completeCase } from './fixtures';

const problemsOf = (overrides: Partial<CaseRecord>, vitals = ONE_VITAL) =>
  validateCaseForCompletion(completeCase(overrides), vitals);

const only = (problems: CompletionProblem[]) => {
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe('validateCaseForCompletion: required fields', () => {
  it('finds nothing wrong with a complete case, even with the patient name unknown', () => {
    expect(problemsOf({})).toEqual([]);
    expect(problemsOf({ patientName: null })).toEqual([]);
    // a baby under a year is age 0, an answer, not a blank
    expect(problemsOf({ approximateAge: 0 })).toEqual([]);
  });

  it.each([
    ['incidentType', 'patient-details', 'Enter the incident type'],
    ['approximateAge', 'patient-details', "Enter the patient's approximate age"],
    ['patientGender', 'patient-details', "Select the patient's gender"],
    ['triageStatus', 'primary-survey', 'Select a triage status'],
    ['callReceivedTime', 'response-details', 'Enter the time the call was received'],
    ['responderArrivalTime', 'response-details', 'Enter the responder arrival time'],
    [
      'receivingHospital',
      'response-details',
      'Enter the receiving hospital, or record that transport was refused',
    ],
    [
      'transportPriority',
      'response-details',
      'Select the transport priority, or record that transport was refused',
    ],
  ] as const)('needs %s (on %s)', (field, step, message) => {
    expect(only(problemsOf({ [field]: null }))).toEqual({ field, step, message });
    // blank text counts as missing too
    if (field !== 'approximateAge' && !field.endsWith('Time')) {
      expect(only(problemsOf({ [field]: '  ' })).field).toBe(field);
    }
  });

  it('takes GPS coordinates for the incident location', () => {
    expect(only(problemsOf({ incidentLocation: null }))).toEqual({
      field: 'incidentLocation',
      step: 'patient-details',
      message: 'Enter the incident location or capture the GPS position',
    });
    expect(
      problemsOf({ incidentLocation: null, incidentLatitude: -33.92, incidentLongitude: 18.42 }),
    ).toEqual([]);
    expect(only(problemsOf({ incidentLocation: null, incidentLatitude: -33.92 })).field).toBe(
      'incidentLocation',
    );
  });

  it('needs a level of consciousness: AVPU or a full GCS', () => {
    expect(only(problemsOf({ avpu: null }))).toEqual({
      field: 'avpu',
      step: 'primary-survey',
      message: 'Record the level of consciousness (AVPU or a full GCS)',
    });
    expect(
      problemsOf({
        avpu: null,
        gcsEyeOpening: 4,
        gcsVerbalResponse: 5,
        gcsMotorResponse: 6,
        gcsTotal: 15,
      }),
    ).toEqual([]);
    expect(
      problemsOf({
        avpu: null,
        gcsEyeOpening: 1,
        gcsVerbalIntubated: true,
        gcsMotorResponse: 1,
        gcsTotal: 3,
      }),
    ).toEqual([]);
  });

  it('needs one vital sign reading that is not voided', () => {
    const missing = {
      field: 'vitalSigns',
      step: 'secondary-survey',
      message: 'Record at least one set of vital signs',
    };
    expect(problemsOf({}, [])).toEqual([missing]);
    expect(problemsOf({}, [{ type: 'heartRate', voidedAt: '2026-11-21T05:20:00.000Z' }])).toEqual([
      missing,
    ]);
    expect(
      problemsOf({}, [
        { type: 'heartRate', voidedAt: '2026-11-21T05:20:00.000Z' },
        { type: 'heartRate', voidedAt: null },
      ]),
    ).toEqual([]);
  });

  it('does not need a hospital or priority when the patient refused transport', () => {
    expect(
      problemsOf({
        patientRefusedTransport: true,
        receivingHospital: null,
        transportPriority: null,
        departureTime: null,
        hospitalArrivalTime: null,
      }),
    ).toEqual([]);
  });

  it('lists the required fields for screens to mark, each with a step', () => {
    expect(REQUIRED_FOR_COMPLETION).toContain('vitalSigns');
    expect(REQUIRED_FOR_COMPLETION).not.toContain('patientName');
    // every required field, left empty on a bare case, is reported
    const reported = validateCaseForCompletion({}, []).map((p) => p.field);
    for (const field of REQUIRED_FOR_COMPLETION) expect(reported).toContain(field);
  });
});

describe('validateCaseForCompletion: consistency', () => {
  it('needs the medical aid provider when the patient has medical aid', () => {
    expect(only(problemsOf({ hasMedicalAid: true }))).toEqual({
      field: 'medicalAidProvider',
      step: 'patient-details',
      message: 'Enter the medical aid provider',
    });
    expect(problemsOf({ hasMedicalAid: true, medicalAidProvider: 'Discovery Health' })).toEqual([]);
  });

  it('needs a tourniquet time when a tourniquet was applied (checklist or bleeding control)', () => {
    const problem = {
      field: 'tourniquetApplicationTime',
      step: 'primary-survey',
      message: 'Enter the time the tourniquet was applied',
    };
    expect(problemsOf({ tourniquetApplication: true })).toEqual([problem]);
    expect(problemsOf({ hemorrhagingInterventions: ['Direct pressure', 'Tourniquet'] })).toEqual([
      problem,
    ]);
    expect(
      problemsOf({
        tourniquetApplication: true,
        tourniquetApplicationTime: '2026-11-21T05:15:00.000Z',
      }),
    ).toEqual([]);
  });

  it('needs the bleeding details when catastrophic bleeding is recorded', () => {
    expect(problemsOf({ hemorrhagingActive: true }).map((p) => [p.field, p.step])).toEqual([
      ['hemorrhagingLocation', 'primary-survey'],
      ['hemorrhagingSeverity', 'primary-survey'],
      ['hemorrhagingControlStatus', 'primary-survey'],
    ]);
    const bleeding = {
      hemorrhagingActive: true,
      hemorrhagingLocation: 'Left thigh',
      hemorrhagingSeverity: 'Severe',
      hemorrhagingControlStatus: 'Controlled',
    };
    expect(problemsOf(bleeding)).toEqual([]);
    expect(only(problemsOf({ ...bleeding, hemorrhagingLocation: 'Other' })).field).toBe(
      'hemorrhagingLocationOther',
    );
    expect(only(problemsOf({ hemorrhagingInterventions: ['other'] })).field).toBe(
      'hemorrhagingInterventionOther',
    );
    expect(problemsOf({ hemorrhagingActive: false })).toEqual([]);
  });

  it('needs the time noted when any BE-FAST sign is positive', () => {
    for (const sign of [
      'fastBalanceLoss',
      'fastVisionLoss',
      'fastFaceDropping',
      'fastArmWeakness',
      'fastSpeechDifficulty',
    ] as const) {
      expect(only(problemsOf({ [sign]: true }))).toEqual({
        field: 'fastTimeNoted',
        step: 'secondary-survey',
        message: 'Enter the time the stroke signs were noted (last known well)',
      });
    }
    expect(problemsOf({ fastFaceDropping: false, fastArmWeakness: false })).toEqual([]);
    expect(
      problemsOf({ fastArmWeakness: true, fastTimeNoted: '2026-11-21T04:30:00.000Z' }),
    ).toEqual([]);
  });

  it('needs the times in order: call ≤ arrival ≤ departure ≤ hospital', () => {
    expect(only(problemsOf({ responderArrivalTime: '2026-11-21T04:59:00.000Z' }))).toEqual({
      field: 'responderArrivalTime',
      step: 'response-details',
      message: 'Check the responder arrival time: it is before the call received time',
    });
    expect(only(problemsOf({ hospitalArrivalTime: '2026-11-21T05:39:00.000Z' })).message).toBe(
      'Check the hospital arrival time: it is before the departure time',
    );
    expect(only(problemsOf({ departureTime: '2026-11-21T05:11:00.000Z' })).field).toBe(
      'departureTime',
    );
    // skipped times still order the ones around them
    expect(
      only(
        problemsOf(
          { responderArrivalTime: null, departureTime: '2026-11-21T04:00:00.000Z' },
          ONE_VITAL,
        ).filter((p) => p.field === 'departureTime'),
      ).message,
    ).toBe('Check the departure time: it is before the call received time');
    expect(only(problemsOf({ arrivalTime: '2026-11-21T05:41:00.000Z' })).message).toBe(
      'Check the departure time: it is before the ambulance arrival time',
    );
    // equal times are fine
    expect(problemsOf({ responderArrivalTime: '2026-11-21T05:00:00.000Z' })).toEqual([]);
  });

  it('needs GCS parts all or none, and a total that matches them', () => {
    expect(problemsOf({ gcsEyeOpening: 4 }).map((p) => [p.field, p.message])).toEqual([
      ['gcsVerbalResponse', 'Enter the GCS verbal score, or mark the patient intubated'],
      ['gcsMotorResponse', 'Enter the GCS motor score'],
    ]);
    expect(
      only(problemsOf({ gcsVerbalResponse: 5, gcsMotorResponse: 6, gcsTotal: null })).field,
    ).toBe('gcsEyeOpening');
    expect(
      only(
        problemsOf({ gcsEyeOpening: 4, gcsVerbalResponse: 5, gcsMotorResponse: 6, gcsTotal: 14 }),
      ),
    ).toEqual({
      field: 'gcsTotal',
      step: 'primary-survey',
      message: 'The GCS total should be 15: re-enter the GCS scores',
    });
    expect(
      only(
        problemsOf({ gcsEyeOpening: 4, gcsVerbalResponse: 5, gcsMotorResponse: 6, gcsTotal: null }),
      ).field,
    ).toBe('gcsTotal');
    expect(only(problemsOf({ gcsTotal: 12 }))).toEqual({
      field: 'gcsEyeOpening',
      step: 'primary-survey',
      message: 'Enter the GCS eye, verbal and motor scores, not only the total',
    });
    expect(
      problemsOf({
        gcsEyeOpening: 2,
        gcsVerbalResponse: 3,
        gcsVerbalIntubated: true,
        gcsMotorResponse: 4,
        gcsTotal: 7,
      }).map((p) => p.field),
    ).toEqual(['gcsVerbalResponse']);
    expect(
      problemsOf({ gcsEyeOpening: 2, gcsVerbalIntubated: true, gcsMotorResponse: 4, gcsTotal: 7 }),
    ).toEqual([]);
  });
});

describe('validateCaseForCompletion: order', () => {
  it('lists problems in step order, then in the order of the fields on the step', () => {
    const problems = validateCaseForCompletion(
      completeCase({
        transportPriority: null,
        callReceivedTime: null,
        triageStatus: null,
        avpu: null,
        patientGender: null,
        incidentType: null,
        fastArmWeakness: true,
      }),
      [],
    );
    expect(problems.map((p) => p.field)).toEqual([
      'patientGender',
      'incidentType',
      'avpu',
      'triageStatus',
      'fastTimeNoted',
      'vitalSigns',
      'callReceivedTime',
      'transportPriority',
    ]);
    const stepIndexes = problems.map((p) => CASE_STEP_KEYS.indexOf(p.step));
    expect(stepIndexes).toEqual([...stepIndexes].sort((a, b) => a - b));
  });

  it('reports a field at most once', () => {
    const fields = validateCaseForCompletion(
      { gcsVerbalIntubated: true, gcsVerbalResponse: 4 },
      [],
    ).map((p) => p.field);
    expect(new Set(fields).size).toBe(fields.length);
  });
});
