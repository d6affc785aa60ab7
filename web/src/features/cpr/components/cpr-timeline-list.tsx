// The session's events in time order with their time since the start (T+mm:ss), the wall
// time in the service's zone and who logged each: voided events stay, struck through with
// the correction's reason; the same tap by two people within 5 s is one group.
import {
  cprTimeline,
  formatOffset,
  type CprEventLike,
} from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { formatTime } from '@rescuelog/sync-protocol/time';
import { cx } from '@/lib/cx';
import styles from '../cpr.module.css';

export function authorOf(event: CprEventLike, currentUserId: number | undefined): string {
  const by = typeof event.details.by === 'string' ? event.details.by : null;
  if (event.userId === currentUserId) return by ? `${by} (you)` : 'You';
  return by ?? `Responder ${event.userId}`;
}

export function CprTimelineList({
  startTime,
  events,
  currentUserId,
  onVoid,
}: {
  startTime: string;
  events: readonly CprEventLike[];
  currentUserId: number | undefined;
  /** Offered on events that can still be voided (the logger; not a read-only log). */
  onVoid?: (event: CprEventLike) => void;
}) {
  const entries = cprTimeline(startTime, events);
  if (entries.length === 0) return <p className={styles.emptyTimeline}>No events logged yet.</p>;
  return (
    <ol className={styles.timeline} aria-label="Event timeline">
      {entries.map((x) => {
        const voided = x.voidedBy !== null;
        return (
          <li
            key={x.event.id}
            className={cx(
              styles.timelineRow,
              voided && styles.voided,
              x.duplicateOf && styles.duplicate,
            )}
          >
            <span className={styles.offset}>T+{formatOffset(x.offsetMs)}</span>
            <span className={styles.timelineText}>
              <span className={styles.eventText}>
                {voided ? <span className="sr-only">Voided: </span> : null}
                {x.text}
              </span>
              <span className={styles.eventMeta}>
                {formatTime(x.event.at, undefined, { seconds: true })} ·{' '}
                {authorOf(x.event, currentUserId)}
                {x.duplicateOf ? ' · same tap as above (counted once)' : ''}
                {x.voidedBy
                  ? ` · voided by ${authorOf(x.voidedBy, currentUserId)}: ${String(x.voidedBy.details.reason ?? '')}`
                  : ''}
              </span>
            </span>
            {onVoid && !voided && x.event.type !== 'void' ? (
              <button
                type="button"
                className={cx('button', styles.voidButton)}
                onClick={() => onVoid(x.event)}
                aria-label={`Void ${x.text} at T+${formatOffset(x.offsetMs)}`}
              >
                Void
              </button>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
