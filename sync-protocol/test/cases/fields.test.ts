import { describe, expect, it } from 'vitest';
import { CASE_FIELDS } from '../../src/cases/case-schema';
import { INTERVENTIONS } from '../../src/cases/clinical';
import { CASE_STEP_KEYS, stepPath } from '../../src/cases/steps';
import {
  CASE_FIELD_LABELS,
  CASE_FIELD_ORDER,
  FIELD_STEP,
  fieldDomId,
  formatCaseValue,
} from '../../src/cases/fields';

describe('case field labels and steps', () => {
  it('labels every case field, each label different', () => {
    for (const f of CASE_FIELDS) expect(CASE_FIELD_LABELS[f], f).toMatch(/\S/);
    const labels = CASE_FIELDS.map((f) => CASE_FIELD_LABELS[f]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(Object.keys(CASE_FIELD_LABELS).sort()).toEqual([...CASE_FIELDS].sort());
  });

  it('uses the domain wording for fields responders know', () => {
    expect(CASE_FIELD_LABELS.patientName).toBe('Patient name');
    expect(CASE_FIELD_LABELS.gcsEyeOpening).toBe('GCS eye opening');
    expect(CASE_FIELD_LABELS.oxygenAdministered).toBe('Oxygen administered');
    expect(CASE_FIELD_LABELS.ivAccess).toBe('IV access');
  });

  it('puts every field on exactly one capture step (never the completed summary)', () => {
    expect(Object.keys(FIELD_STEP).sort()).toEqual([...CASE_FIELDS].sort());
    expect(CASE_FIELD_ORDER).toHaveLength(CASE_FIELDS.length);
    for (const f of CASE_FIELDS) {
      expect(CASE_STEP_KEYS).toContain(FIELD_STEP[f]);
      expect(FIELD_STEP[f], f).not.toBe('case-completed');
    }
  });

  it('follows domain.md "Case steps"', () => {
    expect(FIELD_STEP.patientName).toBe('patient-details');
    expect(FIELD_STEP.medicalAidProvider).toBe('patient-details');
    expect(FIELD_STEP.incidentLatitude).toBe('patient-details');
    expect(FIELD_STEP.totalPatients).toBe('patient-details');
    expect(FIELD_STEP.avpu).toBe('primary-survey');
    expect(FIELD_STEP.tourniquetApplicationTime).toBe('primary-survey');
    expect(FIELD_STEP.gcsTotal).toBe('primary-survey');
    expect(FIELD_STEP.triageStatus).toBe('primary-survey');
    expect(FIELD_STEP.allergies).toBe('secondary-survey');
    expect(FIELD_STEP.fastTimeNoted).toBe('secondary-survey');
    expect(FIELD_STEP.pelvisNotes).toBe('secondary-survey');
    expect(FIELD_STEP.neuroGcsTotal).toBe('secondary-survey');
    for (const i of INTERVENTIONS) expect(FIELD_STEP[i]).toBe('treatment-provided');
    expect(FIELD_STEP.medicationsGiven).toBe('treatment-provided');
    expect(FIELD_STEP.callReceivedTime).toBe('response-details');
    expect(FIELD_STEP.hospitalArrivalTime).toBe('response-details');
    expect(FIELD_STEP.patientRefusedTransport).toBe('response-details');
  });

  it('links a field as <step path>#field-<name>', () => {
    expect(fieldDomId('incidentType')).toBe('field-incidentType');
    expect(fieldDomId('vitalSigns')).toBe('field-vitalSigns');
    expect(
      `${stepPath(FIELD_STEP.triageStatus, 'C-2611-7Q4M-XK3P')}#${fieldDomId('triageStatus')}`,
    ).toBe('/primary-survey/C-2611-7Q4M-XK3P#field-triageStatus');
  });
});

describe('formatCaseValue', () => {
  it("shows '—' for anything empty", () => {
    for (const empty of [null, undefined, '', '   ', [], {}]) {
      expect(formatCaseValue('allergies', empty)).toBe('—');
    }
  });

  it('shows booleans as Yes / No', () => {
    expect(formatCaseValue('oxygenAdministered', true)).toBe('Yes');
    expect(formatCaseValue('patientRefusedTransport', false)).toBe('No');
  });

  it('shows times as en-GB "21 Nov 2026, HH:mm" in South African time', () => {
    expect(formatCaseValue('callReceivedTime', '2026-11-21T05:07:00.000Z')).toBe(
      '21 Nov 2026, 07:07',
    );
    // 23:30 UTC on the 31st is already the 1st in Johannesburg
    expect(formatCaseValue('hospitalArrivalTime', '2026-12-31T22:30:00.000Z')).toBe(
      '1 Jan 2027, 00:30',
    );
    expect(formatCaseValue('fastTimeNoted', 'not a time')).toBe('not a time');
  });

  it('joins lists and shows units where the field has one', () => {
    expect(formatCaseValue('symptoms', ['Chest pain', 'Nausea'])).toBe('Chest pain, Nausea');
    expect(formatCaseValue('hemorrhagingInterventions', ['Direct pressure', 'Tourniquet'])).toBe(
      'Direct pressure, Tourniquet',
    );
    expect(formatCaseValue('triageCounts', { RED: 2, GREEN: 5 })).toBe('RED: 2; GREEN: 5');
    expect(formatCaseValue('approximateAge', 0)).toBe('Under 1 year');
    expect(formatCaseValue('approximateAge', 34)).toBe('34 years');
    expect(formatCaseValue('respiratoryRate', 18)).toBe('18 /min');
    expect(formatCaseValue('capillaryRefillTime', 2.5)).toBe('2.5 s');
    expect(formatCaseValue('painScore', 7)).toBe('7/10');
    expect(formatCaseValue('incidentDuration', 3900)).toBe('1 h 05 min');
    expect(formatCaseValue('avpu', 'V')).toBe('V — Responds to voice');
    expect(formatCaseValue('incidentPatients', [{}, {}])).toBe('2 patients');
    expect(formatCaseValue('incidentType', 'Motor vehicle accident')).toBe(
      'Motor vehicle accident',
    );
  });
});
