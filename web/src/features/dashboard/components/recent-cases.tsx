import type { CaseSummary } from '@rescuelog/sync-protocol/cases';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { formatRelativeTime } from '@/lib/format';
import { useRecentCases } from '../api/use-recent-cases';

export function caseLink(c: CaseSummary): string {
  const id = encodeURIComponent(c.caseId);
  return c.status === 'in_progress' ? `/primary-survey/${id}` : `/case-completed/${id}`;
}

function CaseRow({ c }: { c: CaseSummary }) {
  const inProgress = c.status === 'in_progress';
  return (
    <li>
      <Link to={caseLink(c)} className="case-row">
        <span className="case-row__main">
          <span className="case-row__id">{c.caseId}</span>
          <span className="case-row__type">{c.incidentType || 'Unknown Incident'}</span>
          <span className="case-row__time">{formatRelativeTime(c.createdAt)}</span>
        </span>
        <span className={`pill ${inProgress ? 'pill--progress' : 'pill--done'}`}>{inProgress ? 'In Progress' : 'Completed'}</span>
        <ChevronRight aria-hidden="true" size={20} />
      </Link>
    </li>
  );
}

export function RecentCases() {
  const { data: cases, isPending, isError, error } = useRecentCases();
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
      {isPending ? (
        <Spinner label="Loading recent cases" />
      ) : isError ? (
        <p className="text-danger">Recent cases could not be loaded ({error.message}).</p>
      ) : cases.length === 0 ? (
        <p className="empty-state">No cases yet</p>
      ) : (
        <ul className="case-list">
          {cases.map((c) => (
            <CaseRow key={c.id} c={c} />
          ))}
        </ul>
      )}
    </section>
  );
}
