import { describe, expect, it } from 'vitest';
import { CASE_FIELD_DEFAULTS } from '../../src/cases/case-schema';
import { caseHoldsNothing } from '../../src/cases/untouched';

const fresh = {
  id: '7a0c2d9e-3f4b-4c5d-8e6f-0a1b2c3d4e5f',
  caseId: 'C-ABCDEF',
  status: 'in_progress',
  ...CASE_FIELD_DEFAULTS,
  responderName: 'Alice Mokoena',
  responderCallSign: 'R1',
  patientName: null,
  chiefComplaint: '',
};

describe('caseHoldsNothing', () => {
  it('is true for a case with only the responder New Case filled in and its defaults', () => {
    expect(caseHoldsNothing(fresh)).toBe(true);
  });

  it('is false once anything is written, ticked, attached or completed', () => {
    expect(caseHoldsNothing({ ...fresh, patientName: 'Thandi' })).toBe(false);
    expect(caseHoldsNothing({ ...fresh, symptoms: ['nausea'] })).toBe(false);
    expect(caseHoldsNothing({ ...fresh, patientRefusedTransport: true })).toBe(false);
    expect(caseHoldsNothing(fresh, { readings: 1, addenda: 0 })).toBe(false);
    expect(caseHoldsNothing({ ...fresh, status: 'completed' })).toBe(false);
  });
});
