// The medical aid as a Coverage.
import type { Coverage } from '@medplum/fhirtypes';
import { ACT_CODE, DATA_ABSENT_REASON_EXTENSION } from './code-systems';
import type { CaseContext } from './context';
import { make, type Entry } from './entry';
import { text } from './values';

export function buildCoverage({ c, idFor, patientRef }: CaseContext): Entry<Coverage>[] {
  const medicalAid = text(c.medicalAidProvider);
  if (!(c.hasMedicalAid === true || (c.hasMedicalAid !== false && medicalAid))) return [];
  return [
    make<Coverage>(idFor('medical-aid'), {
      resourceType: 'Coverage',
      status: 'active',
      type: {
        coding: [{ system: ACT_CODE, code: 'HIP', display: 'health insurance plan policy' }],
        text: 'Medical aid',
      },
      beneficiary: patientRef,
      // One free-text field holds the scheme (and the member number if the crew had it):
      // kept whole as the payor's name rather than split by guesswork.
      payor: [
        medicalAid
          ? { display: medicalAid }
          : { extension: [{ url: DATA_ABSENT_REASON_EXTENSION, valueCode: 'unknown' }] },
      ],
    }),
  ];
}
