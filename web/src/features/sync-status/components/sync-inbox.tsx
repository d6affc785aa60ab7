// The rejected-changes inbox (/sync-inbox): every change the server acknowledged but refused,
// with the reason and the data the user entered, so nothing disappears silently. Dismissing
// marks it read; the row and its data stay on the device.
import { dismissRejection, type Rejection } from '@rescuelog/sync-protocol/client/outbox';
import { isSetAside } from '@rescuelog/sync-protocol/client/set-aside';
import {
  REJECTION_MESSAGES,
  type RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { valueText } from '@/components/record-form/value-text';
import { useOpenConflicts } from '@/lib/sync/use-local-records';
import { trySetAsideChangesAgain } from '@/lib/sync/sync-session';
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

/**
 * "Try again" for a change the device set aside: its group (it and the later changes to the
 * same record, which waited with it) is saved again in order and sent. A change the device
 * can now tell would be refused (the record was completed meanwhile, say) is refused here,
 * with the reason, and the group stays.
 */
function TryAgain({ rejection }: { rejection: Rejection }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const head = rejection.setAsideWith ?? rejection.mutationId;
  return (
    <>
      <button
        type="button"
        className="button button--primary"
        disabled={state.busy}
        onClick={() => {
          setState({ busy: true, error: null });
          trySetAsideChangesAgain(head).then(
            () => setState({ busy: false, error: null }),
            (error: unknown) =>
              setState({
                busy: false,
                error: `Could not save it again: ${error instanceof Error ? error.message : String(error)}`,
              }),
          );
        }}
      >
        {state.busy ? 'Saving again…' : 'Try again'}
      </button>
      {state.error ? (
        <p role="alert" className={styles.reason}>
          {state.error}
        </p>
      ) : null}
    </>
  );
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
      {isSetAside(rejection) ? <TryAgain rejection={rejection} /> : null}
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

/**
 * Open conflicts the signed-in user is part of (decision 015): both values are kept, an
 * administrator decides; shown here so a replaced value is never a silent overwrite.
 */
function OpenConflicts() {
  const session = useSyncSession();
  const conflicts = useOpenConflicts();
  if (!conflicts || conflicts.length === 0) return null;
  const me = session?.userId;
  return (
    <section aria-labelledby="open-conflicts-title">
      <h2 id="open-conflicts-title" className="section-title">
        Changed on two devices at once
      </h2>
      <p>
        You and another person changed the same field before either device had synced. The later
        value is kept for now and yours is saved with it; an administrator decides which to keep.
      </p>
      <ul className={styles.list}>
        {conflicts.map((c) => {
          const kind = c.recordKind ?? '';
          const def = appRegistry.has(kind) ? appRegistry.get(kind) : undefined;
          const label = def?.label ?? kind;
          const field = def?.fieldLabels?.[c.field ?? ''] ?? c.field;
          const mine = c.serverAuthor === me ? c.serverValue : c.clientValue;
          const theirs = c.serverAuthor === me ? c.clientValue : c.serverValue;
          const other = c.serverAuthor === me ? c.clientAuthorName : c.serverAuthorName;
          return (
            <li key={c.id} className="card">
              <h3 className="card__title">
                {label.charAt(0).toUpperCase() + label.slice(1)}: {field}
              </h3>
              <p className="text-muted">
                {c.createdAt ? `Noticed ${formatDateTime(c.createdAt)}` : null}
              </p>
              <dl className={styles.data}>
                <dt>You entered</dt>
                <dd>{valueText(mine)}</dd>
                <dt>{other ?? 'Another responder'} entered</dt>
                <dd>{valueText(theirs)}</dd>
              </dl>
            </li>
          );
        })}
      </ul>
    </section>
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
        The server refused these changes, or could not store them, so they are not in the shared
        records. They are kept here with what you entered so you can enter them again correctly, try
        again, or tell your administrator.
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
      <OpenConflicts />
      {list && list.unreadable > 0 ? (
        <p className="text-danger">{`${String(list.unreadable)} refused ${list.unreadable === 1 ? 'change was' : 'changes were'} saved by another version of the app and cannot be shown.`}</p>
      ) : null}
    </main>
  );
}
