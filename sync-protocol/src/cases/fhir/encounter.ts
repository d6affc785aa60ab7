// The Encounter: the case number, its status, the period the patient was in the crew's care,
// where it happened and where the patient went.
import type { Encounter, Patient, Period, Practitioner, Reference } from '@medplum/fhirtypes';
import { ACT_CODE, CASE_ID_SYSTEM } from './code-systems';
import type { FhirCase, IdFor } from './context';
import { make, ref, type Entry } from './entry';
import type { CaseLocations } from './locations';
import { dateTime, isAfterOrSame, text } from './values';

/** When the encounter started: the call, else the crew's arrival. */
export function encounterStart(c: FhirCase): string | undefined {
  return dateTime(c.callReceivedTime) ?? dateTime(c.responderArrivalTime);
}

function encounterPeriod(c: FhirCase): Period | undefined {
  const start = encounterStart(c);
  const refused = c.patientRefusedTransport === true;
  const endCandidate =
    dateTime(c.hospitalArrivalTime) ?? (refused ? dateTime(c.departureTime) : undefined);
  // A period ending before it starts is invalid FHIR (per-1); such times are a typing slip,
  // so the end is left out rather than the export refused.
  const end =
    endCandidate && (!start || isAfterOrSame(endCandidate, start)) ? endCandidate : undefined;
  return start || end ? { ...(start ? { start } : {}), ...(end ? { end } : {}) } : undefined;
}

export function buildEncounter(
  c: FhirCase,
  idFor: IdFor,
  refs: {
    patientRef: Reference<Patient>;
    performerRef: Reference<Practitioner> | undefined;
    locations: CaseLocations;
  },
): Entry<Encounter> {
  const { scene, ambulance, hospital } = refs.locations;
  const refused = c.patientRefusedTransport === true;
  const period = encounterPeriod(c);
  const incidentType = text(c.incidentType);
  const priority = text(c.transportPriority);
  return make<Encounter>(idFor('encounter'), {
    resourceType: 'Encounter',
    identifier: [{ system: CASE_ID_SYSTEM, value: c.caseId }],
    status: c.status === 'completed' ? 'finished' : 'in-progress',
    class: { system: ACT_CODE, code: 'EMER', display: 'emergency' },
    ...(priority ? { priority: { text: priority } } : {}),
    subject: refs.patientRef,
    ...(refs.performerRef ? { participant: [{ individual: refs.performerRef }] } : {}),
    ...(period ? { period } : {}),
    ...(incidentType ? { reasonCode: [{ text: incidentType }] } : {}),
    ...(hospital || refused
      ? {
          hospitalization: {
            ...(hospital ? { destination: ref(hospital, hospital.resource.name) } : {}),
            ...(refused ? { dischargeDisposition: { text: 'Patient refused transport' } } : {}),
          },
        }
      : {}),
    ...(scene || ambulance
      ? {
          location: [
            ...(scene ? [{ location: ref(scene, scene.resource.name) }] : []),
            ...(ambulance ? [{ location: ref(ambulance, ambulance.resource.name) }] : []),
          ],
        }
      : {}),
  });
}
