// What every clinical resource of one case's export shares: the case, its stable ids, its
// times, and references to the patient, the encounter and the responder.
import type { Encounter, Observation, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import type { FhirExportInput } from './input';

export type FhirCase = FhirExportInput['case'];

/** The stable id of one of the case's resources ("patient", "vital:<id>", …). */
export type IdFor = (kind: string) => string;

/** Subject, encounter and performer, as every observation names them. */
export type ObservationCommon = Pick<Observation, 'subject' | 'encounter' | 'performer'>;

export interface CaseContext {
  c: FhirCase;
  idFor: IdFor;
  /** When the bundle was made (FHIR instant). */
  generatedAt: string;
  /** When the encounter started: the call, else the crew's arrival. */
  start: string | undefined;
  /** The crew's arrival: when the primary survey's findings were made. */
  initialAssessment: string | undefined;
  patientRef: Reference<Patient>;
  encounterRef: Reference<Encounter>;
  performerRef: Reference<Practitioner> | undefined;
  common: ObservationCommon;
}
