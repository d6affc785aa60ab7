// The measured observations: the approximate age, every timed reading, and what the primary
// survey measured on the case itself (respiratory rate, capillary refill, pain score).
import type { Observation, ObservationComponent } from '@medplum/fhirtypes';
import type { VitalSignStatus, VitalSignType } from '../../clinical';
import { UCUM } from '../code-systems';
import { AGE_LOINC, BP_DIASTOLIC_LOINC, BP_SYSTOLIC_LOINC, INTERPRETATIONS } from '../codes';
import type { CaseContext, ObservationCommon } from '../context';
import { make, type Entry } from '../entry';
import type { FhirVitalSignInput } from '../input';
import { UUID_RE } from '../uuid';
import { dateTime, parseDecimal, text } from '../values';
import { category, loinc, quantity } from './shared';
import { VITAL_SIGN_FHIR_CODES } from './vital-sign-codes';

interface ObservationContext {
  numericValue: number | null;
  status?: VitalSignStatus | null;
  effective: string | undefined;
  note?: string | undefined;
  common: ObservationCommon;
}

function vitalObservation(
  uuid: string,
  type: VitalSignType,
  value: string,
  ctx: ObservationContext,
): Entry<Observation> {
  const code = VITAL_SIGN_FHIR_CODES[type];
  const interpretation = ctx.status ? [{ coding: [INTERPRETATIONS[ctx.status]] }] : undefined;
  const base = {
    resourceType: 'Observation' as const,
    status: 'final' as const,
    category: category(code.category),
    code: loinc(code.loinc, code.display, undefined, code.alsoCoded),
    ...ctx.common,
    ...(ctx.effective ? { effectiveDateTime: ctx.effective } : {}),
    ...(interpretation ? { interpretation } : {}),
    ...(ctx.note ? { note: [{ text: ctx.note }] } : {}),
  };
  // The core vital-signs profiles need a time and a coded value; claim one only when both hold.
  const profiled = (ok: boolean) =>
    ok && code.profile && ctx.effective ? { meta: { profile: [code.profile] } } : {};

  if (type === 'bloodPressure') {
    const match = /^\s*(\d{1,3}(?:\.\d+)?)\s*\/\s*(\d{1,3}(?:\.\d+)?)\s*$/.exec(value);
    if (match) {
      const component = (loincCode: string, display: string, v: number): ObservationComponent => ({
        code: loinc(loincCode, display),
        valueQuantity: quantity(v, code),
      });
      return make<Observation>(uuid, {
        ...profiled(true),
        ...base,
        component: [
          component(BP_SYSTOLIC_LOINC, 'Systolic blood pressure', Number(match[1])),
          component(BP_DIASTOLIC_LOINC, 'Diastolic blood pressure', Number(match[2])),
        ],
      });
    }
    return make<Observation>(uuid, { ...base, valueString: value });
  }

  const numeric = ctx.numericValue ?? parseDecimal(value);
  if (numeric === undefined || !Number.isFinite(numeric)) {
    // Charted as text (e.g. "HI" from a glucometer): kept as written.
    return make<Observation>(uuid, { ...base, valueString: value });
  }
  return make<Observation>(uuid, {
    ...profiled(true),
    ...base,
    valueQuantity: quantity(numeric, code),
  });
}

/** The approximate age, as the responder estimated it. */
export function ageObservation({ c, idFor, common, start }: CaseContext): Entry<Observation>[] {
  if (typeof c.approximateAge !== 'number') return [];
  return [
    make<Observation>(idFor('age'), {
      resourceType: 'Observation',
      status: 'final',
      code: loinc(AGE_LOINC, 'Age', 'Approximate age'),
      method: { text: 'Estimated by the responder' },
      ...common,
      ...(start ? { effectiveDateTime: start } : {}),
      valueQuantity: { value: c.approximateAge, unit: 'years', system: UCUM, code: 'a' },
    }),
  ];
}

/** The case's timed readings; voided ones are left out (decision 008). */
export function readingObservations(
  { idFor, common }: CaseContext,
  vitals: readonly FhirVitalSignInput[],
): Entry<Observation>[] {
  return vitals
    .filter((vital) => !vital.voidedAt)
    .map((vital) => {
      const uuid = vital.id.toLowerCase();
      return vitalObservation(
        UUID_RE.test(uuid) ? uuid : idFor(`vital:${vital.id}`),
        vital.type,
        vital.value,
        {
          numericValue: vital.numericValue ?? null,
          status: vital.status ?? null,
          effective: dateTime(vital.timestamp),
          note: text(vital.notes),
          common,
        },
      );
    });
}

/** What the primary survey charted on the case itself (as distinct from timed readings). */
export function primarySurveyMeasurements({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
  const measured = [
    ['respiratoryRate', c.respiratoryRate],
    ['capillaryRefill', c.capillaryRefillTime],
    ['painScore', c.painScore],
  ] as const;
  return measured.flatMap(([type, value]) =>
    typeof value === 'number'
      ? [
          vitalObservation(idFor(`primary:${type}`), type, String(value), {
            numericValue: value,
            effective: initialAssessment,
            note: 'Primary survey',
            common,
          }),
        ]
      : [],
  );
}
