// A case that meets every completion rule, as the device holds it (Partial<CaseRecord>),
// for tests to break one answer at a time.
import type { VitalLike } from '../../src/cases/completion';
import { CASE_FIELD_DEFAULTS, type CaseRecord } from '../../src/cases/case-schema';

export function completeCase(overrides: Partial<CaseRecord> = {}): Partial<CaseRecord> {
  return {
    ...(CASE_FIELD_DEFAULTS as Partial<CaseRecord>),
    id: '0b8a3c1e-5f0e-4a8e-9d1e-2f3a4b5c6d7e',
    caseId: 'C-2611-7Q4M-XK3P',
    status: 'in_progress',
    patientName: null,
    approximateAge: 58,
    patientGender: 'Male',
    incidentType: 'Medical',
    hasMedicalAid: false,
    incidentLocation: '12 Long Street, Cape Town',
    avpu: 'A',
    triageStatus: 'YELLOW',
    callReceivedTime: '2026-11-21T05:00:00.000Z',
    responderArrivalTime: '2026-11-21T05:12:00.000Z',
    departureTime: '2026-11-21T05:40:00.000Z',
    hospitalArrivalTime: '2026-11-21T06:05:00.000Z',
    receivingHospital: 'Groote Schuur Hospital',
    transportPriority: 'Priority 2',
    ...overrides,
  };
}

export const ONE_VITAL: VitalLike[] = [{ type: 'heartRate', voidedAt: null }];
