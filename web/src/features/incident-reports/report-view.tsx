// /incident-reports/report/{id}: the report as this device holds it (live). In progress: the
// form (saved as the user goes) and "Complete report" with what is still missing, each a link
// to its field. Completed: read-only, with its addenda (reason, author, before/after) and
// "Add addendum". The PDF is made on the device through the one PDF module.
import { addendumAuthorLabel } from '@rescuelog/sync-protocol/cases/addendum-author';
import { validateIncidentReportForCompletion } from '@rescuelog/sync-protocol/incidents/completion';
import { incidentReportFieldsSchema } from '@rescuelog/sync-protocol/incidents/incident-report';
import { INCIDENT_REPORT_CORRECTABLE_FIELDS } from '@rescuelog/sync-protocol/incidents/incident-report-addendum';
import { incidentTypeLabel } from '@rescuelog/sync-protocol/incidents/incident-types';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { FileDown, FilePlus2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router-dom';
import { AddendaList } from '@/components/record-form/addenda/addenda-list';
import { AddendumForm, type AddendumFields } from '@/components/record-form/addenda/addendum-form';
import { fieldKinds } from '@/components/record-form/addenda/field-kinds';
import { CompleteAndLock } from '@/components/record-form/complete-and-lock';
import { nestedFieldId } from '@/components/record-form/nested-fields';
import { RecordSaveError, recordFieldId } from '@/components/record-form/record-form-provider';
import { RecordSyncMark } from '@/components/record-form/record-sync-mark';
import { RecordConflicts } from '@/components/record-form/record-conflicts';
import { PageHeader } from '@/components/ui/page-header';
import { useUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { useServiceSettings } from '@/lib/service-settings';
import { readStoredSettings } from '@/lib/stored-settings';
import { useLocalList } from '@/lib/sync/use-local-records';
import { Report, ReportFields } from './report-form';
import { StatusPill } from './report-screens';
import {
  addIncidentReportAddendum,
  completeIncidentReport,
  type LocalReport,
  type LocalReportAddendum,
} from './report-writes';
import { formatReportValue, reportFieldLabel } from './report-values';
import styles from './incident-reports.module.css';

function problemHref(field: string): string {
  return field.startsWith('typeSpecificData.')
    ? `#${nestedFieldId('typeSpecificData', field.slice('typeSpecificData.'.length))}`
    : `#${recordFieldId(field)}`;
}

function CompletionPanel({ record }: { record: LocalReport }) {
  const problems = validateIncidentReportForCompletion(record);
  return (
    <CompleteAndLock
      title="Complete report"
      note="Everything is saved on this device as you go. Completing the report locks it; corrections after that are addenda with a reason."
      missing={problems.map((p) => ({
        key: p.field,
        group: p.group,
        message: p.message,
        href: problemHref(p.field),
      }))}
      groups={[
        { key: 'details', title: 'Report details' },
        { key: 'type', title: `${incidentTypeLabel(record.incidentType)} details` },
      ]}
      confirmTitle="Complete and lock this report?"
      confirmDescription={`Report ${record.incidentId ?? ''} becomes read-only. Corrections after this are addenda: who, when, why, and each field before and after.`}
      confirmLabel="Complete and lock"
      buttonLabel="Complete report"
      readyText="Everything needed to complete this report is recorded."
      errorText="Could not complete the report on this device"
      stillMissing={() => validateIncidentReportForCompletion(record).length}
      onComplete={async () => {
        await completeIncidentReport(record);
        toast({
          title: 'Report completed',
          description: `Report ${record.incidentId ?? ''} is locked. Corrections are added as addenda.`,
        });
      }}
    />
  );
}

const ADDENDUM_FIELDS: AddendumFields = {
  groups: [
    {
      title: 'Report',
      fields: INCIDENT_REPORT_CORRECTABLE_FIELDS.filter((f) => f !== 'mediaUrls'),
    },
  ],
  label: reportFieldLabel,
  format: formatReportValue,
  kinds: fieldKinds(
    incidentReportFieldsSchema,
    (field) => field === 'incidentStartTime' || field === 'incidentEndTime',
  ),
};

function Addenda({ record }: { record: LocalReport }) {
  const [adding, setAdding] = useState(false);
  const { data: user } = useUser();
  const list = useLocalList('incidentReportAddendum', {
    where: 'incidentReportId',
    equals: record.id,
    sortBy: 'createdAt',
  });
  const authorName = useCallback(
    (a: LocalReportAddendum) =>
      addendumAuthorLabel(a) ??
      (user && a.userId === user.id
        ? (addendumAuthorLabel({ authorName: user.fullName, authorCallSign: user.callSign }) ??
          'You')
        : a.userId === undefined
          ? 'Unknown author'
          : `User ${String(a.userId)}`),
    [user],
  );
  return (
    <section className="card" aria-labelledby="addenda-heading">
      <div className={styles.sectionTop}>
        <h2 id="addenda-heading" className={styles.heading}>
          Addenda
        </h2>
        {!adding ? (
          <button type="button" className="button" onClick={() => setAdding(true)}>
            <FilePlus2 size={20} aria-hidden="true" /> Add addendum
          </button>
        ) : null}
      </div>
      {adding ? (
        <AddendumForm
          record={record}
          fields={ADDENDUM_FIELDS}
          onSave={(reason, changes, signer) =>
            addIncidentReportAddendum(record, reason, changes, signer)
          }
          onDone={() => setAdding(false)}
        />
      ) : null}
      {list === undefined ? (
        <p role="status">Loading addenda…</p>
      ) : (
        <AddendaList
          addenda={list.records}
          authorName={authorName}
          label={reportFieldLabel}
          format={formatReportValue}
        />
      )}
    </section>
  );
}

function PdfButton({ record }: { record: LocalReport }) {
  const [busy, setBusy] = useState(false);
  // The organisation's name and logo (system settings; the device's last copy offline).
  const { data: settings } = useServiceSettings();
  const known = settings ?? readStoredSettings();
  const header = {
    organisation: known?.organisationName ?? null,
    logoUrl: known?.organisationLogoUrl ?? null,
  };
  return (
    <button
      type="button"
      className="button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        import('./report-pdf')
          .then(({ downloadReportPdf }) => downloadReportPdf(record, header))
          .catch((error: unknown) =>
            toast({
              title: 'Could not make the PDF',
              description: error instanceof Error ? error.message : String(error),
              variant: 'destructive',
            }),
          )
          .finally(() => setBusy(false));
      }}
    >
      <FileDown size={20} aria-hidden="true" /> {busy ? 'Making the PDF…' : 'PDF'}
    </button>
  );
}

function ReportBody() {
  const { record, readOnly } = Report.useForm();
  const report = record as LocalReport;
  return (
    <>
      <div
        className={styles.reportTop}
        role="group"
        aria-label={`Report ${report.incidentId ?? ''}`}
      >
        <p className={styles.reportLine}>
          <strong>{report.incidentId}</strong> · {incidentTypeLabel(report.incidentType)}{' '}
          <StatusPill status={report.status} />
        </p>
        <RecordSyncMark recordId={report.id} showSynced />
        <PdfButton record={report} />
      </div>
      {readOnly ? (
        <p className={styles.muted}>
          Completed {formatDateTime(report.completedAt, '(time not known yet)')}. Read-only:
          corrections are addenda.
        </p>
      ) : null}
      <RecordSaveError />
      <RecordConflicts kind="incidentReport" recordId={report.id} />
      <ReportFields type={report.incidentType} />
      {readOnly ? <Addenda record={report} /> : <CompletionPanel record={report} />}
    </>
  );
}

export function IncidentReportView() {
  const { id } = useParams();
  return (
    <>
      <PageHeader
        title="Incident Report"
        back={{ to: '/incident-reports', label: 'Incident Reports' }}
      />
      <main className={`page ${styles.page}`}>
        <Report.Form id={id}>
          <ReportBody />
        </Report.Form>
      </main>
    </>
  );
}
