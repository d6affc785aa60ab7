// Mass-casualty triage as pure functions (docs/domain.md "Mass-casualty incidents"): the
// START (adults) and JumpSTART (children) decision steps, the colours each triage scale
// offers, a casualty's current colour and open disagreement from its triage rows, the
// counts of the command board, the next tag number and the METHANE report as text. The
// screens, the PDF and the tests all read these; nothing here touches a store.
import type { TriageColour } from '../cases/clinical';

// ---------------------------------------------------------------------------------------
// Scales: which colours a responder is offered (decision 070)
// ---------------------------------------------------------------------------------------

export const TRIAGE_SCALES = ['START', 'SATS'] as const;
export type TriageScale = (typeof TRIAGE_SCALES)[number];

/**
 * START/JumpSTART sorts into RED, YELLOW, GREEN and BLACK; SALT's GREY (expectant) is offered
 * beside them as a choice only the responder makes (no algorithm proposes it). The South
 * African Triage Scale incident offers its own five colours instead.
 */
export const SCALE_COLOURS: Record<TriageScale, readonly TriageColour[]> = {
  START: ['RED', 'YELLOW', 'GREEN', 'GREY', 'BLACK'],
  SATS: ['RED', 'ORANGE', 'YELLOW', 'GREEN', 'BLUE'],
};

export const TRIAGE_SCALE_LABELS: Record<TriageScale, string> = {
  START: 'START / JumpSTART (SALT grey)',
  SATS: 'South African Triage Scale',
};

/** Words per colour as the board and the radio say them, by scale. */
export function colourLabel(colour: TriageColour, scale: TriageScale = 'START'): string {
  if (scale === 'SATS') return SATS_LABELS[colour] ?? colour;
  return START_LABELS[colour] ?? colour;
}

const START_LABELS: Partial<Record<TriageColour, string>> = {
  RED: 'Immediate',
  YELLOW: 'Delayed',
  GREEN: 'Minor',
  GREY: 'Expectant',
  BLACK: 'Dead',
  ORANGE: 'Very urgent',
  BLUE: 'Dead',
};
const SATS_LABELS: Partial<Record<TriageColour, string>> = {
  RED: 'Emergency',
  ORANGE: 'Very urgent',
  YELLOW: 'Urgent',
  GREEN: 'Routine',
  BLUE: 'Dead',
  GREY: 'Expectant',
  BLACK: 'Dead',
};

/** Priority order for sorting the board: most urgent first, the dead last. */
export const COLOUR_PRIORITY: Record<TriageColour, number> = {
  RED: 0,
  ORANGE: 1,
  YELLOW: 2,
  GREEN: 3,
  GREY: 4,
  BLUE: 5,
  BLACK: 6,
};

// ---------------------------------------------------------------------------------------
// START and JumpSTART, one question at a time
// ---------------------------------------------------------------------------------------

export const TRIAGE_METHODS = ['tag', 'START', 'JumpSTART'] as const;
export type TriageMethod = (typeof TRIAGE_METHODS)[number];

export interface TriageOption {
  value: string;
  label: string;
}
export interface TriageQuestion {
  id: string;
  text: string;
  options: readonly TriageOption[];
}
/** The answers given so far: question id → option value. */
export type TriageAnswers = Readonly<Record<string, string>>;

export type TriageStep =
  | { kind: 'question'; question: TriageQuestion }
  | { kind: 'result'; colour: TriageColour; reason: string };

const YES_NO: readonly TriageOption[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const Q = {
  walking: { id: 'walking', text: 'Can the casualty walk?', options: YES_NO },
  breathing: { id: 'breathing', text: 'Breathing?', options: YES_NO },
  breathingAfterAirway: {
    id: 'breathingAfterAirway',
    text: 'Open the airway. Breathing now?',
    options: YES_NO,
  },
  rrOver30: {
    id: 'rrOver30',
    text: 'Respiratory rate over 30 per minute?',
    options: YES_NO,
  },
  perfusionPoor: {
    id: 'perfusionPoor',
    text: 'No radial pulse, or capillary refill over 2 seconds?',
    options: YES_NO,
  },
  followsCommands: {
    id: 'followsCommands',
    text: 'Follows simple commands?',
    options: YES_NO,
  },
  pulse: { id: 'pulse', text: 'Palpable pulse?', options: YES_NO },
  breathingAfterRescueBreaths: {
    id: 'breathingAfterRescueBreaths',
    text: 'Give 5 rescue breaths. Breathing now?',
    options: YES_NO,
  },
  rrBand: {
    id: 'rrBand',
    text: 'Respiratory rate per minute?',
    options: [
      { value: 'under15', label: 'Under 15' },
      { value: '15to45', label: '15 to 45' },
      { value: 'over45', label: 'Over 45' },
    ],
  },
  peripheralPulse: { id: 'peripheralPulse', text: 'Palpable peripheral pulse?', options: YES_NO },
  avpu: {
    id: 'avpu',
    text: 'AVPU?',
    options: [
      { value: 'A', label: 'Alert' },
      { value: 'V', label: 'Voice' },
      { value: 'P-appropriate', label: 'Pain, appropriate' },
      { value: 'P-inappropriate', label: 'Pain, inappropriate' },
      { value: 'U', label: 'Unresponsive' },
    ],
  },
} as const satisfies Record<string, TriageQuestion>;

function ask(question: TriageQuestion): TriageStep {
  return { kind: 'question', question };
}
function result(colour: TriageColour, reason: string): TriageStep {
  return { kind: 'result', colour, reason };
}

/** START for adults: the next question, or the colour with the reason for it. */
export function startStep(a: TriageAnswers): TriageStep {
  if (a.walking === undefined) return ask(Q.walking);
  if (a.walking === 'yes') return result('GREEN', 'Walking');
  if (a.breathing === undefined) return ask(Q.breathing);
  if (a.breathing === 'no') {
    if (a.breathingAfterAirway === undefined) return ask(Q.breathingAfterAirway);
    if (a.breathingAfterAirway === 'no')
      return result('BLACK', 'Not breathing after airway opened');
    return result('RED', 'Breathing only after airway opened');
  }
  if (a.rrOver30 === undefined) return ask(Q.rrOver30);
  if (a.rrOver30 === 'yes') return result('RED', 'Respiratory rate over 30');
  if (a.perfusionPoor === undefined) return ask(Q.perfusionPoor);
  if (a.perfusionPoor === 'yes')
    return result('RED', 'No radial pulse or capillary refill over 2 s');
  if (a.followsCommands === undefined) return ask(Q.followsCommands);
  if (a.followsCommands === 'no') return result('RED', 'Cannot follow commands');
  return result('YELLOW', 'Not walking; breathing, perfusion and mental status adequate');
}

/** JumpSTART for children: the next question, or the colour with the reason for it. */
export function jumpStartStep(a: TriageAnswers): TriageStep {
  if (a.walking === undefined) return ask(Q.walking);
  if (a.walking === 'yes') return result('GREEN', 'Walking');
  if (a.breathing === undefined) return ask(Q.breathing);
  if (a.breathing === 'no') {
    if (a.breathingAfterAirway === undefined) return ask(Q.breathingAfterAirway);
    if (a.breathingAfterAirway === 'yes')
      return result('RED', 'Breathing only after airway opened');
    if (a.pulse === undefined) return ask(Q.pulse);
    if (a.pulse === 'no') return result('BLACK', 'Apnoeic without a pulse');
    if (a.breathingAfterRescueBreaths === undefined) return ask(Q.breathingAfterRescueBreaths);
    if (a.breathingAfterRescueBreaths === 'yes')
      return result('RED', 'Breathing after 5 rescue breaths');
    return result('BLACK', 'Apnoeic after 5 rescue breaths');
  }
  if (a.rrBand === undefined) return ask(Q.rrBand);
  if (a.rrBand !== '15to45') return result('RED', 'Respiratory rate under 15 or over 45');
  if (a.peripheralPulse === undefined) return ask(Q.peripheralPulse);
  if (a.peripheralPulse === 'no') return result('RED', 'No palpable peripheral pulse');
  if (a.avpu === undefined) return ask(Q.avpu);
  if (a.avpu === 'P-inappropriate' || a.avpu === 'U')
    return result('RED', 'AVPU: inappropriate response to pain, or unresponsive');
  return result('YELLOW', 'Not walking; breathing, pulse and AVPU adequate');
}

export function triageStep(method: 'START' | 'JumpSTART', answers: TriageAnswers): TriageStep {
  return method === 'START' ? startStep(answers) : jumpStartStep(answers);
}

// ---------------------------------------------------------------------------------------
// A casualty's colour from its triage rows (append-only; decision 071)
// ---------------------------------------------------------------------------------------

export interface TriageRow {
  id: string;
  mciCasualtyId: string;
  colour: TriageColour;
  triagedAt: string;
  /** The triage rows this one was made on top of (the heads the device saw). */
  previousTriageIds: readonly string[];
  userId?: number | undefined;
  responderName?: string | null | undefined;
  method?: string | undefined;
  proposedColour?: TriageColour | null | undefined;
}

export interface CasualtyTriageState {
  /** The colour of the newest head (time, then id): what the board counts. */
  colour: TriageColour;
  /** The rows nobody has re-triaged on top of: more than one with different colours is a
   * disagreement that the board shows until someone re-triages having seen them all. */
  heads: TriageRow[];
  conflict: boolean;
  /** Every triage, oldest first. */
  history: TriageRow[];
}

function newerFirst(a: TriageRow, b: TriageRow): number {
  if (a.triagedAt !== b.triagedAt) return a.triagedAt < b.triagedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The triage state of one casualty from its rows; `tagColour` (the colour it was tagged with)
 * stands when no triage row has arrived yet.
 */
export function triageState(
  tagColour: TriageColour,
  rows: readonly TriageRow[],
): CasualtyTriageState {
  const referenced = new Set(rows.flatMap((r) => r.previousTriageIds));
  const heads = rows.filter((r) => !referenced.has(r.id)).sort(newerFirst);
  const history = [...rows].sort((a, b) => newerFirst(b, a));
  const colour = heads[0]?.colour ?? tagColour;
  const conflict = new Set(heads.map((h) => h.colour)).size > 1;
  return { colour, heads, conflict, history };
}

/** Triage rows grouped by casualty. */
export function triageRowsByCasualty<T extends TriageRow>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.mciCasualtyId);
    if (list) list.push(row);
    else map.set(row.mciCasualtyId, [row]);
  }
  return map;
}

// ---------------------------------------------------------------------------------------
// Board counts, derived from the rows (never typed)
// ---------------------------------------------------------------------------------------

export interface BoardCasualty {
  colour: TriageColour;
  transported: boolean;
  assignedTo: string | null;
}

export interface IncidentCounts {
  total: number;
  byColour: Record<TriageColour, number>;
  onScene: number;
  transported: number;
  /** Casualties on scene nobody is assigned to (the transported are no one's to treat). */
  unassigned: number;
  conflicts: number;
}

export function incidentCounts(
  casualties: readonly (BoardCasualty & { conflict?: boolean })[],
): IncidentCounts {
  const byColour: Record<TriageColour, number> = {
    RED: 0,
    ORANGE: 0,
    YELLOW: 0,
    GREEN: 0,
    BLUE: 0,
    GREY: 0,
    BLACK: 0,
  };
  let transported = 0;
  let unassigned = 0;
  let conflicts = 0;
  for (const c of casualties) {
    byColour[c.colour] += 1;
    if (c.transported) transported += 1;
    else if (!c.assignedTo?.trim()) unassigned += 1;
    if (c.conflict) conflicts += 1;
  }
  return {
    total: casualties.length,
    byColour,
    onScene: casualties.length - transported,
    transported,
    unassigned,
    conflicts,
  };
}

/** The counts as the case's multi-patient field `triageCounts` keeps them (colours present). */
export function countsForCase(counts: IncidentCounts): Record<string, number> {
  return Object.fromEntries(Object.entries(counts.byColour).filter(([, n]) => n > 0));
}

// ---------------------------------------------------------------------------------------
// Tag numbers
// ---------------------------------------------------------------------------------------

/** Tags compare without case and surrounding spaces ("a-1" is "A-1 "). */
export function tagKey(tag: string): string {
  return tag.trim().toUpperCase();
}

/**
 * The next tag a responder is offered: their own prefix (so two responders offline never
 * suggest the same tag) and the number after the highest tag with that prefix the device
 * holds. A printed tag is typed over it.
 */
export function suggestTag(existingTags: readonly string[], prefix: string): string {
  const p = tagKey(prefix);
  let max = 0;
  for (const tag of existingTags) {
    const key = tagKey(tag);
    if (!key.startsWith(`${p}-`)) continue;
    const n = Number(key.slice(p.length + 1));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return `${p}-${max + 1}`;
}

// ---------------------------------------------------------------------------------------
// METHANE, as read on the radio
// ---------------------------------------------------------------------------------------

export interface MethaneFields {
  majorIncident: boolean | null;
  location: string | null;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
  incidentType: string | null;
  hazards: string | null;
  access: string | null;
  casualtyEstimate: number | null;
  emergencyServices: string | null;
}

function said(value: string | null | undefined): string {
  const text = value?.trim();
  return text ? text : 'not known';
}

/**
 * The METHANE report as lines (M, E, T, H, A, N, E): what "Copy" copies and "Read aloud"
 * says. Number of casualties: the count from the rows when there are any, with the
 * estimate given beside it.
 */
export function methaneLines(m: MethaneFields, counts?: IncidentCounts): string[] {
  const position =
    m.latitude !== null &&
    m.latitude !== undefined &&
    m.longitude !== null &&
    m.longitude !== undefined
      ? ` (${m.latitude.toFixed(5)}, ${m.longitude.toFixed(5)})`
      : '';
  const major =
    m.majorIncident === true ? 'declared' : m.majorIncident === false ? 'standby' : 'not known';
  const triaged =
    counts && counts.total > 0
      ? `${counts.total} triaged: ${Object.entries(counts.byColour)
          .filter(([, n]) => n > 0)
          .map(([colour, n]) => `${n} ${colour.toLowerCase()}`)
          .join(', ')}`
      : null;
  const estimate = m.casualtyEstimate !== null ? `about ${m.casualtyEstimate} estimated` : null;
  const number = [triaged, estimate].filter(Boolean).join('; ') || 'not known';
  return [
    `M, major incident: ${major}`,
    `E, exact location: ${said(m.location)}${position}`,
    `T, type of incident: ${said(m.incidentType)}`,
    `H, hazards: ${said(m.hazards)}`,
    `A, access: ${said(m.access)}`,
    `N, number of casualties: ${number}`,
    `E, emergency services: ${said(m.emergencyServices)}`,
  ];
}

export function methaneText(m: MethaneFields, counts?: IncidentCounts): string {
  return `METHANE\n${methaneLines(m, counts).join('\n')}`;
}
