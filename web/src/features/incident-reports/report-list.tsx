// /incident-reports/list: every report this device holds, newest first, on the kit's list
// (components/record-list/kind-list.tsx): words over the number, title, description, place
// and responder; type, priority and status filters; all kept in the URL.
import { incidentReportRecord } from '@rescuelog/sync-protocol/incidents/incident-report';
import {
  INCIDENT_REPORT_TYPES,
  INCIDENT_REPORT_TYPE_LABELS,
} from '@rescuelog/sync-protocol/incidents/incident-types';
import { REPORT_PRIORITIES } from '@rescuelog/sync-protocol/cases/clinical';
import { incidentReportListSchema } from '@rescuelog/sync-protocol/incidents/api';
import { KindList } from '@/components/record-list/kind-list';
import { PageHeader } from '@/components/ui/page-header';
import { PRIORITY_LABELS } from './report-form';
import { ReportSummary, reportPath } from './report-screens';
import type { LocalReport } from './report-writes';
import styles from './incident-reports.module.css';

const FILTERS = [
  {
    field: 'incidentType',
    label: 'Type',
    options: INCIDENT_REPORT_TYPES.map((t) => ({
      value: t,
      label: INCIDENT_REPORT_TYPE_LABELS[t],
    })),
  },
  {
    field: 'priority',
    label: 'Priority',
    options: REPORT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
  },
  {
    field: 'status',
    label: 'Status',
    options: [
      { value: 'in_progress', label: 'In Progress' },
      { value: 'completed', label: 'Completed' },
    ],
  },
] as const;

export function IncidentReportList() {
  return (
    <>
      <PageHeader
        title="Incident Reports List"
        back={{ to: '/incident-reports', label: 'Incident Reports' }}
      />
      <main className={`page ${styles.page}`}>
        <KindList
          kind={incidentReportRecord}
          noun={{ one: 'incident report', many: 'incident reports' }}
          searchFields={[
            'incidentId',
            'title',
            'description',
            'location',
            'responderName',
            'responderCallSign',
          ]}
          filters={FILTERS}
          textFilters={[
            {
              param: 'responder',
              label: 'Responder',
              fields: ['responderName', 'responderCallSign'],
            },
          ]}
          dateFilter={{ field: 'createdAt', label: 'Reported' }}
          sortBy="createdAt"
          server={{ path: '/api/incident-reports', schema: incidentReportListSchema }}
          hrefOf={(r) => reportPath(r.id)}
          renderRow={(r) => <ReportSummary report={r as LocalReport} />}
          emptyHint="Start a report from Incident Reports."
        />
      </main>
    </>
  );
}
