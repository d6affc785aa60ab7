// The restock list as the one PDF module prints it, read back with a real PDF text extractor.
import { describe, expect, it } from 'vitest';
import { pdfPages, renderForTest } from '@/lib/pdf/report-test-kit';
import { restockReport } from './restock-pdf';

describe('the restock PDF', () => {
  it('lists what to order, most needed first, and says so when nothing is needed', async () => {
    const now = new Date('2026-12-08T08:00:00.000Z');
    const content = restockReport(
      [
        {
          description: 'Adrenaline 1 mg/ml',
          unit: 'ampoules',
          where: 'Bag: ALS bag',
          minimumQty: 4,
          batches: [{ id: 'a', expiryDate: '2026-12-01' }],
          movements: [{ quantity: 3, batchId: 'a' }],
        },
        {
          description: 'Glucose gel',
          unit: 'tubes',
          where: 'Station',
          minimumQty: 2,
          batches: [],
          movements: [{ quantity: 1 }],
        },
      ],
      '2026-12-08',
      now,
    );
    const [page] = await pdfPages(await renderForTest(content, undefined, now));
    expect(page).toContain('Restock list');
    const adrenaline = page?.indexOf('Adrenaline 1 mg/ml') ?? -1;
    const gel = page?.indexOf('Glucose gel') ?? -1;
    expect(adrenaline).toBeGreaterThan(-1);
    expect(gel).toBeGreaterThan(adrenaline);
    expect(page).toContain('3 ampoules');

    const empty = restockReport([], '2026-12-08', now);
    const [none] = await pdfPages(await renderForTest(empty, undefined, now));
    expect(none).toContain('Nothing to order');
  });
});
