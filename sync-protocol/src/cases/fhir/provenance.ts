// Addenda as Provenance entries: who corrected what, when and why (decision 011).
import type { Provenance } from '@medplum/fhirtypes';
import type { CaseField } from '../case-schema';
import { addendumAuthorLabel } from '../addendum-author';
import { CASE_FIELD_LABELS } from '../fields';
import { DATA_OPERATION, USER_ID_SYSTEM } from './code-systems';
import type { CaseContext } from './context';
import { make, type Entry } from './entry';
import type { FhirAddendumInput } from './input';
import { dateTime } from './values';

export function buildProvenances(
  { idFor, generatedAt, encounterRef }: CaseContext,
  addenda: readonly FhirAddendumInput[],
): Entry<Provenance>[] {
  return addenda.map((addendum) => {
    const labels = addendum.changes.map(({ field }) =>
      field in CASE_FIELD_LABELS ? CASE_FIELD_LABELS[field as CaseField] : field,
    );
    const author = addendumAuthorLabel(addendum);
    return make<Provenance>(idFor(`addendum:${addendum.id.toLowerCase()}`), {
      resourceType: 'Provenance',
      target: [encounterRef],
      recorded: dateTime(addendum.createdAt) ?? generatedAt,
      reason: [{ text: addendum.reason }],
      activity: {
        coding: [{ system: DATA_OPERATION, code: 'UPDATE', display: 'revise' }],
        text: labels.length > 0 ? `Addendum: ${labels.join(', ')}` : 'Addendum',
      },
      agent: [
        {
          who: {
            ...(typeof addendum.userId === 'number'
              ? { identifier: { system: USER_ID_SYSTEM, value: String(addendum.userId) } }
              : {}),
            display: author ?? 'Addendum author',
          },
        },
      ],
    });
  });
}
