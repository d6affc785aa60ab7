// The responder as a Practitioner: the case's responder fields, else the signed-in member.
import type { Practitioner, Reference } from '@medplum/fhirtypes';
import { CALL_SIGN_SYSTEM } from './code-systems';
import type { IdFor } from './context';
import { make, ref, type Entry } from './entry';
import type { FhirExportInput } from './input';
import { text } from './values';

export function buildResponder(
  input: FhirExportInput,
  idFor: IdFor,
): { practitioner?: Entry<Practitioner>; performerRef?: Reference<Practitioner> } {
  const c = input.case;
  const responderName = text(c.responderName) ?? text(input.responder?.name);
  const callSign = text(c.responderCallSign) ?? text(input.responder?.callSign);
  if (!responderName && !callSign) return {};
  const practitioner = make<Practitioner>(idFor('responder'), {
    resourceType: 'Practitioner',
    ...(callSign ? { identifier: [{ system: CALL_SIGN_SYSTEM, value: callSign }] } : {}),
    ...(responderName ? { name: [{ text: responderName }] } : {}),
  });
  return { practitioner, performerRef: ref(practitioner, responderName ?? callSign) };
}
