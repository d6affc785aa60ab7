import { describe, expect, it } from 'vitest';
import { pdfPages, renderForTest } from './report-test-kit';

const NAMES = ['Zoë Nkosi-Müller', 'Ŝipho', 'Đorđe'];

describe('report PDF', () => {
  it('prints names outside Latin-1 as typed, read back from the PDF text', async () => {
    const pages = await pdfPages(
      await renderForTest({
        title: 'Patients',
        blocks: [
          { kind: 'heading', text: 'Names' },
          {
            kind: 'rows',
            rows: NAMES.map((value, i) => ({ label: `Patient ${String(i + 1)}`, value })),
          },
          // Greek, Cyrillic and Vietnamese; a name typed with a combining mark (e + U+0308).
          { kind: 'paragraph', text: 'Αθηνά Παππά, Наталья Иванова, Nguyễn Văn Hùng, Zoe\u0308' },
        ],
      }),
    );
    expect(pages).toHaveLength(1);
    const text = pages[0] ?? '';
    for (const name of [...NAMES, 'Αθηνά Παππά', 'Наталья Иванова', 'Nguyễn Văn Hùng', 'Zoë'])
      expect(text).toContain(name);
  });

  it('heads every page with the organisation, numbers the pages and repeats a table header', async () => {
    const rows = Array.from({ length: 70 }, (_, i) => [
      `Item ${String(i + 1)}`,
      'Bag-valve-mask, adult',
      String(i % 5),
    ]);
    const pages = await pdfPages(
      await renderForTest(
        {
          title: 'Inventory',
          footerNote: 'Station stock.',
          blocks: [
            {
              kind: 'table',
              columns: [
                { header: 'Line', width: 0.2 },
                { header: 'What', width: 0.6 },
                { header: 'Count', width: 0.2 },
              ],
              rows,
            },
          ],
        },
        { organisation: 'Helderberg Volunteer Rescue', logo: null },
        new Date('2026-11-20T22:30:00.000Z'),
      ),
    );
    expect(pages).toHaveLength(2);
    pages.forEach((page, i) => {
      expect(page.startsWith('Helderberg Volunteer Rescue')).toBe(true);
      expect(page).toContain('Station stock.');
      // The print time in the service's zone (Africa/Johannesburg: 00:30 the next day).
      expect(page).toContain(`Printed 21 Nov 2026, 00:30 · Page ${String(i + 1)} of 2`);
      expect(page).toMatch(/Line What Count/);
    });
    expect(pages[0]).toContain('Inventory');
    expect(pages[1]).not.toContain('Inventory');
    expect(pages[1]).toContain('Item 70 Bag-valve-mask, adult 4');
    expect(pages.join('\n').match(/Item \d+ /g)).toHaveLength(70);
  });

  it('prints a character the font lacks as its base letter or "?", never as nothing', async () => {
    const [page] = await pdfPages(
      await renderForTest({
        title: 'Check',
        blocks: [{ kind: 'paragraph', text: 'Done ✓ 😀 ǅ tab\there' }],
      }),
    );
    expect(page).toContain('Done ? ? ǅ tab here');
  });
});
