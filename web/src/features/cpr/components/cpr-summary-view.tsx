// A session's figures (Utstein-style where the log holds them): shocks, doses, first rhythm,
// times to first shock / adrenaline / ROSC, outcome and duration.
import {
  cprSummary,
  formatOffset,
  type CprEventLike,
} from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import styles from '../cpr.module.css';

const OUTCOME_LABEL = { rosc: 'ROSC', terminated: 'Resuscitation terminated' } as const;

const orDash = (ms: number | null) => (ms === null ? '—' : `T+${formatOffset(ms)}`);
const yesNo = (v: boolean | null | undefined) =>
  v === true ? 'Yes' : v === false ? 'No' : 'Not recorded';

export function CprSummaryView({
  session,
  events,
}: {
  session: {
    startTime?: string | undefined;
    endTime?: string | null | undefined;
    witnessed?: boolean | null | undefined;
    bystanderCpr?: boolean | null | undefined;
  };
  events: readonly CprEventLike[];
}) {
  if (!session.startTime) return null;
  const s = cprSummary(session.startTime, events, session.endTime ?? null);
  const rows: [string, string][] = [
    ['Outcome', s.outcome ? OUTCOME_LABEL[s.outcome] : 'In progress'],
    ['Duration', s.durationMs === null ? '—' : formatOffset(s.durationMs)],
    ['Witnessed', yesNo(session.witnessed)],
    ['Bystander CPR', yesNo(session.bystanderCpr)],
    ['First rhythm', s.firstRhythm ?? '—'],
    ['Shocks', String(s.shocks)],
    ['Adrenaline doses', String(s.adrenalineDoses)],
    ['Amiodarone', s.amiodaroneDoses ? `${s.amiodaroneDoses} (${s.amiodaroneMg} mg)` : '0'],
    ['Time to first shock', orDash(s.timeToFirstShockMs)],
    ['Time to first adrenaline', orDash(s.timeToFirstAdrenalineMs)],
    ['Time to ROSC', orDash(s.timeToRoscMs)],
    ['Corrections (voided events)', String(s.voidedEvents)],
  ];
  return (
    <dl className={styles.summary}>
      {rows.map(([label, value]) => (
        <div key={label} className={styles.summaryItem}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
