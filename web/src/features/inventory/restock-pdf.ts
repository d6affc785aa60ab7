// The printable restock list through the one PDF module (lib/pdf, decision 054). Loaded only
// when someone taps "Restock list (PDF)" (a dynamic import): pdf-lib is large.
import { restockLines, type RestockItem } from '@rescuelog/sync-protocol/inventory/restock';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { ReportContent } from '@/lib/pdf/report-layout';
import { reportFileName, reportPdfBlob } from '@/lib/pdf/report-pdf';
import { formatQuantity } from './components/stock-flags';

export function restockReport(
  items: readonly RestockItem[],
  today: string,
  now: Date,
): ReportContent {
  const lines = restockLines(items, today);
  return {
    title: 'Restock list',
    subtitle: `Made ${formatDateTime(now)} from the stock on this device`,
    blocks:
      lines.length === 0
        ? [{ kind: 'paragraph', text: 'Nothing to order: every item is at or above its minimum.' }]
        : [
            {
              kind: 'table',
              columns: [
                { header: 'Item', width: 0.3 },
                { header: 'Kept at', width: 0.2 },
                { header: 'On hand', width: 0.13 },
                { header: 'Expired', width: 0.12 },
                { header: 'Minimum', width: 0.12 },
                { header: 'To order', width: 0.13 },
              ],
              rows: lines.map((l) => [
                l.description,
                l.where,
                `${formatQuantity(l.onHand)} ${l.unit}`,
                formatQuantity(l.expired),
                formatQuantity(l.minimum),
                formatQuantity(l.toOrder),
              ]),
            },
          ],
  };
}

export async function restockPdf(
  items: readonly RestockItem[],
  today: string,
  organisation: { name: string | null; logoUrl: string | null },
): Promise<{ fileName: string; blob: Blob }> {
  const now = new Date();
  const blob = await reportPdfBlob(restockReport(items, today, now), {
    organisation: organisation.name,
    logoUrl: organisation.logoUrl,
    printedAt: now,
  });
  return { fileName: reportFileName('restock', today), blob };
}
