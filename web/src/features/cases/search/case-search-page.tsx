// Cases Logged (/case-search): find a case by number, patient, incident type, date, status
// or responder. Online, the server's results (a page at a time) merged with cases made on
// this device that the server has not sent back yet; offline (or when the server cannot be
// reached), the cases this device holds, searched the same way (sync-protocol case/search).
import {
  compareCasesNewestFirst,
  hasCaseSearchFilters,
  type CaseSearchFilters,
} from '@rescuelog/sync-protocol/cases/search';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { CASE_ACCESS } from '@rescuelog/sync-protocol/cases/case';
import { AlertTriangle, CloudOff, Info } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import {
  mergeCaseLists,
  useDeviceCaseSearch,
  usePendingRecordIds,
  type DeviceCaseSearch,
} from '@/lib/local-cases';
import { useOnline } from '@/lib/sync/use-sync';
import { CaseResultCard } from './case-result-card';
import { CaseSearchForm } from './case-search-form';
import { filtersToParams, readFilters } from './search-params';
import { useServerCaseSearch } from './use-server-case-search';
import styles from './case-search.module.css';

/** Device results are shown this many at a time (5,000 cards at once would be slow). */
export const DEVICE_PAGE_SIZE = 50;

type Results =
  | { kind: 'loading' }
  /** Offline and this browser keeps no cases. */
  | { kind: 'unavailable' }
  | {
      kind: 'list';
      cases: CaseSummary[];
      source: 'server' | 'device';
      /** Found on the device in all (device lists show a page of them at a time). */
      deviceTotal: number;
    };

function mergeServerAndDevice(
  serverCases: CaseSummary[],
  device: DeviceCaseSearch | null,
  morePages: boolean,
): CaseSummary[] {
  if (!device) return serverCases;
  const onServerList = new Set(serverCases.map((c) => c.caseId));
  // Cases the server has never sent this device join the list, but only among the pages
  // already loaded: one older than the last server row would jump when the next page came.
  const last = serverCases.at(-1);
  const belongs = (c: CaseSummary) => !morePages || !last || compareCasesNewestFirst(c, last) <= 0;
  // The device's copy of a listed case replaces the server's (it has the unsynced changes).
  const fromDevice = device.cases.filter(
    (c) => onServerList.has(c.caseId) || (device.deviceOnlyIds.has(c.id) && belongs(c)),
  );
  return mergeCaseLists(fromDevice, serverCases);
}

export function CaseSearchPage() {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const { filters, errors } = useMemo(
    () => readFilters(new URLSearchParams(paramsKey)),
    [paramsKey],
  );
  const online = useOnline();
  const device = useDeviceCaseSearch(filters);
  const server = useServerCaseSearch(filters, online);
  const pending = usePendingRecordIds();
  const { data: user } = useUser();
  const [deviceShown, setDeviceShown] = useState(DEVICE_PAGE_SIZE);

  const serverCases = useMemo(
    () => server.data?.pages.flatMap((p) => p.cases) ?? [],
    [server.data],
  );
  const useServer = online && server.isSuccess;
  const results: Results = useMemo(() => {
    if (useServer)
      return {
        kind: 'list',
        source: 'server',
        cases: mergeServerAndDevice(serverCases, device ?? null, server.hasNextPage),
        deviceTotal: device?.total ?? 0,
      };
    if (device === undefined) return { kind: 'loading' };
    if (device === null)
      return online && !server.isError ? { kind: 'loading' } : { kind: 'unavailable' };
    return {
      kind: 'list',
      source: 'device',
      cases: device.cases.slice(0, deviceShown),
      deviceTotal: device.total,
    };
  }, [useServer, serverCases, device, server.hasNextPage, online, server.isError, deviceShown]);

  const onDeviceIds = useMemo(() => new Set(device?.cases.map((c) => c.caseId) ?? []), [device]);
  const seesOnlyOwn = user ? !canSeeAll(user, CASE_ACCESS) : false;

  function search(next: CaseSearchFilters) {
    setDeviceShown(DEVICE_PAGE_SIZE);
    setParams(filtersToParams(next), { replace: true });
  }

  return (
    <>
      <PageHeader title="Cases Logged" />
      <main className={`page ${styles.search}`}>
        <CaseSearchForm key={paramsKey} filters={filters} errors={errors} onSearch={search} />

        {seesOnlyOwn ? (
          <p className={`${styles.notice} ${styles.noticeInfo}`}>
            <Info aria-hidden="true" size={20} />
            You can see only the cases you logged.
          </p>
        ) : null}
        {!online ? (
          <p className={`${styles.notice} ${styles.noticeWarning}`} role="status">
            <CloudOff aria-hidden="true" size={20} />
            Offline — showing cases on this device
          </p>
        ) : server.isError ? (
          <div className={`${styles.notice} ${styles.noticeDanger}`} role="alert">
            <AlertTriangle aria-hidden="true" size={20} />
            <p>
              Cases could not be loaded from the server ({errorMessage(server.error)}).
              {device ? ' Showing cases on this device.' : ''}
            </p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void server.refetch()}
            >
              Try again
            </button>
          </div>
        ) : server.isPending && device ? (
          <p className={`${styles.notice} ${styles.noticeInfo}`} role="status">
            <span className={styles.busy} aria-hidden="true" />
            Showing cases on this device while the server answers…
          </p>
        ) : null}
        {device && device.unreadable > 0 ? (
          <p className={`${styles.notice} ${styles.noticeWarning}`}>
            <AlertTriangle aria-hidden="true" size={20} />
            {device.unreadable === 1
              ? '1 case on this device could not be read and is not listed.'
              : `${String(device.unreadable)} cases on this device could not be read and are not listed.`}{' '}
            Update the app, or report this to your administrator.
          </p>
        ) : null}

        <section
          className={styles.results}
          aria-labelledby="case-results-title"
          aria-busy={results.kind === 'loading' || server.isFetching}
        >
          <h2 id="case-results-title" className="sr-only">
            Results
          </h2>
          {results.kind === 'loading' ? (
            <Spinner label="Loading cases" />
          ) : results.kind === 'unavailable' ? (
            <p className="empty-state">
              This browser keeps no cases on the device. Connect to the internet to search the cases
              on the server.
            </p>
          ) : (
            <>
              <p className={styles.count} role="status">
                {countText(results, server.hasNextPage)}
              </p>
              {results.cases.length === 0 ? (
                <div className="empty-state">
                  <p className="empty-state__title">No cases found</p>
                  {hasCaseSearchFilters(filters) ? <p>Try fewer filters, or clear them.</p> : null}
                </div>
              ) : (
                <ul className={styles.cardList}>
                  {results.cases.map((c) => (
                    <CaseResultCard
                      key={c.caseId}
                      summary={c}
                      onDevice={onDeviceIds.has(c.caseId)}
                      pending={pending?.has(c.id) ?? false}
                    />
                  ))}
                </ul>
              )}
              {results.source === 'server' && server.hasNextPage ? (
                <button
                  type="button"
                  className="button button--secondary button--block"
                  disabled={server.isFetchingNextPage}
                  onClick={() => void server.fetchNextPage()}
                >
                  {server.isFetchingNextPage ? 'Loading more…' : 'Load more'}
                </button>
              ) : null}
              {results.source === 'device' && results.cases.length < results.deviceTotal ? (
                <button
                  type="button"
                  className="button button--secondary button--block"
                  onClick={() => setDeviceShown((n) => n + DEVICE_PAGE_SIZE)}
                >
                  Show more
                </button>
              ) : null}
            </>
          )}
        </section>
      </main>
    </>
  );
}

function plural(n: number): string {
  return n === 1 ? '1 case' : `${String(n)} cases`;
}

function countText(results: Extract<Results, { kind: 'list' }>, morePages: boolean): string {
  if (results.source === 'device') {
    return results.cases.length < results.deviceTotal
      ? `Showing ${String(results.cases.length)} of ${plural(results.deviceTotal)} on this device`
      : `${plural(results.deviceTotal)} on this device`;
  }
  return morePages
    ? `Showing ${plural(results.cases.length)}; more on the server`
    : plural(results.cases.length);
}
