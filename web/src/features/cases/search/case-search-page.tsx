// Cases Logged (/case-search): find a case by number, patient, incident type, date, status
// or responder. Built on the list scaffold (components/record-list): online, the server's
// results (a page at a time) merged with cases made on this device that the server has not
// sent back yet; offline (or when the server cannot be reached), the cases this device
// holds, searched the same way (sync-protocol cases/device-search, over the case summaries).
import {
  compareCasesNewestFirst,
  hasCaseSearchFilters,
} from '@rescuelog/sync-protocol/cases/search';
import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { CASE_ACCESS } from '@rescuelog/sync-protocol/cases/case';
import { Info } from 'lucide-react';
import { useMemo } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { ListNotice, RecordList } from '@/components/record-list/record-list';
import type { DeviceList } from '@/components/record-list/use-device-list';
import { useUser } from '@/lib/auth';
import { useListParams } from '@/lib/list-params';
import { useDeviceCaseSearch } from '@/lib/local-cases';
import { useServerList } from '@/lib/server-list';
import { CaseResultCard, caseResultLink } from './case-result-card';
import { CaseSearchForm } from './case-search-form';
import { filtersToParams, readFilters } from './search-params';
import styles from './case-search.module.css';

const NOUN = { one: 'case', many: 'cases' };
const keyOf = (c: CaseSummary) => c.caseId;
const idOf = (c: CaseSummary) => c.id;

export function CaseSearchPage() {
  const { parsed, key, apply } = useListParams(readFilters);
  const { filters, errors } = parsed;
  const search = useDeviceCaseSearch(filters);
  const device = useMemo(
    (): DeviceList<CaseSummary> | null | undefined =>
      search && {
        items: search.cases,
        unreadable: search.unreadable,
        deviceOnlyIds: search.deviceOnlyIds,
      },
    [search],
  );
  const params = useMemo(() => filtersToParams(filters), [filters]);
  const server = useServerList({ path: '/api/cases', params, schema: caseListSchema });
  const { data: user } = useUser();
  const seesOnlyOwn = user ? !canSeeAll(user, CASE_ACCESS) : false;

  return (
    <>
      <PageHeader title="Cases Logged" />
      <main className={`page ${styles.search}`}>
        <CaseSearchForm
          key={key}
          filters={filters}
          errors={errors}
          onSearch={(next) => apply(filtersToParams(next))}
        />
        {seesOnlyOwn ? (
          <ListNotice tone="info">
            <Info aria-hidden="true" size={20} />
            You can see only the cases you logged.
          </ListNotice>
        ) : null}
        <RecordList
          noun={NOUN}
          device={device}
          server={server}
          keyOf={keyOf}
          idOf={idOf}
          compare={compareCasesNewestFirst}
          hrefOf={(c, row) => caseResultLink(c, row.onDevice)}
          renderRow={(c) => <CaseResultCard summary={c} />}
          filtered={hasCaseSearchFilters(filters)}
          filtersKey={key}
        />
      </main>
    </>
  );
}
