// /internal-protocols/{sopId}: an SOP's current version (or an old one, ?revision=N), its
// version history, the member's "read and understood", and for administrators who has not
// yet acknowledged the current version.
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { CircleCheck, FileQuestion, History, PenLine } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { useHasPendingChanges } from '@/lib/sync/use-sync';
import {
  acknowledgeSop,
  canPublishSops,
  useApprovedUsers,
  useSop,
  useSopAcknowledgements,
  type Sop,
  type SopAcknowledgement,
} from '../sop-data';
import { SopBody } from './sop-body';
import styles from './sops.module.css';

const BACK = { to: '/internal-protocols', label: 'Back to Internal SOPs' };

function NotAcknowledged({ sop, acks }: { sop: Sop; acks: readonly SopAcknowledgement[] }) {
  const users = useApprovedUsers(true);
  if (users.isPending) return <Spinner label="Loading members" />;
  if (users.isError)
    return (
      <Callout tone="info" as="p">
        The list of members needs a connection to the server.
      </Callout>
    );
  const done = new Set(acks.filter((a) => a.sopVersionId === sop.latest.id).map((a) => a.userId));
  const missing = users.data.filter((u) => !done.has(u.id));
  return missing.length === 0 ? (
    <p>Everyone has acknowledged version {sop.latest.revision}.</p>
  ) : (
    <ul className={styles.people} aria-label="Not yet acknowledged">
      {missing.map((u) => (
        <li key={u.id}>
          {u.fullName}
          {u.callSign ? ` (${u.callSign})` : ''}
        </li>
      ))}
    </ul>
  );
}

function Acknowledge({ sop, mine }: { sop: Sop; mine: SopAcknowledgement | undefined }) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const pending = useHasPendingChanges(mine?.id ?? '');
  if (mine) {
    return (
      <Callout tone="success" as="p" role="status">
        <CircleCheck aria-hidden="true" size={24} />
        You acknowledged version {sop.latest.revision} on {formatDateTime(mine.createdAt)}.
        {pending ? ' Not yet synced.' : ''}
      </Callout>
    );
  }
  return (
    <div className={styles.ack}>
      <button
        type="button"
        className="button button--primary button--block"
        disabled={saving}
        onClick={() => {
          setSaving(true);
          setError(null);
          acknowledgeSop(sop.latest.id)
            .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
            .finally(() => setSaving(false));
        }}
      >
        <CircleCheck aria-hidden="true" size={24} />I have read and understood version{' '}
        {sop.latest.revision}
      </button>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SopPage({ sopId }: { sopId: string }) {
  const { data: user } = useUser();
  const sop = useSop(sopId);
  const acks = useSopAcknowledgements(sopId);
  const [params] = useSearchParams();
  const canPublish = canPublishSops(user);

  if (sop === undefined) return <Spinner label="Loading the SOP" />;
  if (sop === null)
    return (
      <StatusPage
        icon={<FileQuestion size={40} />}
        title="SOP not found"
        actions={
          <Link to="/internal-protocols" className="button button--primary button--block">
            Back to Internal SOPs
          </Link>
        }
      >
        <p>This device holds no SOP with this address. It may not have synced yet.</p>
      </StatusPage>
    );

  const asked = Number(params.get('revision'));
  const shown = sop.versions.find((v) => v.revision === asked) ?? sop.latest;
  const isOld = shown.id !== sop.latest.id;
  const mine = acks?.find((a) => a.sopVersionId === sop.latest.id && a.userId === user?.id);

  return (
    <>
      <PageHeader
        title="Internal SOP"
        back={BACK}
        actions={
          canPublish ? (
            <Link to={`/internal-protocols/${sopId}/edit`} className="button button--secondary">
              <PenLine aria-hidden="true" size={20} />
              New version
            </Link>
          ) : null
        }
      />
      <main className={`page ${styles.page}`}>
        <article className={`card ${styles.article}`} aria-labelledby="sop-title">
          <h2 id="sop-title" className={styles.title}>
            {shown.title}
          </h2>
          <p className={styles.rowMeta}>
            {shown.category} · Version {shown.revision} of {sop.latest.revision} · published{' '}
            {formatDateTime(shown.createdAt)}
          </p>
          {isOld ? (
            <Callout tone="warning" as="p" role="status">
              This is an old version.{' '}
              <Link to={`/internal-protocols/${sopId}`}>Read the current version</Link>.
            </Callout>
          ) : null}
          <SopBody body={shown.body} />
        </article>

        {!isOld ? <Acknowledge sop={sop} mine={mine} /> : null}

        <section aria-labelledby="sop-history" className={styles.section}>
          <h2 id="sop-history" className="section-title">
            <History aria-hidden="true" size={20} /> Version history
          </h2>
          <ol className={styles.history} reversed>
            {sop.versions.map((v) => (
              <li key={v.id}>
                <Link
                  to={`/internal-protocols/${sopId}?revision=${v.revision}`}
                  aria-current={v.id === shown.id ? 'page' : undefined}
                  className={styles.historyLink}
                >
                  Version {v.revision}: {v.title} · {formatDateTime(v.createdAt)}
                </Link>
              </li>
            ))}
          </ol>
        </section>

        {canPublish && acks ? (
          <section aria-labelledby="sop-missing" className={styles.section}>
            <h2 id="sop-missing" className="section-title">
              Not yet acknowledged (version {sop.latest.revision})
            </h2>
            <NotAcknowledged sop={sop} acks={acks} />
          </section>
        ) : null}
      </main>
    </>
  );
}
