// The CPR session summary as a report of the one PDF module (lib/pdf): the session's facts,
// the summary figures and the whole timeline (voided events marked, never dropped). Built on
// the device from what it holds, so it prints offline too.
import {
  cprSummary,
  cprTimeline,
  formatOffset,
  type CprEventLike,
} from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { formatDateTime, formatTime } from '@rescuelog/sync-protocol/time';
import type { ReportContent } from '@/lib/pdf/report-layout';
import type { LocalCprSession } from '../data/use-cpr-session';

const yesNo = (v: boolean | null | undefined) =>
  v === true ? 'Yes' : v === false ? 'No' : 'Not recorded';
const offset = (ms: number | null) => (ms === null ? '—' : `T+${formatOffset(ms)}`);

export function cprReport(
  session: LocalCprSession,
  events: readonly CprEventLike[],
  authorOf: (event: CprEventLike) => string,
): ReportContent {
  const start = session.startTime ?? '';
  const s = cprSummary(start, events, session.endTime ?? null);
  const outcome =
    s.outcome === 'rosc' ? 'ROSC' : s.outcome === 'terminated' ? 'Terminated' : 'In progress';
  return {
    title: `CPR session ${session.sessionId ?? ''}`,
    subtitle: `Started ${formatDateTime(start)}${session.endTime ? `, ended ${formatDateTime(session.endTime)}` : ''}`,
    footerNote: 'Confidential patient information',
    blocks: [
      { kind: 'heading', text: 'Session' },
      {
        kind: 'rows',
        rows: [
          { label: 'Outcome', value: outcome },
          { label: 'Duration', value: s.durationMs === null ? '—' : formatOffset(s.durationMs) },
          { label: 'Patient age', value: session.patientAge ?? '—' },
          { label: 'Location', value: session.incidentLocation ?? '—' },
          { label: 'Witnessed', value: yesNo(session.witnessed) },
          { label: 'Bystander CPR', value: yesNo(session.bystanderCpr) },
          { label: 'Events leading up', value: session.eventsLeadingUp ?? '—' },
        ],
      },
      { kind: 'heading', text: 'Summary' },
      {
        kind: 'rows',
        rows: [
          { label: 'First rhythm', value: s.firstRhythm ?? '—' },
          { label: 'Shocks', value: String(s.shocks) },
          { label: 'Adrenaline doses', value: String(s.adrenalineDoses) },
          {
            label: 'Amiodarone',
            value: s.amiodaroneDoses ? `${s.amiodaroneDoses} (${s.amiodaroneMg} mg)` : '0',
          },
          { label: 'Time to first shock', value: offset(s.timeToFirstShockMs) },
          { label: 'Time to first adrenaline', value: offset(s.timeToFirstAdrenalineMs) },
          { label: 'Time to ROSC', value: offset(s.timeToRoscMs) },
          { label: 'Corrections (voided events)', value: String(s.voidedEvents) },
        ],
      },
      { kind: 'heading', text: 'Timeline' },
      {
        kind: 'table',
        columns: [
          { header: 'T+', width: 0.12 },
          { header: 'Time', width: 0.14 },
          { header: 'Event', width: 0.5 },
          { header: 'By', width: 0.24 },
        ],
        rows: cprTimeline(start, events).map((x) => [
          formatOffset(x.offsetMs),
          formatTime(x.event.at, undefined, { seconds: true }),
          `${x.voidedBy ? 'VOIDED: ' : ''}${x.text}${
            x.voidedBy ? ` (${String(x.voidedBy.details.reason ?? '')})` : ''
          }${x.duplicateOf ? ' (same tap as above, counted once)' : ''}`,
          authorOf(x.event),
        ]),
      },
    ],
  };
}
