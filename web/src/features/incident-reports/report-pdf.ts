// The incident report as a PDF, made on the device through the one PDF module (lib/pdf):
// the common fields, the type's own fields, the notes, and each addendum.
import { incidentTypeLabel } from '@rescuelog/sync-protocol/incidents/incident-types';
import { addendumAuthorLabel } from '@rescuelog/sync-protocol/cases/addendum-author';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { ReportBlock, ReportContent } from '@/lib/pdf/report-layout';
import { reportFileName, reportPdfBlob } from '@/lib/pdf/report-pdf';
import { requireSyncSession } from '@/lib/sync/sync-session';
import { parseAppRecords } from '@rescuelog/sync-protocol/records/registry';
import type { LocalReport, LocalReportAddendum } from './report-writes';
import { formatReportValue, reportFieldLabel, typeDataRows } from './report-values';

const COMMON = [
  'title',
  'priority',
  'location',
  'latitude',
  'longitude',
  'responderName',
  'responderCallSign',
  'incidentStartTime',
  'incidentEndTime',
] as const;

export function reportContent(
  report: LocalReport,
  addenda: readonly LocalReportAddendum[],
): ReportContent {
  const blocks: ReportBlock[] = [
    {
      kind: 'rows',
      rows: [
        { label: 'Report number', value: report.incidentId ?? '' },
        { label: 'Type', value: incidentTypeLabel(report.incidentType) },
        { label: 'Status', value: report.status === 'completed' ? 'Completed' : 'In progress' },
        ...COMMON.map((f) => ({
          label: reportFieldLabel(f),
          value: formatReportValue(f, report[f]),
        })),
      ],
    },
    { kind: 'heading', text: 'Description' },
    { kind: 'paragraph', text: report.description?.trim() || 'Not recorded' },
    { kind: 'heading', text: `${incidentTypeLabel(report.incidentType)} details` },
    { kind: 'rows', rows: typeDataRows(report.incidentType, report.typeSpecificData) },
    { kind: 'heading', text: 'Additional notes' },
    { kind: 'paragraph', text: report.additionalNotes?.trim() || 'None' },
  ];
  const live = addenda.filter((a) => !a.deletedAt);
  if (live.length > 0) {
    blocks.push({ kind: 'heading', text: 'Addenda' });
    live.forEach((a, i) => {
      blocks.push({
        kind: 'paragraph',
        text: `Addendum ${String(i + 1)} · ${formatDateTime(a.createdAt)} · ${addendumAuthorLabel(a) ?? `User ${String(a.userId ?? '?')}`} · Reason: ${a.reason ?? ''}`,
      });
      blocks.push({
        kind: 'table',
        columns: [
          { header: 'Field', width: 0.25 },
          { header: 'Before', width: 0.375 },
          { header: 'After', width: 0.375 },
        ],
        rows: (a.changes ?? []).map((c) => [
          reportFieldLabel(c.field),
          formatReportValue(c.field, c.before),
          formatReportValue(c.field, c.after),
        ]),
      });
    });
  }
  return {
    title: `Incident report ${report.incidentId ?? ''}`,
    subtitle: report.title ?? undefined,
    blocks,
  };
}

export async function downloadReportPdf(
  report: LocalReport,
  header: { organisation: string | null; logoUrl: string | null },
): Promise<void> {
  const session = requireSyncSession();
  const rows = await session.db
    .records('incidentReportAddendum')
    .where('incidentReportId')
    .equals(report.id)
    .toArray();
  const addenda = parseAppRecords('incidentReportAddendum', rows);
  const blob = await reportPdfBlob(reportContent(report, addenda), header);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = reportFileName('incident-report', report.incidentId ?? report.id);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
