// The LOINC code, UCUM unit and FHIR profile of each vital sign type (decision 008).
import type { Coding } from '@medplum/fhirtypes';
import type { VitalSignType } from '../../clinical';
import { LOINC } from '../code-systems';

export type ObservationCategory = 'vital-signs' | 'laboratory' | 'survey' | 'exam';

export interface VitalSignFhirCode {
  loinc: string;
  display: string;
  /** Further codings of the same reading (SpO2: the pulse oximetry code). */
  alsoCoded?: readonly Coding[];
  /** UCUM code of the value; `unit` is what a reader sees. */
  ucum: string;
  unit: string;
  category: ObservationCategory;
  /** The FHIR R4 core vital-signs profile this reading conforms to, when there is one. */
  profile?: string;
}

/**
 * LOINC code and UCUM unit of each vital sign type (decision 008 lists the sources). The
 * five with a FHIR R4 core vital-signs profile claim it, and the tests validate them
 * against it.
 */
export const VITAL_SIGN_FHIR_CODES: Record<VitalSignType, VitalSignFhirCode> = {
  heartRate: {
    loinc: '8867-4',
    display: 'Heart rate',
    ucum: '/min',
    unit: 'beats/minute',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/heartrate',
  },
  respiratoryRate: {
    loinc: '9279-1',
    display: 'Respiratory rate',
    ucum: '/min',
    unit: 'breaths/minute',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/resprate',
  },
  bloodPressure: {
    loinc: '85354-9',
    display: 'Blood pressure panel with all children optional',
    ucum: 'mm[Hg]',
    unit: 'mmHg',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/bp',
  },
  spo2: {
    loinc: '2708-6',
    display: 'Oxygen saturation in Arterial blood',
    alsoCoded: [
      {
        system: LOINC,
        code: '59408-5',
        display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
      },
    ],
    ucum: '%',
    unit: '%',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/oxygensat',
  },
  temperature: {
    loinc: '8310-5',
    display: 'Body temperature',
    ucum: 'Cel',
    unit: '°C',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/bodytemp',
  },
  bloodGlucose: {
    loinc: '15074-8',
    display: 'Glucose [Moles/volume] in Blood',
    ucum: 'mmol/L',
    unit: 'mmol/L',
    category: 'laboratory',
  },
  gcs: {
    loinc: '9269-2',
    display: 'Glasgow coma score total',
    ucum: '{score}',
    unit: '{score}',
    category: 'survey',
  },
  painScore: {
    loinc: '72514-3',
    display: 'Pain severity - 0-10 verbal numeric rating [Score] - Reported',
    ucum: '{score}',
    unit: '{score}',
    category: 'survey',
  },
  capillaryRefill: {
    loinc: '44963-7',
    display: 'Capillary refill [Time] of Nail bed',
    ucum: 's',
    unit: 's',
    category: 'exam',
  },
  etco2: {
    loinc: '19889-5',
    display: 'Carbon dioxide [Partial pressure] in Exhaled gas --at end expiration',
    ucum: 'mm[Hg]',
    unit: 'mmHg',
    category: 'vital-signs',
  },
};
