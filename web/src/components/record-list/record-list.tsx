// The list scaffold every log screen is built from (Cases Logged; inventory, CPR, MCI and
// incident report logs next). The screen brings its filters, its row layout and its two
// sources; the scaffold does the rest. Online, the server's pages (a page at a time, "Load
// more") merged with what this device holds (lib/list-merge.ts); offline, or while the
// server fails or has not answered, the device's records, a page at a time ("Show more").
// The states: loading, empty (with what to do about it), offline, a server failure with
// "Try again", rows this device could not read, no local database, and per row a "Not yet
// synced" or "not accepted" mark (the outbox and the refusals read once for the whole list).
// Decision 058.
import { pendingRecordIds } from '@rescuelog/sync-protocol/client/outbox';
import { useLiveQuery } from 'dexie-react-hooks';
import { AlertTriangle, ChevronRight, CloudOff } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SyncMarks } from '@/components/record-form/record-sync-mark';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import { mergeServerAndDevice } from '@/lib/list-merge';
import type { ServerList } from '@/lib/server-list';
import { useOnline, useRejections, useSyncSession } from '@/lib/sync/use-sync';
import type { DeviceList } from './use-device-list';
import styles from './record-list.module.css';

/** Device results are shown this many at a time (5,000 cards at once would be slow). */
export const DEVICE_PAGE_SIZE = 50;

export interface RowState {
  /** This device holds the record (it can open it offline, and edit it). */
  onDevice: boolean;
  /** The server has not acknowledged this device's changes to it. */
  pending: boolean;
}

export interface RecordListProps<T> {
  /** How the list names its records: { one: 'case', many: 'cases' }. */
  noun: { one: string; many: string };
  /** The device's matches in the list's order; undefined while loading, null: no local database. */
  device: DeviceList<T> | null | undefined;
  /** The server's pages (lib/server-list.ts); without one the list is the device's alone. */
  server?: ServerList<T>;
  /** Identity of a row across the two sources (a case number, an id). */
  keyOf: (item: T) => string;
  /** The record's id: for its sync mark and the device's sets. */
  idOf: (item: T) => string;
  /** The list's order (newest first): negative when `a` comes first. */
  compare: (a: T, b: T) => number;
  /** Where a row opens. */
  hrefOf: (item: T, state: RowState) => string;
  /** The row's content inside its card (the card, its link and its sync mark are the kit's). */
  renderRow: (item: T, state: RowState) => ReactNode;
  /**
   * Controls of the row's own, beside its link in the card (a control inside a link is no
   * control): e.g. one-tap +/- buttons. Each at least 48 px, labelled with the row it acts on.
   */
  renderActions?: (item: T, state: RowState) => ReactNode;
  /** Whether any filter is set: the empty state then suggests fewer. */
  filtered: boolean;
  /** Changes whenever the filters do: device paging starts over. */
  filtersKey: string;
  /** What to do when there are none at all (e.g. "Log one with New case."). */
  emptyHint?: string;
}

function countOf(n: number, noun: { one: string; many: string }): string {
  return n === 1 ? `1 ${noun.one}` : `${String(n)} ${noun.many}`;
}

/** Ids of records with changes the server has not acknowledged (one read for the list). */
function usePendingRecordIds(): ReadonlySet<string> | undefined {
  const session = useSyncSession();
  return useLiveQuery(
    async () => (session ? pendingRecordIds(session.db) : new Set<string>()),
    [session],
  );
}

/** Not-accepted changes per record id, from one read of the refusals. */
function useRefusalsById(): ReadonlyMap<string, number> {
  const list = useRejections();
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const r of list?.rejections ?? [])
      if (r.dismissedAt === null)
        for (const id of r.mutation.entityIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }, [list]);
}

export function RecordList<T>(props: RecordListProps<T>) {
  const { noun, device, server, filtersKey } = props;
  const online = useOnline();
  const pending = usePendingRecordIds();
  const refusals = useRefusalsById();
  // Device paging restarts with new filters (state keyed by them, no effect needed).
  const [shown, setShown] = useState({ key: filtersKey, count: DEVICE_PAGE_SIZE });
  const deviceShown = shown.key === filtersKey ? shown.count : DEVICE_PAGE_SIZE;

  const useServer = server !== undefined && server.status === 'success';
  const rows = useMemo(() => {
    if (useServer) return mergeServerAndDevice(server.items, device, server.hasMore, props);
    return device ? device.items.slice(0, deviceShown) : [];
    // props' functions are the screen's; the lists decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [useServer, server?.items, server?.hasMore, device, deviceShown]);
  const onDevice = useMemo(
    () => new Set(device?.items.map((item) => props.keyOf(item)) ?? []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [device],
  );

  const serverWaiting = server !== undefined && server.status === 'pending';
  const loading = !useServer && (device === undefined || (device === null && serverWaiting));
  const unavailable = !useServer && device === null && !serverWaiting;
  const deviceTotal = device?.items.length ?? 0;

  const countText = useServer
    ? server.hasMore
      ? `Showing ${countOf(rows.length, noun)}; more on the server`
      : countOf(rows.length, noun)
    : rows.length < deviceTotal
      ? `Showing ${String(rows.length)} of ${countOf(deviceTotal, noun)} on this device`
      : `${countOf(deviceTotal, noun)} on this device`;

  return (
    <>
      <ListNotices {...props} online={online} />
      <section
        className={styles.results}
        aria-labelledby="record-list-results"
        aria-busy={loading || server?.fetching === true}
      >
        <h2 id="record-list-results" className="sr-only">
          Results
        </h2>
        {loading ? (
          <Spinner label={`Loading ${noun.many}`} />
        ) : unavailable ? (
          <p className="empty-state">
            This browser keeps no {noun.many} on the device.
            {server
              ? ` Connect to the internet to search the ${noun.many} on the server.`
              : ' Use a browser that allows site storage (not a private window).'}
          </p>
        ) : (
          <>
            <p className={styles.count} role="status">
              {countText}
            </p>
            {rows.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">No {noun.many} found</p>
                {props.filtered ? (
                  <p>Try fewer filters, or clear them.</p>
                ) : props.emptyHint ? (
                  <p>{props.emptyHint}</p>
                ) : null}
              </div>
            ) : (
              <ul className={styles.list}>
                {rows.map((item) => {
                  const id = props.idOf(item);
                  const state: RowState = {
                    onDevice: onDevice.has(props.keyOf(item)),
                    pending: pending?.has(id) ?? false,
                  };
                  const refused = refusals.get(id) ?? 0;
                  const actions = props.renderActions?.(item, state);
                  return (
                    <li
                      key={props.keyOf(item)}
                      className={actions ? styles.withActions : undefined}
                    >
                      <Link to={props.hrefOf(item, state)} className={styles.card}>
                        <span className={styles.cardMain}>
                          {props.renderRow(item, state)}
                          {state.pending || refused > 0 ? (
                            <span className={styles.sync}>
                              <SyncMarks pending={state.pending} notAccepted={refused} inRow />
                            </span>
                          ) : null}
                        </span>
                        <ChevronRight aria-hidden="true" size={24} className={styles.chevron} />
                      </Link>
                      {actions ? <div className={styles.actions}>{actions}</div> : null}
                    </li>
                  );
                })}
              </ul>
            )}
            {useServer && server.hasMore ? (
              <button
                type="button"
                className="button button--secondary button--block"
                disabled={server.loadingMore}
                onClick={server.loadMore}
              >
                {server.loadingMore ? 'Loading more…' : 'Load more'}
              </button>
            ) : null}
            {!useServer && rows.length < deviceTotal ? (
              <button
                type="button"
                className="button button--secondary button--block"
                onClick={() => setShown({ key: filtersKey, count: deviceShown + DEVICE_PAGE_SIZE })}
              >
                Show more
              </button>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}

/** A notice above a list (e.g. "You can see only the cases you logged."). */
export function ListNotice({ tone, children }: { tone: 'info' | 'warning'; children: ReactNode }) {
  return (
    <p className={cx(styles.notice, tone === 'info' ? styles.noticeInfo : styles.noticeWarning)}>
      {children}
    </p>
  );
}

/** Where the rows come from, when that is not the server's full answer, and what went wrong. */
function ListNotices<T>({
  noun,
  device,
  server,
  online,
}: RecordListProps<T> & { online: boolean }) {
  return (
    <>
      {!online ? (
        <p className={`${styles.notice} ${styles.noticeWarning}`} role="status">
          <CloudOff aria-hidden="true" size={20} />
          Offline — showing {noun.many} on this device
        </p>
      ) : server?.status === 'error' ? (
        <div className={`${styles.notice} ${styles.noticeDanger}`} role="alert">
          <AlertTriangle aria-hidden="true" size={20} />
          <p>
            {noun.many.charAt(0).toUpperCase() + noun.many.slice(1)} could not be loaded from the
            server ({errorMessage(server.error)}).
            {device ? ` Showing ${noun.many} on this device.` : ''}
          </p>
          <button type="button" className="button button--secondary" onClick={server.retry}>
            Try again
          </button>
        </div>
      ) : server?.status === 'pending' && device ? (
        <p className={`${styles.notice} ${styles.noticeInfo}`} role="status">
          <span className={styles.busy} aria-hidden="true" />
          Showing {noun.many} on this device while the server answers…
        </p>
      ) : null}
      {device && device.unreadable > 0 ? (
        <p className={`${styles.notice} ${styles.noticeWarning}`}>
          <AlertTriangle aria-hidden="true" size={20} />
          {device.unreadable === 1
            ? `1 ${noun.one} on this device could not be read and is not listed.`
            : `${String(device.unreadable)} ${noun.many} on this device could not be read and are not listed.`}{' '}
          Update the app, or report this to your administrator.
        </p>
      ) : null}
    </>
  );
}
