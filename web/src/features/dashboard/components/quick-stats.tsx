import { useStats } from '../api/use-stats';
import styles from './quick-stats.module.css';

export function QuickStats() {
  const { data, isError } = useStats();
  const show = (n: number | undefined) => (n === undefined ? (isError ? '!' : '–') : String(n));
  return (
    <section className="card" aria-labelledby="quick-stats-title">
      <h2 id="quick-stats-title" className="card__title">
        Quick Stats
      </h2>
      <dl className={styles.stats}>
        <div className={styles.item}>
          <dt>This Month</dt>
          <dd>{show(data?.thisMonthIncidents)}</dd>
        </div>
        <div className={styles.item}>
          <dt>This Week</dt>
          <dd>{show(data?.thisWeekIncidents)}</dd>
        </div>
        <div className={styles.item}>
          <dt>Active</dt>
          <dd>{show(data?.activeIncidents)}</dd>
        </div>
      </dl>
      {isError ? (
        <p className="text-muted">Stats could not be loaded. They refresh every 30 seconds.</p>
      ) : null}
    </section>
  );
}
