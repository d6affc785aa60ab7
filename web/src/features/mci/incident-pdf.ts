// The incident summary as a PDF made on the device (offline) through the one PDF module
// (lib/pdf): METHANE, the counts, every casualty with colour, status and linked case, and
// each casualty's triage history. Loaded only when someone taps "Save as PDF".
import { colourLabel, methaneLines } from '@rescuelog/sync-protocol/mci/triage';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { ReportContent } from '@/lib/pdf/report-layout';
import { reportFileName, reportPdfBlob } from '@/lib/pdf/report-pdf';
import { elapsed } from './command-board';
import { methaneOf } from './methane-panel';
import { sortBoard, type IncidentBoard } from './use-incident-board';

export function incidentReport(board: IncidentBoard): ReportContent {
  const { incident, counts } = board;
  const scale = incident.triageScale ?? 'START';
  const rows = sortBoard(board.rows, 'tag');
  return {
    title: `Mass-casualty incident ${incident.incidentId ?? ''}`,
    subtitle: `${incident.incidentType ?? 'Type not given'} · started ${formatDateTime(incident.startedAt)}${
      incident.endedAt
        ? ` · ended ${formatDateTime(incident.endedAt)} (${elapsed(incident.startedAt, incident.endedAt, 0)})`
        : ' · running'
    }`,
    footerNote: `Confidential patient information (POPIA). Incident ${incident.incidentId ?? ''}.`,
    blocks: [
      { kind: 'heading', text: 'METHANE' },
      {
        kind: 'rows',
        rows: methaneLines(methaneOf(incident), counts).map((line) => {
          const [label = '', ...rest] = line.split(': ');
          return { label, value: rest.join(': ') };
        }),
      },
      { kind: 'heading', text: 'Counts' },
      {
        kind: 'rows',
        rows: [
          ...Object.entries(counts.byColour)
            .filter(([, n]) => n > 0)
            .map(([colour, n]) => ({ label: colour, value: String(n) })),
          { label: 'Total', value: String(counts.total) },
          { label: 'On scene', value: String(counts.onScene) },
          { label: 'Transported', value: String(counts.transported) },
          { label: 'Unassigned', value: String(counts.unassigned) },
        ],
      },
      { kind: 'heading', text: 'Casualties' },
      {
        kind: 'table',
        columns: [
          { header: 'Tag', width: 0.14 },
          { header: 'Colour', width: 0.2 },
          { header: 'Description', width: 0.3 },
          { header: 'Status', width: 0.36 },
        ],
        rows: rows.map((r) => [
          r.tag,
          `${r.colour} ${colourLabel(r.colour, scale)}${r.triage.conflict ? ' (conflict)' : ''}`,
          r.casualty.description ?? '',
          r.transported
            ? `Transported${r.casualty.ambulance ? ` by ${r.casualty.ambulance}` : ''}${r.casualty.transportDestination ? ` to ${r.casualty.transportDestination}` : ''}`
            : r.assignedTo
              ? `On scene with ${r.assignedTo}`
              : 'On scene',
        ]),
      },
      { kind: 'heading', text: 'Triage history' },
      {
        kind: 'table',
        columns: [
          { header: 'Tag', width: 0.14 },
          { header: 'Time', width: 0.26 },
          { header: 'Colour', width: 0.2 },
          { header: 'By / how', width: 0.4 },
        ],
        rows: rows.flatMap((r) =>
          r.triage.history.map((t) => [
            r.tag,
            formatDateTime(t.triagedAt),
            t.colour,
            [
              t.responderName ?? '',
              t.method && t.method !== 'tag' ? t.method : '',
              t.proposedColour && t.proposedColour !== t.colour
                ? `proposed ${t.proposedColour}, overridden`
                : '',
            ]
              .filter(Boolean)
              .join(', '),
          ]),
        ),
      },
    ],
  };
}

export function incidentPdfBlob(
  board: IncidentBoard,
  organisation: string | null,
  logoUrl: string | null,
): Promise<Blob> {
  return reportPdfBlob(incidentReport(board), { organisation, logoUrl });
}

/** e.g. incident-I-2612-7Q4M.pdf */
export function incidentPdfFileName(incidentId: string | undefined): string {
  return reportFileName('incident', incidentId ?? 'incident');
}
