// The rejected-changes inbox (/sync-inbox): every change the server acknowledged but refused,
// with the reason and the data the user entered, so nothing disappears silently. Dismissing
// marks it read; the row and its data stay on the device.
import { dismissRejection, type Rejection } from '@rescuelog/sync-protocol/client/outbox';
import {
  REJECTION_MESSAGES,
  type RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { useRejections, useSyncSession } from '@/lib/sync/use-sync';
import styles from './sync-inbox.module.css';

/** The change's name for people, from its mutator (a name this app does not know is shown as is). */
function mutationLabel(name: string): string {
  return appRegistry.mutator(name)?.label ?? name;
}

function isRejectionCode(code: string): code is RejectionCode {
  return Object.hasOwn(REJECTION_MESSAGES, code);
}

export function rejectionReason(rejection: Rejection): string {
  const known = isRejectionCode(rejection.code) ? REJECTION_MESSAGES[rejection.code] : null;
  const server = rejection.message?.trim() || null;
  if (known && server && server !== known) return `${known} ${server}`;
  return known ?? server ?? `Refused by the server (${rejection.code}).`;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '(empty)';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

/** The data the user entered, field by field. */
function entries(rejection: Rejection): [string, unknown][] {
  const args = rejection.mutation.args as Record<string, unknown>;
  const fields = args.fields;
  const rest = Object.entries(args).filter(([key]) => key !== 'fields' && key !== 'id');
  const fieldEntries =
    fields !== null && typeof fields === 'object'
      ? Object.entries(fields as Record<string, unknown>)
      : [];
  return [...rest, ...fieldEntries];
}

function RejectionItem({ rejection, onDismiss }: { rejection: Rejection; onDismiss: () => void }) {
  const args = rejection.mutation.args as Record<string, unknown>;
  const record =
    typeof args.humanId === 'string'
      ? args.humanId
      : typeof args.id === 'string'
        ? args.id
        : rejection.mutation.entityIds[0];
  const titleId = `rejection-${rejection.mutationId}`;
  return (
    <li className="card">
      <h2 id={titleId} className="card__title">
        {mutationLabel(rejection.mutation.name)}
      </h2>
      <p className="text-muted">
        Record {record} · saved {formatDateTime(rejection.mutation.clientTime)} · refused{' '}
        {formatDateTime(rejection.rejectedAt)}
      </p>
      <p className={styles.reason}>{rejectionReason(rejection)}</p>
      <dl className={styles.data}>
        {entries(rejection).map(([key, value]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt>{key}</dt>
            <dd>{show(value)}</dd>
          </div>
        ))}
      </dl>
      {rejection.conflicts.length > 0 ? (
        <ul>
          {rejection.conflicts.map((c) => (
            <li key={c.field}>
              {c.field}: the server had {show(c.serverValue)}, you entered {show(c.clientValue)}
            </li>
          ))}
        </ul>
      ) : null}
      {rejection.dismissedAt === null ? (
        <button type="button" className="button button--secondary" onClick={onDismiss}>
          Dismiss
        </button>
      ) : (
        <p className="text-muted">Dismissed {formatDateTime(rejection.dismissedAt)}</p>
      )}
    </li>
  );
}

export function SyncInbox() {
  const session = useSyncSession();
  const list = useRejections();
  return (
    <main className="page">
      <Link to="/" className="text-link">
        <ArrowLeft aria-hidden="true" size={20} />
        Back to Home
      </Link>
      <h1 className="section-title">Changes not accepted</h1>
      <p>
        The server refused these changes, so they are not in the shared records. They are kept here
        with what you entered so you can enter them again correctly or tell your administrator.
      </p>
      {list === undefined ? (
        <p role="status">Loading…</p>
      ) : list.rejections.length === 0 && list.unreadable === 0 ? (
        <p className="empty-state">No refused changes.</p>
      ) : (
        <ul className={styles.list}>
          {list.rejections.map((rejection) => (
            <RejectionItem
              key={rejection.mutationId}
              rejection={rejection}
              onDismiss={() => {
                if (session) void dismissRejection(session.db, rejection.mutationId);
              }}
            />
          ))}
        </ul>
      )}
      {list && list.unreadable > 0 ? (
        <p className="text-danger">{`${String(list.unreadable)} refused ${list.unreadable === 1 ? 'change was' : 'changes were'} saved by another version of the app and cannot be shown.`}</p>
      ) : null}
    </main>
  );
}
