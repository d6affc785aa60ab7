// Procedures: the intervention checklist, the bleeding-control measures (each naming the
// bleeding as its reason) and what the crew wrote about procedures and treatment.
import type { Observation, Procedure, Reference } from '@medplum/fhirtypes';
import { INTERVENTIONS, type Intervention } from '../clinical';
import type { CaseField } from '../case-schema';
import { tourniquetApplied } from '../completion';
import { CASE_FIELD_LABELS, INTERVENTION_LABELS } from '../fields';
import { INTERVENTION_SNOMED } from './codes';
import type { CaseContext, FhirCase } from './context';
import { make, ref, type Entry } from './entry';
import { bleedingControlItems } from './observations/bleeding';
import { dateTime, text } from './values';

type ProcedureCommon = Pick<Procedure, 'subject' | 'encounter' | 'performer'>;
type BleedingReason = { reasonReference?: Reference<Observation>[] };

/**
 * The bleeding-control list: a tourniquet, or an item the checklist also has, is that
 * checklist procedure (one Procedure, not two); the rest are procedures of their own.
 */
function sortBleedingControl(c: FhirCase): { forBleeding: Set<Intervention>; other: string[] } {
  const forBleeding = new Set<Intervention>();
  const other: string[] = [];
  for (const item of bleedingControlItems(c)) {
    const same = INTERVENTIONS.find(
      (i) => INTERVENTION_LABELS[i].toLowerCase() === item.toLowerCase(),
    );
    if (/tourniquet/i.test(item)) forBleeding.add('tourniquetApplication');
    else if (same) forBleeding.add(same);
    else if (item.toLowerCase() === 'other')
      other.push(text(c.hemorrhagingInterventionOther) ?? 'Other bleeding control');
    else other.push(item);
  }
  return { forBleeding, other };
}

function checklistProcedures(
  { c, idFor }: CaseContext,
  procedureCommon: ProcedureCommon,
  forBleeding: Set<Intervention>,
  bleedingReason: BleedingReason,
): Entry<Procedure>[] {
  return INTERVENTIONS.flatMap((intervention) => {
    const done =
      intervention === 'tourniquetApplication' ? tourniquetApplied(c) : c[intervention] === true;
    if (!done && !forBleeding.has(intervention)) return [];
    const snomed = INTERVENTION_SNOMED[intervention];
    const performed =
      intervention === 'tourniquetApplication' ? dateTime(c.tourniquetApplicationTime) : undefined;
    return [
      make<Procedure>(idFor(`procedure:${intervention}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { ...(snomed ? { coding: [snomed] } : {}), text: CASE_FIELD_LABELS[intervention] },
        ...procedureCommon,
        ...(performed ? { performedDateTime: performed } : {}),
        ...(forBleeding.has(intervention) ? bleedingReason : {}),
      }),
    ];
  });
}

/** The crew's free text about procedures and treatment, kept word for word. */
function writtenProcedures(
  { c, idFor }: CaseContext,
  procedureCommon: ProcedureCommon,
): Entry<Procedure>[] {
  return (
    ['proceduresPerformed', 'treatmentProvided'] as const satisfies readonly CaseField[]
  ).flatMap((field) => {
    const written = text(c[field]);
    if (!written) return [];
    return [
      make<Procedure>(idFor(`procedure:${field}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: CASE_FIELD_LABELS[field] },
        ...procedureCommon,
        note: [{ text: written }],
      }),
    ];
  });
}

export function buildProcedures(
  ctx: CaseContext,
  bleeding: Entry<Observation> | undefined,
): Entry<Procedure>[] {
  const procedureCommon: ProcedureCommon = {
    subject: ctx.patientRef,
    encounter: ctx.encounterRef,
    ...(ctx.performerRef ? { performer: [{ actor: ctx.performerRef }] } : {}),
  };
  const { forBleeding, other } = sortBleedingControl(ctx.c);
  const bleedingReason: BleedingReason = bleeding
    ? { reasonReference: [ref(bleeding, 'Catastrophic bleeding')] }
    : {};
  // One procedure per item however it is spelt ("Elevation" chosen, "elevation" typed under
  // Other): the id is made from the lower-cased text, and a bundle's entries must differ.
  const otherBleedingItems = new Map<string, string>();
  for (const item of other) {
    if (!otherBleedingItems.has(item.toLowerCase()))
      otherBleedingItems.set(item.toLowerCase(), item);
  }
  return [
    ...checklistProcedures(ctx, procedureCommon, forBleeding, bleedingReason),
    ...[...otherBleedingItems].map(([key, item]) =>
      make<Procedure>(ctx.idFor(`procedure:bleeding:${key}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: item },
        ...procedureCommon,
        ...bleedingReason,
      }),
    ),
    ...writtenProcedures(ctx, procedureCommon),
  ];
}
