// /internal-protocols: the service's SOPs as this device holds them (offline too), each with
// whether the signed-in member has acknowledged its current version; administrators write
// new ones.
import { formatDate } from '@rescuelog/sync-protocol/time';
import { ChevronRight, FilePlus2, FileText } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { canPublishSops, useMyAcknowledgements, useSops } from '../sop-data';
import styles from './sops.module.css';

export function SopsPage() {
  const { data: user } = useUser();
  const sops = useSops();
  const acknowledged = useMyAcknowledgements(user?.id);
  const canPublish = canPublishSops(user);

  return (
    <>
      <PageHeader
        title="Internal SOPs"
        actions={
          canPublish ? (
            <Link to="/internal-protocols/new" className="button button--secondary">
              <FilePlus2 aria-hidden="true" size={20} />
              New SOP
            </Link>
          ) : null
        }
      />
      <main className={`page ${styles.page}`}>
        {sops === undefined ? (
          <Spinner label="Loading SOPs" />
        ) : sops.length === 0 ? (
          <div className="empty-state">
            <FileText aria-hidden="true" size={40} />
            <p className="empty-state__title">No SOPs yet</p>
            <p>
              {canPublish
                ? 'Write the service’s first standard operating procedure with New SOP.'
                : 'Your administrators have not published any SOPs yet, or this device has not received them. They appear here once synced and stay readable offline.'}
            </p>
          </div>
        ) : (
          <ul className={styles.list} aria-label="SOPs">
            {sops.map(({ sopId, latest }) => {
              const done = acknowledged?.has(latest.id) ?? false;
              return (
                <li key={sopId}>
                  <Link to={`/internal-protocols/${sopId}`} className={styles.row}>
                    <span className={styles.rowText}>
                      <span className={styles.rowTitle}>{latest.title}</span>
                      <span className={styles.rowMeta}>
                        {latest.category} · Version {latest.revision} ·{' '}
                        {formatDate(latest.createdAt)}
                      </span>
                    </span>
                    <span className={`pill ${done ? 'pill--done' : 'pill--pending'}`}>
                      {done ? 'Acknowledged' : 'Not yet acknowledged'}
                    </span>
                    <ChevronRight aria-hidden="true" size={24} />
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </main>
    </>
  );
}
