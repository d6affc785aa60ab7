// The code systems and identifier systems of the FHIR export (decision 008 lists the sources).
export const LOINC = 'http://loinc.org';
export const SNOMED_CT = 'http://snomed.info/sct';
export const UCUM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
export const DATA_ABSENT_REASON_EXTENSION =
  'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
export const DATA_OPERATION = 'http://terminology.hl7.org/CodeSystem/v3-DataOperation';
export const LOCATION_PHYSICAL_TYPE =
  'http://terminology.hl7.org/CodeSystem/location-physical-type';
export const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
export const ALLERGY_VERIFICATION =
  'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
export const MEDICATION_STATEMENT_CATEGORY =
  'http://terminology.hl7.org/CodeSystem/medication-statement-category';

/** Encounter.identifier system: the human case number a crew reads over the radio. */
export const CASE_ID_SYSTEM = 'urn:rescuelog:case-id';
/** Practitioner.identifier system: a responder's call sign. */
export const CALL_SIGN_SYSTEM = 'urn:rescuelog:call-sign';
/** Provenance agent identifier system: the author of an addendum (an account id). */
export const USER_ID_SYSTEM = 'urn:rescuelog:user-id';
/**
 * Observation value system of the triage colour on the South African Triage Scale: no LOINC
 * or SNOMED CT code names the SATS colours (decision 008), so the colour is a local code.
 */
export const SATS_TRIAGE_SYSTEM = 'urn:rescuelog:sats-triage';
