import type { CaseSummary } from '@rescuelog/sync-protocol/cases/list';
import { ChevronRight } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { useAfterFirstLoad } from '@/hooks/use-after-first-load';
import { formatRelativeTime } from '@rescuelog/sync-protocol/time';
import type { RecentCases as RecentCasesState } from '../api/use-recent-cases';
import { recentServerCases, useServerCases } from '../api/use-recent-server-cases';
import styles from './recent-cases.module.css';

// The device's own cases join the list once the first screen has loaded: reading them needs
// the local database code (Dexie), which would otherwise add ~45 KiB to the first render.
const DeviceRecentCases = lazy(async () => ({
  default: (await import('./recent-cases-device')).DeviceRecentCases,
}));

export function caseLink(c: CaseSummary): string {
  const id = encodeURIComponent(c.caseId);
  return c.status === 'in_progress' ? `/primary-survey/${id}` : `/case-completed/${id}`;
}

function CaseRow({ c }: { c: CaseSummary }) {
  const inProgress = c.status === 'in_progress';
  return (
    <li>
      <Link to={caseLink(c)} className={styles.row}>
        <span className={styles.main}>
          <span className={styles.id}>{c.caseId}</span>
          <span className={styles.type}>{c.incidentType || 'Unknown Incident'}</span>
          <span className={styles.time}>{formatRelativeTime(c.createdAt)}</span>
        </span>
        <span className={`pill ${inProgress ? 'pill--progress' : 'pill--done'}`}>
          {inProgress ? 'In Progress' : 'Completed'}
        </span>
        <ChevronRight aria-hidden="true" size={20} />
      </Link>
    </li>
  );
}

export function RecentCases() {
  const afterLoad = useAfterFirstLoad();
  const server = useServerCases();
  const serverOnly = <RecentCasesList recent={recentServerCases(server)} />;
  return (
    <section className="card" aria-labelledby="recent-cases-title">
      <div className="card__header">
        <h2 id="recent-cases-title" className="card__title">
          Recent Cases
        </h2>
        <Link to="/case-search" className="text-link">
          View All
        </Link>
      </div>
      {afterLoad ? (
        <Suspense fallback={serverOnly}>
          <DeviceRecentCases server={server} />
        </Suspense>
      ) : (
        serverOnly
      )}
    </section>
  );
}

/** The list in each state (loading, error, empty, cases), whichever source fills it. */
export function RecentCasesList({ recent }: { recent: RecentCasesState }) {
  return (
    <>
      {recent.state === 'loading' ? (
        <Spinner label="Loading recent cases" />
      ) : recent.state === 'error' ? (
        <p className="text-danger">Recent cases could not be loaded ({recent.error.message}).</p>
      ) : recent.cases.length === 0 ? (
        <p className="empty-state">No cases yet</p>
      ) : (
        <>
          <ul className={styles.list}>
            {recent.cases.map((c) => (
              <CaseRow key={c.caseId} c={c} />
            ))}
          </ul>
          {recent.serverError ? (
            <p className="text-muted">
              Showing cases on this device: the server could not be reached.
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
