import { deflateSync } from 'node:zlib';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { pdfPages, renderForTest } from './report-test-kit';

/** A 4×2 red PNG, built here so the test needs no image file. */
function redPng(): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = [0, ...Array.from({ length: 4 }, () => [200, 0, 0]).flat()];
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.from([...row, ...row]))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

const NAMES = ['Zoë Nkosi-Müller', 'Ŝipho', 'Đorđe'];

// Each test renders real PDFs and reads them back with pdf.js: seconds on a busy machine.
describe('report PDF', { timeout: 20_000 }, () => {
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

  it('wraps a long title and shortens an organisation name too long for the header', async () => {
    const organisation = `Helderberg ${'Volunteer '.repeat(8)}Rescue`; // 97 characters
    const title = `Mass-casualty incident report ${'with a long name '.repeat(6)}end`;
    const [page] = await pdfPages(
      await renderForTest({ title, blocks: [] }, { organisation, logo: null }),
    );
    const [head, ...rest] = (page ?? '').split('\n');
    expect(head).toMatch(/^Helderberg Volunteer Volunteer .*…$/);
    expect(head?.length).toBeLessThan(organisation.length);
    // The whole title, over more than one line.
    expect(rest.join(' ')).toContain(title);
    expect(rest.indexOf('end')).toBe(-1);
    expect(rest.findIndex((l) => l.endsWith(' end'))).toBeGreaterThan(0);
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

  it("draws the organisation's logo in the header of every page", async () => {
    const logo = { bytes: redPng(), format: 'png' as const };
    const bytes = await renderForTest(
      {
        title: 'Logo',
        blocks: [
          { kind: 'paragraph', text: 'One' },
          { kind: 'pageBreak' },
          { kind: 'paragraph', text: 'Two' },
          { kind: 'pageBreak' },
        ],
      },
      { organisation: 'Helderberg Volunteer Rescue', logo },
    );
    const { OPS } = await getResolvedPDFJS();
    const pdf = await getDocumentProxy(bytes.slice());
    // Two pages: the break at the end of the content adds no empty page.
    expect(pdf.numPages).toBe(2);
    for (const n of [1, 2]) {
      const ops = await (await pdf.getPage(n)).getOperatorList();
      expect(ops.fnArray).toContain(OPS.paintImageXObject);
    }
    const plain = await getDocumentProxy(
      (await renderForTest({ title: 'Logo', blocks: [] })).slice(),
    );
    const ops = await (await plain.getPage(1)).getOperatorList();
    expect(ops.fnArray).not.toContain(OPS.paintImageXObject);
  });
});
