// A resource with the urn:uuid it has in the Bundle, and references to it.
import type { Reference, Resource } from '@medplum/fhirtypes';

export interface Entry<T extends Resource> {
  uuid: string;
  resource: T;
}

export function ref<T extends Resource>(entry: Entry<T>, display?: string): Reference<T> {
  return {
    reference: `urn:uuid:${entry.uuid}`,
    type: entry.resource.resourceType as Reference['type'],
    ...(display ? { display } : {}),
  };
}

export function make<T extends Resource>(uuid: string, resource: T): Entry<T> {
  return { uuid, resource: { ...resource, id: uuid } };
}
