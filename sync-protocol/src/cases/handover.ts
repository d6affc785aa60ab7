// The one-page handover summary of a case in ISBAR order (Identify, Situation, Background,
// Assessment, Recommendation; domain.md "Data exchange"), built from what the device (or
// server) holds, at any point of the case and offline. The printed page and the PDF render
// this structure; it holds only display text. Empty answers are left out, long free text is
// shortened so the page stays one page, voided vital sign readings are left out and the
// flags are recomputed for the patient's current approximate age (a reading taken before
// the age was entered was flagged against adult ranges).
import {
  INTERVENTIONS,
  VITAL_SIGNS,
  VITAL_SIGN_TYPES,
  type VitalSignStatus,
  type VitalSignType,
} from './clinical';
import { BODY_REGIONS } from './clinical';
import { type CaseField, type CaseRecord } from './case-schema';
import { type VitalSignRecord } from './vital-sign';
import {
  BODY_REGION_LABELS,
  CASE_FIELD_LABELS,
  EMPTY_VALUE,
  INTERVENTION_LABELS,
  formatCaseValue,
  isEmptyCaseValue,
} from './fields';
import { formatDateTime, formatTime } from '../time';
import { formatGcs, gcsPartsOf } from './gcs';
import { classifyVital } from './vital-ranges';
import { BE_FAST_SIGNS } from './completion';

export type HandoverSectionKey =
  'identify' | 'situation' | 'background' | 'assessment' | 'recommendation';

export interface HandoverLine {
  label: string;
  value: string;
}

export interface HandoverSection {
  key: HandoverSectionKey;
  title: string;
  lines: HandoverLine[];
}

export interface Handover {
  /** The service's name from the system settings, printed above the title (null: none set). */
  organisation: string | null;
  title: string;
  caseId: string;
  /** 'dd/mm/yyyy, HH:mm' (service time zone). */
  generatedAt: string;
  sections: HandoverSection[];
}

export type VitalLike2 = Pick<VitalSignRecord, 'value' | 'timestamp'> & {
  type: VitalSignType | string;
  status?: VitalSignStatus | null;
  voidedAt?: string | null;
  deletedAt?: string | null;
};

export interface AddendumLike {
  createdAt: string;
  reason: string;
  changes: readonly { field: string; before?: unknown; after?: unknown }[];
  /** Who wrote it, when the caller knows the name. */
  authorName?: string | null;
  deletedAt?: string | null;
}

export interface HandoverInput {
  case: Partial<CaseRecord>;
  vitals: readonly VitalLike2[];
  addenda: readonly AddendumLike[];
  generatedAt: Date;
  /** The organisation name of the system settings (§ System Settings: name on reports). */
  organisation?: string | null;
}

export const HANDOVER_SECTION_TITLES: Record<HandoverSectionKey, string> = {
  identify: 'Identify',
  situation: 'Situation',
  background: 'Background',
  assessment: 'Assessment',
  recommendation: 'Recommendation',
};

/** Free text longer than this is cut with '…' (the record itself keeps all of it). */
export const HANDOVER_TEXT_LIMIT = 280;
/** At most this many addenda are listed; the rest are counted. */
export const HANDOVER_ADDENDA_LIMIT = 3;

function clip(text: string, limit = HANDOVER_TEXT_LIMIT): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > limit ? `${t.slice(0, limit - 1).trimEnd()}…` : t;
}

function text(value: string | null | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? clip(value) : null;
}

const joinPresent = (parts: readonly (string | null | undefined | false)[], sep = ', ') =>
  parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(sep);

class Lines {
  readonly lines: HandoverLine[] = [];
  /** Adds a line unless its value is empty. */
  add(label: string, value: string | null | undefined): void {
    if (value === null || value === undefined) return;
    const v = value.trim();
    if (v === '' || v === EMPTY_VALUE) return;
    this.lines.push({ label, value: v });
  }
  /** A case field with its own label and display text. */
  field(c: Partial<CaseRecord>, field: CaseField, label = CASE_FIELD_LABELS[field]): void {
    const value = c[field];
    if (isEmptyCaseValue(value)) return;
    const shown = formatCaseValue(field, value);
    this.add(label, typeof value === 'string' ? clip(shown) : shown);
  }
}

function formatVitalReading(type: string, value: string, flag: VitalSignStatus | null): string {
  const info = (VITAL_SIGNS as Partial<Record<string, (typeof VITAL_SIGNS)[VitalSignType]>>)[type];
  const unit = info?.unit ?? '';
  const tight = unit === '' || unit === '%' || unit.startsWith('/');
  const reading = `${value}${tight ? '' : ' '}${unit}`;
  return flag === 'high' ? `${reading} HIGH` : flag === 'low' ? `${reading} LOW` : reading;
}

function vitalLines(c: Partial<CaseRecord>, vitals: readonly VitalLike2[], out: Lines): void {
  const age = c.approximateAge ?? null;
  const live = vitals
    .filter((v) => !v.voidedAt && !v.deletedAt)
    .filter((v) => Number.isFinite(Date.parse(v.timestamp)))
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const known = new Set<string>(VITAL_SIGN_TYPES);
  const types = [
    ...VITAL_SIGN_TYPES,
    ...new Set(live.map((v) => v.type).filter((t) => !known.has(t))),
  ];
  for (const type of types) {
    const rows = live.filter((v) => v.type === type);
    const first = rows[0];
    const latest = rows[rows.length - 1];
    if (!first || !latest) continue;
    const show = (v: VitalLike2) => {
      const flag = known.has(v.type)
        ? (classifyVital(v.type as VitalSignType, v.value, age) ?? v.status ?? null)
        : (v.status ?? null);
      return `${formatVitalReading(v.type, clip(v.value, 50), flag)} at ${formatTime(v.timestamp, '?')}`;
    };
    const label = known.has(type) ? VITAL_SIGNS[type as VitalSignType].label : type;
    out.add(
      label,
      rows.length === 1
        ? show(latest)
        : `${show(latest)} (first ${show(first)}; ${rows.length} readings)`,
    );
  }
}

function identify(c: Partial<CaseRecord>): HandoverSection {
  const l = new Lines();
  l.add('Patient', text(c.patientName) ?? 'Name unknown');
  l.field(c, 'approximateAge', 'Age');
  l.field(c, 'patientGender');
  l.add('Case number', c.caseId);
  l.add(
    'Responder',
    joinPresent([
      text(c.responderName),
      text(c.responderCallSign) && `call sign ${text(c.responderCallSign)}`,
    ]),
  );
  if (c.hasMedicalAid === true)
    l.add('Medical aid', text(c.medicalAidProvider) ?? 'Yes, provider not recorded');
  else if (c.hasMedicalAid === false) l.add('Medical aid', 'None');
  return { key: 'identify', title: HANDOVER_SECTION_TITLES.identify, lines: l.lines };
}

function situation(c: Partial<CaseRecord>): HandoverSection {
  const l = new Lines();
  l.field(c, 'incidentType');
  l.field(c, 'incidentDescription');
  const coordinates =
    typeof c.incidentLatitude === 'number' && typeof c.incidentLongitude === 'number'
      ? `GPS ${c.incidentLatitude.toFixed(5)}, ${c.incidentLongitude.toFixed(5)}`
      : null;
  l.add('Location', joinPresent([text(c.incidentLocation), coordinates], ' · '));
  l.field(c, 'callReceivedTime', 'Call received');
  l.field(c, 'responderArrivalTime', 'Responder arrived');
  l.field(c, 'arrivalTime', 'Ambulance arrived');
  l.field(c, 'symptoms', 'Chief complaint / symptoms');
  l.field(c, 'subjectiveSymptoms', 'Patient reports');
  l.field(c, 'triageStatus', 'Triage');
  if (c.isMultiPatientIncident === true) {
    l.add(
      'Multi-patient incident',
      joinPresent([
        text(c.multiPatientIncidentType),
        typeof c.totalPatients === 'number' ? `${c.totalPatients} patients` : null,
      ]) || 'Yes',
    );
  }
  return { key: 'situation', title: HANDOVER_SECTION_TITLES.situation, lines: l.lines };
}

function background(c: Partial<CaseRecord>): HandoverSection {
  const l = new Lines();
  l.field(c, 'allergies');
  l.field(c, 'medications', 'Medications');
  l.field(c, 'pastHistory', 'Past history');
  l.add('Last oral intake', joinPresent([text(c.lastMealTime), text(c.lastMealContent)], ' — '));
  l.field(c, 'eventsLeadingUp');
  return { key: 'background', title: HANDOVER_SECTION_TITLES.background, lines: l.lines };
}

function assessment(c: Partial<CaseRecord>, vitals: readonly VitalLike2[]): HandoverSection {
  const l = new Lines();
  l.field(c, 'avpu', 'AVPU');
  l.add('GCS', formatGcs(gcsPartsOf(c)));
  l.field(c, 'airwayStatus');
  l.add(
    'Breathing',
    joinPresent([
      text(c.breathingStatus),
      typeof c.respiratoryRate === 'number' ? `RR ${c.respiratoryRate}/min` : null,
    ]),
  );
  l.add(
    'Circulation',
    joinPresent([
      text(c.circulationStatus),
      typeof c.capillaryRefillTime === 'number'
        ? `cap refill ${formatCaseValue('capillaryRefillTime', c.capillaryRefillTime)}`
        : null,
    ]),
  );
  if (c.hemorrhagingActive === true) {
    const where = isEmptyCaseValue(c.hemorrhagingLocationOther)
      ? text(c.hemorrhagingLocation)
      : joinPresent([text(c.hemorrhagingLocation), text(c.hemorrhagingLocationOther)], ': ');
    const tourniquet = formatTime(c.tourniquetApplicationTime, '');
    l.add(
      'Catastrophic bleeding',
      joinPresent([
        joinPresent([text(c.hemorrhagingSeverity), text(c.hemorrhagingType)], ' '),
        where,
        text(c.hemorrhagingControlStatus),
        (c.hemorrhagingInterventions ?? []).length > 0
          ? joinPresent([
              ...(c.hemorrhagingInterventions ?? []),
              text(c.hemorrhagingInterventionOther),
            ])
          : null,
        tourniquet && `tourniquet on at ${tourniquet}`,
      ]) || 'Yes',
    );
  }
  l.field(c, 'pupilResponsesiveness', 'Pupils');
  vitalLines(c, vitals, l);
  l.add(
    'Pain',
    joinPresent(
      [
        typeof c.painScore === 'number' ? `${c.painScore}/10` : null,
        ...(['onset', 'provocation', 'quality', 'region', 'severity', 'timing'] as const).map(
          (f) => text(c[f]) && `${CASE_FIELD_LABELS[f]}: ${text(c[f])}`,
        ),
      ],
      '; ',
    ),
  );
  const positive = BE_FAST_SIGNS.filter((f) => c[f] === true);
  if (positive.length > 0) {
    const noted = formatDateTime(c.fastTimeNoted, '');
    l.add(
      'BE-FAST',
      `${positive.map((f) => CASE_FIELD_LABELS[f].toLowerCase()).join(', ')}${noted ? `; noted ${noted}` : ''}`,
    );
  } else if (BE_FAST_SIGNS.some((f) => c[f] === false)) {
    l.add('BE-FAST', 'No signs');
  }
  for (const region of BODY_REGIONS) {
    if (c[`${region}Abnormal`] === true) {
      l.add(BODY_REGION_LABELS[region], text(c[`${region}Notes`]) ?? 'Abnormal');
    }
  }
  l.field(c, 'objectiveSymptoms');
  l.field(c, 'additionalFindings');
  const neuroTime = formatTime(c.neuroReassessmentTime, '');
  l.add(
    neuroTime ? `Neuro reassessment ${neuroTime}` : 'Neuro reassessment',
    joinPresent(
      [
        c.neuroAvpu ? `AVPU ${c.neuroAvpu}` : null,
        typeof c.neuroGcsTotal === 'number' ? `GCS ${c.neuroGcsTotal}` : null,
        text(c.neuroPupils) && `pupils ${text(c.neuroPupils)}`,
        text(c.neuroMotorFunction) && `motor ${text(c.neuroMotorFunction)}`,
        text(c.neuroSensoryFunction) && `sensory ${text(c.neuroSensoryFunction)}`,
        text(c.neuroNotes),
      ],
      '; ',
    ),
  );
  return { key: 'assessment', title: HANDOVER_SECTION_TITLES.assessment, lines: l.lines };
}

function addendaSummary(addenda: readonly AddendumLike[]): HandoverLine[] {
  const live = addenda
    .filter((a) => !a.deletedAt)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const lines = live.slice(0, HANDOVER_ADDENDA_LIMIT).map((a) => {
    const fields = a.changes.map((ch) =>
      ch.field in CASE_FIELD_LABELS ? CASE_FIELD_LABELS[ch.field as CaseField] : ch.field,
    );
    const when = formatDateTime(a.createdAt, '');
    return {
      label: joinPresent(['Addendum', when, text(a.authorName) && `by ${text(a.authorName)}`], ' '),
      value: joinPresent(
        [clip(a.reason, 160), fields.length > 0 && `changed ${fields.join(', ')}`],
        ' — ',
      ),
    };
  });
  const more = live.length - lines.length;
  if (more > 0) lines.push({ label: 'More addenda', value: `${more} more on the full record` });
  return lines;
}

function recommendation(c: Partial<CaseRecord>, addenda: readonly AddendumLike[]): HandoverSection {
  const l = new Lines();
  l.add(
    'Interventions',
    INTERVENTIONS.filter((i) => c[i] === true)
      .map((i) => INTERVENTION_LABELS[i])
      .join(', '),
  );
  l.field(c, 'medicationsGiven');
  l.field(c, 'proceduresPerformed');
  l.field(c, 'treatmentProvided', 'Other treatment');
  if (c.patientRefusedTransport === true) {
    l.add('Transport', 'Patient refused transport');
  } else {
    l.field(c, 'transportPriority');
    l.field(c, 'receivingHospital');
  }
  l.field(c, 'ambulanceId');
  l.field(c, 'departureTime', 'Departed scene');
  l.field(c, 'hospitalArrivalTime', 'Arrived at hospital');
  l.field(c, 'additionalNotes', 'Notes');
  for (const line of addendaSummary(addenda)) l.add(line.label, line.value);
  return { key: 'recommendation', title: HANDOVER_SECTION_TITLES.recommendation, lines: l.lines };
}

export function buildHandover(input: HandoverInput): Handover {
  const c = input.case;
  const caseId = c.caseId ?? '';
  const organisation = input.organisation?.trim();
  return {
    organisation: organisation ? organisation : null,
    title: caseId ? `Patient handover — ${caseId}` : 'Patient handover',
    caseId,
    generatedAt: formatDateTime(input.generatedAt, ''),
    sections: [
      identify(c),
      situation(c),
      background(c),
      assessment(c, input.vitals),
      recommendation(c, input.addenda),
    ],
  };
}
