// /admin/conflicts: every open conflict (two devices changed the same field of the same
// record from the same version) with both values, who entered each and when. Keeping one is
// an audited change of the record that reaches every device at its next pull; nothing is
// settled silently (decision 015).
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { SyncConflict } from '@rescuelog/sync-protocol/platform/conflicts';
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';
import { ArrowLeft, Check } from 'lucide-react';
import { Link } from 'react-router-dom';
import { valueText } from '@/components/record-form/value-text';
import { PageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useConflictsToReview, useResolveConflict } from '@/lib/conflict-review';
import styles from './admin-conflicts-page.module.css';

function fieldLabel(c: SyncConflict): string {
  const def = appRegistry.has(c.entity) ? appRegistry.get(c.entity) : undefined;
  return def?.fieldLabels?.[c.field] ?? c.field;
}

function recordTitle(c: SyncConflict): string {
  const label = c.kindLabel ?? c.entity;
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} ${c.humanId ?? c.entityId}`;
}

function ConflictCard({ conflict }: { conflict: SyncConflict }) {
  const resolve = useResolveConflict();
  const busy = resolve.isPending;
  const first = conflict.serverAuthorName ?? 'The first responder';
  const later = conflict.clientAuthorName ?? 'The later responder';
  const titleId = `conflict-${conflict.id}`;
  return (
    <li className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        {recordTitle(conflict)}: {fieldLabel(conflict)}
      </h2>
      <p className="text-muted">Noticed {formatDateTime(conflict.createdAt)}</p>
      <div className={styles.values}>
        <div className={styles.value}>
          <p className={styles.who}>{first} entered first</p>
          <p className={styles.text}>{valueText(conflict.serverValue)}</p>
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={busy}
            onClick={() => resolve.mutate({ id: conflict.id, choice: 'server' })}
          >
            <Check aria-hidden="true" size={20} /> Keep {first}&apos;s value
          </button>
        </div>
        <div className={styles.value}>
          <p className={styles.who}>{later} entered later (held now)</p>
          <p className={styles.text}>{valueText(conflict.clientValue)}</p>
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={busy}
            onClick={() => resolve.mutate({ id: conflict.id, choice: 'client' })}
          >
            <Check aria-hidden="true" size={20} /> Keep {later}&apos;s value
          </button>
        </div>
      </div>
      {busy ? <p role="status">Saving…</p> : null}
    </li>
  );
}

export function AdminConflictsPage() {
  const conflicts = useConflictsToReview();
  return (
    <main className="page">
      <Link to="/" className="text-link">
        <ArrowLeft aria-hidden="true" size={20} />
        Back to Home
      </Link>
      <h1 className="section-title">Conflicts to review</h1>
      <p>
        Two devices changed the same field before either had synced. The later value is held now;
        keep the right one and every device gets it at its next sync.
      </p>
      {conflicts.isPending ? (
        <PageSpinner />
      ) : conflicts.isError ? (
        <div className="status-card status-card--danger" role="alert">
          <p>Conflicts could not be loaded: {errorMessage(conflicts.error)}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void conflicts.refetch()}
          >
            Try again
          </button>
        </div>
      ) : conflicts.data.length === 0 ? (
        <p className="empty-state">No open conflicts. Every record holds one agreed value.</p>
      ) : (
        <ul className={styles.list}>
          {conflicts.data.map((c) => (
            <ConflictCard key={c.id} conflict={c} />
          ))}
        </ul>
      )}
    </main>
  );
}
