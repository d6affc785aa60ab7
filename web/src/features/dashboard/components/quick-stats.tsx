import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { useStats } from '../api/use-stats';
import styles from './quick-stats.module.css';

export function QuickStats() {
  const { known, stale, loading } = useStats();
  const show = (n: number | undefined) => (n === undefined ? '–' : String(n));
  const stats = known?.stats;
  return (
    <section className="card" aria-labelledby="quick-stats-title">
      {/* When the counts were true, beside the title: always there, so nothing moves. */}
      <div className="card__header">
        <h2 id="quick-stats-title" className="card__title">
          Quick Stats
        </h2>
        <p className={styles.asOf}>
          {loading
            ? 'Counting…'
            : known
              ? `${stale ? 'Offline, as of' : 'Updated'} ${formatDateTime(known.at)}`
              : 'Offline: not counted yet'}
        </p>
      </div>
      <dl className={styles.stats}>
        <div className={styles.item}>
          <dt>This Month</dt>
          <dd>{show(stats?.thisMonthIncidents)}</dd>
        </div>
        <div className={styles.item}>
          <dt>This Week</dt>
          <dd>{show(stats?.thisWeekIncidents)}</dd>
        </div>
        <div className={styles.item}>
          <dt>Active</dt>
          <dd>{show(stats?.activeIncidents)}</dd>
        </div>
      </dl>
    </section>
  );
}
