// The CPR logger's clocks, prompts, timeline and summary, as pure functions of the session's
// start, its events and a time. The arrest screen calls them every tick; the log, the PDF and
// the tests call the same ones (no clock is read here: `now` is passed in). Clinical rules:
// docs/domain.md "CPR logger".
import type { CPR_RHYTHMS, CprEventKind } from '../cases/clinical';

export type CprRhythm = (typeof CPR_RHYTHMS)[number];

/** An event as the device and the server hold it (cprEvent record, parsed or not). */
export interface CprEventLike {
  id: string;
  type: CprEventKind | string;
  at: string;
  details: Record<string, unknown>;
  voidsEventId: string | null;
  userId: number;
}

/** The settings the prompts follow (System Settings; domain.md defaults). */
export interface CprProtocol {
  /** Prompt the next adrenaline this long after the last dose (settings: 3–5, default 4). */
  adrenalineIntervalMinutes: number;
}

/** One CPR cycle: rhythm check and compressor swap every 2 minutes. */
export const CPR_CYCLE_MS = 2 * 60 * 1000;
/** A dose sooner than this after the last one is flagged (adrenaline every 3–5 min). */
export const ADRENALINE_MIN_GAP_MS = 3 * 60 * 1000;
/** Two people's same taps this close together are one group on the merged timeline. */
export const DUPLICATE_WINDOW_MS = 5 * 1000;
/** Amiodarone: 300 mg after the 3rd shock, 150 mg after the 5th. */
export const AMIODARONE_DOSES = [
  { afterShock: 3, doseMg: 300 },
  { afterShock: 5, doseMg: 150 },
] as const;
export const ADRENALINE_DOSE_MG = 1;

const SHOCKABLE: ReadonlySet<string> = new Set(['VF', 'pVT']);
const NON_SHOCKABLE: ReadonlySet<string> = new Set(['PEA', 'asystole']);

export type CprPathway = 'shockable' | 'non-shockable';

export function pathwayOf(rhythm: string | null): CprPathway | null {
  if (rhythm === null) return null;
  if (SHOCKABLE.has(rhythm)) return 'shockable';
  if (NON_SHOCKABLE.has(rhythm)) return 'non-shockable';
  return null;
}

export type CprPromptId = 'rhythm_check' | 'adrenaline' | 'amiodarone' | 'first_rhythm';

export interface CprPrompt {
  id: CprPromptId;
  /** Changes when the prompt is due again (a new cycle, a new dose): speak it once per key. */
  key: string;
  /** Shown on the screen and spoken. */
  text: string;
}

export interface CprState {
  elapsedMs: number;
  /** Time in the current 2-minute cycle (it restarts at each rhythm check). */
  cycleElapsedMs: number;
  cycleNumber: number;
  /** Null before the first dose. */
  sinceAdrenalineMs: number | null;
  shockCount: number;
  adrenalineCount: number;
  amiodaroneCount: number;
  /** The dose the amiodarone button gives next (300, then 150), or null after both. */
  nextAmiodaroneMg: number | null;
  /** The last rhythm check's finding; null before the first. */
  rhythm: CprRhythm | null;
  pathway: CprPathway | null;
  prompts: CprPrompt[];
  ended: boolean;
}

const ms = (iso: string) => Date.parse(iso);

/** The ids of voided events (a void names its target; voids themselves are never voided). */
export function voidedIds(events: readonly CprEventLike[]): Map<string, CprEventLike> {
  const voided = new Map<string, CprEventLike>();
  for (const e of events) if (e.type === 'void' && e.voidsEventId) voided.set(e.voidsEventId, e);
  return voided;
}

/** Time order; ties by id, so every device orders a merged log the same way. */
function byTime(a: CprEventLike, b: CprEventLike): number {
  return ms(a.at) - ms(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The events that count, in time order: not voids, not voided, and one of each group of the
 * same tap by two people within 5 s. */
export function effectiveEvents(events: readonly CprEventLike[]): CprEventLike[] {
  return cprTimeline('1970-01-01T00:00:00.000Z', events)
    .filter((x) => x.voidedBy === null && x.duplicateOf === null && x.event.type !== 'void')
    .map((x) => x.event);
}

function rhythmOf(e: CprEventLike): CprRhythm | null {
  const r = e.details.rhythm;
  return typeof r === 'string' ? (r as CprRhythm) : null;
}

/** The clocks and the prompts due at `nowMs`. */
export function cprState(
  startTime: string,
  events: readonly CprEventLike[],
  nowMs: number,
  protocol: CprProtocol,
): CprState {
  const startMs = ms(startTime);
  const live = effectiveEvents(events).filter((e) => ms(e.at) <= nowMs);
  let cycleStartMs = startMs;
  let cycleNumber = 1;
  let rhythm: CprRhythm | null = null;
  let shockCount = 0;
  let lastAdrenalineMs: number | null = null;
  let adrenalineCount = 0;
  let amiodaroneCount = 0;
  let ended = false;
  for (const e of live) {
    const at = ms(e.at);
    switch (e.type) {
      case 'rhythm_check':
        rhythm = rhythmOf(e) ?? rhythm;
        cycleStartMs = at;
        cycleNumber += 1;
        break;
      case 'shock':
        shockCount += 1;
        break;
      case 'adrenaline':
        adrenalineCount += 1;
        lastAdrenalineMs = at;
        break;
      case 'amiodarone':
        amiodaroneCount += 1;
        break;
      case 'rosc':
        rhythm = 'ROSC';
        ended = true;
        break;
      case 'termination':
        ended = true;
        break;
    }
  }
  const endMs = ended ? ms(live[live.length - 1]?.at ?? startTime) : nowMs;
  const pathway = pathwayOf(rhythm);
  const nextAmiodaroneMg = AMIODARONE_DOSES[amiodaroneCount]?.doseMg ?? null;
  const prompts: CprPrompt[] = [];
  if (!ended) {
    const cycleElapsed = nowMs - cycleStartMs;
    if (rhythm === null && cycleNumber === 1)
      prompts.push({ id: 'first_rhythm', key: 'first_rhythm', text: 'Check the rhythm.' });
    if (cycleElapsed >= CPR_CYCLE_MS)
      prompts.push({
        id: 'rhythm_check',
        key: `rhythm_check:${cycleNumber}`,
        text: 'Rhythm check. Swap compressors.',
      });
    const adrenalineDue =
      lastAdrenalineMs === null
        ? pathway === 'non-shockable' || (pathway === 'shockable' && shockCount >= 3)
        : nowMs - lastAdrenalineMs >= protocol.adrenalineIntervalMinutes * 60_000;
    if (adrenalineDue)
      prompts.push({
        id: 'adrenaline',
        key: `adrenaline:${adrenalineCount}`,
        text: 'Adrenaline due: 1 mg.',
      });
    const amiodarone = AMIODARONE_DOSES[amiodaroneCount];
    if (amiodarone && shockCount >= amiodarone.afterShock)
      prompts.push({
        id: 'amiodarone',
        key: `amiodarone:${amiodaroneCount}`,
        text: `Amiodarone due: ${amiodarone.doseMg} mg.`,
      });
  }
  return {
    elapsedMs: Math.max(0, endMs - startMs),
    cycleElapsedMs: ended ? 0 : Math.max(0, nowMs - cycleStartMs),
    cycleNumber,
    sinceAdrenalineMs: lastAdrenalineMs === null ? null : Math.max(0, endMs - lastAdrenalineMs),
    shockCount,
    adrenalineCount,
    amiodaroneCount,
    nextAmiodaroneMg,
    rhythm,
    pathway,
    prompts,
    ended,
  };
}

/** The warning for an adrenaline dose at `atMs`, when it is under 3 minutes after the last. */
export function earlyAdrenalineWarning(
  events: readonly CprEventLike[],
  atMs: number,
): string | null {
  const earlier = effectiveEvents(events).filter(
    (e) => e.type === 'adrenaline' && ms(e.at) <= atMs,
  );
  const last = earlier[earlier.length - 1];
  if (!last) return null;
  const gap = atMs - ms(last.at);
  if (gap >= ADRENALINE_MIN_GAP_MS) return null;
  return `Adrenaline given ${formatOffset(gap)} after the last dose (less than 3 minutes).`;
}

/** mm:ss (h:mm:ss past an hour) of a duration; negative durations read as 00:00. */
export function formatOffset(durationMs: number): string {
  const total = Math.max(0, Math.floor(durationMs / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

// ---------------------------------------------------------------------------------------
// The timeline and the summary
// ---------------------------------------------------------------------------------------

const RHYTHM_LABEL: Record<string, string> = {
  VF: 'VF',
  pVT: 'pVT',
  PEA: 'PEA',
  asystole: 'Asystole',
  ROSC: 'ROSC',
};

/** One line for an event, as the timeline, the PDF and the screen say it. */
export function describeCprEvent(e: Pick<CprEventLike, 'type' | 'details'>): string {
  const d = e.details;
  const text = (k: string) => (typeof d[k] === 'string' ? d[k] : '');
  switch (e.type) {
    case 'start':
      return 'Session started';
    case 'rhythm_check':
      return `Rhythm check: ${RHYTHM_LABEL[text('rhythm')] ?? text('rhythm')}`;
    case 'shock':
      return `Shock ${typeof d.energyJoules === 'number' ? `${d.energyJoules} J` : ''}`.trim();
    case 'adrenaline':
      return `Adrenaline ${typeof d.doseMg === 'number' ? d.doseMg : ADRENALINE_DOSE_MG} mg`;
    case 'amiodarone':
      return `Amiodarone ${typeof d.doseMg === 'number' ? d.doseMg : ''} mg`;
    case 'airway':
      return `Airway: ${text('airway')}`;
    case 'iv_io_access':
      return `${text('access')} access`;
    case 'compressor_change':
      return 'Compressor change';
    case 'note':
      return `Note: ${text('note')}`;
    case 'rosc':
      return 'ROSC';
    case 'termination':
      return `Resuscitation terminated: ${text('reason')}`;
    case 'void':
      return `Correction: ${text('reason')}`;
    default:
      return e.type;
  }
}

export interface CprTimelineEntry {
  event: CprEventLike;
  /** Since the session's start. */
  offsetMs: number;
  text: string;
  /** The void that cancelled it, if any. */
  voidedBy: CprEventLike | null;
  /** Same event tapped by another person within 5 s of the group's first: the first's id. */
  duplicateOf: string | null;
}

/** The same clinical content (who tapped it aside). */
function sameDetails(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = ({ by: _by, ...rest }: Record<string, unknown>) =>
    JSON.stringify(Object.entries(rest).sort(([x], [y]) => (x < y ? -1 : 1)));
  return strip(a) === strip(b);
}

function sameTap(a: CprEventLike, b: CprEventLike): boolean {
  return (
    a.type === b.type &&
    a.type !== 'void' &&
    a.userId !== b.userId &&
    sameDetails(a.details, b.details) &&
    Math.abs(ms(a.at) - ms(b.at)) <= DUPLICATE_WINDOW_MS
  );
}

/** Every event (voids and voided ones included, nothing hidden) in time order, grouped. */
export function cprTimeline(
  startTime: string,
  events: readonly CprEventLike[],
): CprTimelineEntry[] {
  const startMs = ms(startTime);
  const voided = voidedIds(events);
  const sorted = [...events].sort(byTime);
  const entries: CprTimelineEntry[] = [];
  for (const event of sorted) {
    const voidedBy = voided.get(event.id) ?? null;
    const first = voidedBy
      ? undefined
      : entries.find(
          (x) => x.duplicateOf === null && x.voidedBy === null && sameTap(x.event, event),
        );
    entries.push({
      event,
      offsetMs: ms(event.at) - startMs,
      text: describeCprEvent(event),
      voidedBy,
      duplicateOf: first ? first.event.id : null,
    });
  }
  return entries;
}

export interface CprSummary {
  durationMs: number | null;
  shocks: number;
  adrenalineDoses: number;
  amiodaroneDoses: number;
  amiodaroneMg: number;
  firstRhythm: CprRhythm | null;
  timeToFirstShockMs: number | null;
  timeToFirstAdrenalineMs: number | null;
  timeToRoscMs: number | null;
  outcome: 'rosc' | 'terminated' | null;
  /** Events cancelled by a correction (they count nowhere above). */
  voidedEvents: number;
}

/** The figures of one session (Utstein-style where the log holds them). */
export function cprSummary(
  startTime: string,
  events: readonly CprEventLike[],
  endTime: string | null = null,
): CprSummary {
  const startMs = ms(startTime);
  // Two people's same tap within 5 s counts once.
  const counted = cprTimeline(startTime, events).filter(
    (x) => x.voidedBy === null && x.duplicateOf === null && x.event.type !== 'void',
  );
  const of = (type: string) => counted.filter((x) => x.event.type === type);
  const firstOffset = (type: string) => of(type)[0]?.offsetMs ?? null;
  const rhythms = of('rhythm_check').map((x) => rhythmOf(x.event));
  const amiodarone = of('amiodarone');
  const ending = counted.find((x) => x.event.type === 'rosc' || x.event.type === 'termination');
  const endMs = endTime ? ms(endTime) : ending ? ms(ending.event.at) : null;
  return {
    durationMs: endMs === null ? null : endMs - startMs,
    shocks: of('shock').length,
    adrenalineDoses: of('adrenaline').length,
    amiodaroneDoses: amiodarone.length,
    amiodaroneMg: amiodarone.reduce(
      (sum, x) => sum + (typeof x.event.details.doseMg === 'number' ? x.event.details.doseMg : 0),
      0,
    ),
    firstRhythm: rhythms[0] ?? null,
    timeToFirstShockMs: firstOffset('shock'),
    timeToFirstAdrenalineMs: firstOffset('adrenaline'),
    timeToRoscMs: firstOffset('rosc'),
    outcome: ending ? (ending.event.type === 'rosc' ? 'rosc' : 'terminated') : null,
    voidedEvents: voidedIds(events).size,
  };
}
