// The handover summary as a PDF made on the device (offline, no server): the same ISBAR
// sections and lines as the screen and the printed page, described as a report and drawn by
// the shared report layout (lib/pdf, decision 054), which shrinks the text (10 pt down to
// 7 pt) to keep it to one page and continues on a second only if even 7 pt does not fit.
// Loaded only when someone taps "Save as PDF" (a dynamic import).
import type { Handover } from '@rescuelog/sync-protocol/cases/handover';
import type { ReportContent } from '@/lib/pdf/report-layout';
import { reportFileName, reportPdfBlob } from '@/lib/pdf/report-pdf';

/** The handover as report content: a heading and a key/value list per ISBAR section. */
export function handoverReport(handover: Handover): ReportContent {
  return {
    title: handover.title,
    subtitle: `Generated ${handover.generatedAt} (South African time). ISBAR order: Identify, Situation, Background, Assessment, Recommendation.`,
    footerNote: `Confidential patient information (POPIA). Case ${handover.caseId || 'not numbered'}.`,
    blocks: handover.sections.flatMap((section) => [
      { kind: 'heading', text: section.title } as const,
      { kind: 'rows', rows: section.lines, empty: 'Nothing recorded' } as const,
    ]),
    fit: { pages: 1, smallestSize: 7 },
  };
}

/** The handover as a PDF file to download, headed with the organisation's name and logo. */
export function handoverPdfBlob(handover: Handover, logoUrl: string | null): Promise<Blob> {
  return reportPdfBlob(handoverReport(handover), {
    organisation: handover.organisation,
    logoUrl,
  });
}

/** e.g. handover-C-2611-7Q4M-XK3P.pdf */
export function handoverPdfFileName(caseId: string): string {
  return reportFileName('handover', caseId || 'case');
}
