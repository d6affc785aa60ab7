// /cpr-logs: CPR session history on the list kit (newest first, search by session number or
// location, filters for status and outcome kept in the URL), over the sessions this device
// holds, online and offline. A row opens the session's timeline and summary.
import { cprSessionRecord } from '@rescuelog/sync-protocol/cpr/cpr-session';
import { formatOffset } from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { KindList } from '@/components/record-list/kind-list';
import { PageHeader } from '@/components/ui/page-header';
import styles from '../cpr.module.css';

const STATUS = [
  { value: 'in_progress', label: 'In progress' },
  { value: 'completed', label: 'Ended' },
] as const;
const OUTCOME = [
  { value: 'rosc', label: 'ROSC' },
  { value: 'terminated', label: 'Terminated' },
] as const;

export function CprLogsPage() {
  return (
    <div className="page">
      <PageHeader title="CPR Logs" />
      <main className={styles.main}>
        <KindList
          kind={cprSessionRecord}
          noun={{ one: 'CPR session', many: 'CPR sessions' }}
          searchFields={['sessionId', 'incidentLocation', 'patientAge']}
          filters={[
            { field: 'status', label: 'Status', options: STATUS },
            { field: 'outcome', label: 'Outcome', options: OUTCOME },
          ]}
          sortBy="startTime"
          hrefOf={(r) => `/cpr-logs/${r.sessionId ?? r.id}`}
          renderRow={(r) => (
            <span className={styles.row}>
              <span className={styles.rowTitle}>
                {r.sessionId} · {formatDateTime(r.startTime)}
              </span>
              <span>
                {r.status === 'completed'
                  ? `${r.outcome === 'rosc' ? 'ROSC' : r.outcome === 'terminated' ? 'Terminated' : 'Ended'}${
                      typeof r.totalDuration === 'number'
                        ? ` after ${formatOffset(r.totalDuration * 1000)}`
                        : ''
                    }`
                  : 'In progress'}
                {r.incidentLocation ? ` · ${r.incidentLocation}` : ''}
                {r.patientAge ? ` · age ${r.patientAge}` : ''}
              </span>
            </span>
          )}
          emptyHint="Start the CPR Logger from the dashboard to log an arrest."
        />
      </main>
    </div>
  );
}
