// Locations: the incident scene (with GPS), the ambulance and the receiving hospital.
import type { Location } from '@medplum/fhirtypes';
import { LOCATION_PHYSICAL_TYPE } from './code-systems';
import type { FhirCase, IdFor } from './context';
import { make, type Entry } from './entry';
import { text } from './values';

export interface CaseLocations {
  scene?: Entry<Location> | undefined;
  ambulance?: Entry<Location> | undefined;
  hospital?: Entry<Location> | undefined;
}

export function buildLocations(c: FhirCase, idFor: IdFor): CaseLocations {
  const sceneText = text(c.incidentLocation);
  const hasPosition =
    typeof c.incidentLatitude === 'number' && typeof c.incidentLongitude === 'number';
  const scene =
    sceneText || hasPosition
      ? make<Location>(idFor('scene'), {
          resourceType: 'Location',
          name: sceneText ?? 'Incident scene',
          description: 'Incident scene',
          mode: 'instance',
          ...(hasPosition
            ? {
                position: {
                  latitude: c.incidentLatitude as number,
                  longitude: c.incidentLongitude as number,
                },
              }
            : {}),
        })
      : undefined;
  const ambulanceId = text(c.ambulanceId);
  const ambulance = ambulanceId
    ? make<Location>(idFor('ambulance'), {
        resourceType: 'Location',
        name: ambulanceId,
        description: 'Ambulance',
        mode: 'instance',
        physicalType: {
          coding: [{ system: LOCATION_PHYSICAL_TYPE, code: 've', display: 'Vehicle' }],
        },
      })
    : undefined;
  const hospitalName = text(c.receivingHospital);
  const hospital = hospitalName
    ? make<Location>(idFor('hospital'), {
        resourceType: 'Location',
        name: hospitalName,
        description: 'Receiving hospital',
      })
    : undefined;
  return { scene, ambulance, hospital };
}
