// The handover summary as a real PDF file, written on the device (offline, no server, no
// library): one A4 page in ISBAR order using the PDF standard fonts Helvetica and
// Helvetica-Bold, which every PDF reader has, so nothing is embedded and the file is a few
// kilobytes. The text shrinks (10 pt down to 7 pt) to keep the page to one; a record too
// long even then continues on a second page rather than losing anything.
//
// Loaded only when someone taps "Save as PDF" (a dynamic import), so it costs the first
// render nothing. Text is encoded as WinAnsi (Latin-1 plus dashes, quotes, bullet, ellipsis
// and the euro sign), which covers English and Afrikaans; other characters lose their accent
// or become '?'. The file is built as a string of byte-valued characters, so every length
// measured is a byte offset for the cross-reference table.
import type { Handover } from '@rescuelog/sync-protocol/cases/handover';

const PAGE_WIDTH = 595.28; // A4, points
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 44;
const MARGIN_TOP = 48;
const MARGIN_BOTTOM = 56;
const LABEL_WIDTH = 150;
const COLUMN_GAP = 10;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH - COLUMN_GAP;
const FONT_SIZES = [10, 9.5, 9, 8.5, 8, 7.5, 7];

type Font = 'regular' | 'bold';

// Glyph widths (1/1000 em) of the standard 14 fonts for codes 32–126 (Adobe's AFM metrics).
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const HELVETICA_BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
  611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
  278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

// WinAnsiEncoding's codes 0x80–0x9F that are not Latin-1.
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};
// Widths of the non-ASCII codes that differ from their base letter.
const EXTRA_WIDTHS: Record<number, number> = {
  0x85: 1000,
  0x95: 350,
  0x96: 556,
  0x97: 1000,
  0x91: 222,
  0x92: 222,
  0x93: 333,
  0x94: 333,
  0x80: 556,
  0xb0: 400,
  0xb7: 278,
  0xd7: 584,
};

/** One character as a WinAnsi byte: accents dropped when the letter has no code, else '?'. */
function winAnsiByte(ch: string): number {
  const code = ch.codePointAt(0) ?? 63;
  if (code >= 32 && code <= 126) return code;
  if (code === 9 || code === 10 || code === 13) return 32;
  if (code >= 0xa0 && code <= 0xff) return code === 0xa0 ? 32 : code;
  const extra = WIN_ANSI_EXTRA[ch];
  if (extra !== undefined) return extra;
  const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (base.length === 1 && base !== ch) return winAnsiByte(base);
  if (ch === '−') return 45; // minus sign
  return 63;
}

/** The text as WinAnsi bytes (one character per byte). */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) out += String.fromCharCode(winAnsiByte(ch));
  return out;
}

function byteWidth(byte: number, font: Font): number {
  const table = font === 'bold' ? HELVETICA_BOLD : HELVETICA;
  if (byte >= 32 && byte <= 126) return table[byte - 32] ?? 556;
  const special = EXTRA_WIDTHS[byte];
  if (special !== undefined) return special;
  // Accented Latin-1 letters are about as wide as their base letter.
  const base = String.fromCharCode(byte).normalize('NFD').charCodeAt(0);
  if (base >= 32 && base <= 126) return table[base - 32] ?? 556;
  return 556;
}

/** Width in points of WinAnsi text at `size`. */
export function textWidth(encoded: string, font: Font, size: number): number {
  let units = 0;
  for (let i = 0; i < encoded.length; i += 1) units += byteWidth(encoded.charCodeAt(i), font);
  return (units * size) / 1000;
}

/** Breaks WinAnsi text into lines no wider than `width` (a word too long is cut). */
export function wrapText(encoded: string, font: Font, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = () => {
    lines.push(line);
    line = '';
  };
  for (const word of encoded.split(/ +/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, font, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) push();
    let rest = word;
    while (textWidth(rest, font, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && textWidth(rest.slice(0, cut), font, size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line || lines.length === 0) push();
  return lines;
}

function pdfString(encoded: string): string {
  return `(${encoded.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function num(n: number): string {
  return (Math.round(n * 100) / 100).toString();
}

type Op =
  | { kind: 'text'; x: number; y: number; font: Font; size: number; text: string; grey?: boolean }
  | { kind: 'rule'; x1: number; x2: number; y: number; width: number };

interface Layout {
  pages: Op[][];
}

/** Lays the handover out at one font size; pages are added when the text runs past the bottom. */
function layout(handover: Handover, size: number): Layout {
  const pages: Op[][] = [[]];
  let page = pages[0] as Op[];
  const leading = size * 1.28;
  let y = PAGE_HEIGHT - MARGIN_TOP;
  const newPage = () => {
    page = [];
    pages.push(page);
    y = PAGE_HEIGHT - MARGIN_TOP;
  };
  const ensure = (height: number) => {
    if (y - height < MARGIN_BOTTOM) newPage();
  };

  if (handover.organisation) {
    y -= size + 1;
    page.push({
      kind: 'text',
      x: MARGIN_X,
      y,
      font: 'bold',
      size: size + 1,
      grey: true,
      text: toWinAnsi(handover.organisation),
    });
    y -= 4;
  }
  const titleSize = size + 6;
  y -= titleSize;
  page.push({
    kind: 'text',
    x: MARGIN_X,
    y,
    font: 'bold',
    size: titleSize,
    text: toWinAnsi(handover.title),
  });
  y -= size + 4;
  page.push({
    kind: 'text',
    x: MARGIN_X,
    y,
    font: 'regular',
    size: size - 1,
    grey: true,
    text: toWinAnsi(
      `Generated ${handover.generatedAt} (South African time). ISBAR order: Identify, Situation, Background, Assessment, Recommendation.`,
    ),
  });
  y -= 8;
  page.push({ kind: 'rule', x1: MARGIN_X, x2: PAGE_WIDTH - MARGIN_X, y, width: 1.2 });

  for (const section of handover.sections) {
    const headingSize = size + 2;
    ensure(headingSize + 8 + leading);
    y -= headingSize + 8;
    page.push({
      kind: 'text',
      x: MARGIN_X,
      y,
      font: 'bold',
      size: headingSize,
      text: toWinAnsi(section.title),
    });
    y -= 4;
    page.push({ kind: 'rule', x1: MARGIN_X, x2: PAGE_WIDTH - MARGIN_X, y, width: 0.5 });
    y -= 2;
    if (section.lines.length === 0) {
      y -= leading;
      page.push({
        kind: 'text',
        x: MARGIN_X,
        y,
        font: 'regular',
        size,
        grey: true,
        text: toWinAnsi('Nothing recorded'),
      });
      continue;
    }
    for (const line of section.lines) {
      const labels = wrapText(toWinAnsi(line.label), 'bold', size, LABEL_WIDTH);
      const values = wrapText(toWinAnsi(line.value), 'regular', size, VALUE_WIDTH);
      const rows = Math.max(labels.length, values.length);
      for (let i = 0; i < rows; i += 1) {
        ensure(leading);
        y -= leading;
        const label = labels[i];
        const value = values[i];
        if (label) page.push({ kind: 'text', x: MARGIN_X, y, font: 'bold', size, text: label });
        if (value)
          page.push({
            kind: 'text',
            x: MARGIN_X + LABEL_WIDTH + COLUMN_GAP,
            y,
            font: 'regular',
            size,
            text: value,
          });
      }
      y -= size * 0.25;
    }
  }
  return { pages };
}

function footer(handover: Handover, index: number, count: number): Op[] {
  const text = toWinAnsi(
    `Confidential patient information (POPIA). Case ${handover.caseId || 'not numbered'}. Page ${String(index + 1)} of ${String(count)}.`,
  );
  return [
    { kind: 'rule', x1: MARGIN_X, x2: PAGE_WIDTH - MARGIN_X, y: MARGIN_BOTTOM - 16, width: 0.5 },
    {
      kind: 'text',
      x: MARGIN_X,
      y: MARGIN_BOTTOM - 28,
      font: 'regular',
      size: 8,
      grey: true,
      text,
    },
  ];
}

function contentStream(ops: readonly Op[]): string {
  const parts: string[] = [];
  for (const op of ops) {
    if (op.kind === 'rule') {
      parts.push(
        `0.35 G ${num(op.width)} w ${num(op.x1)} ${num(op.y)} m ${num(op.x2)} ${num(op.y)} l S`,
      );
    } else {
      const font = op.font === 'bold' ? 'F2' : 'F1';
      parts.push(
        `BT ${op.grey ? '0.25' : '0'} g /${font} ${num(op.size)} Tf 1 0 0 1 ${num(op.x)} ${num(op.y)} Tm ${pdfString(op.text)} Tj ET`,
      );
    }
  }
  return parts.join('\n');
}

/** A PDF text string in UTF-16BE (for the document title, which may hold any character). */
function utf16Hex(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i += 1)
    hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${String(date.getUTCFullYear())}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
}

/** The smallest layout that fits one page (7 pt at worst, then more pages). */
export function layoutHandover(handover: Handover): { size: number; pages: number } {
  for (const size of FONT_SIZES) {
    const { pages } = layout(handover, size);
    if (pages.length === 1) return { size, pages: 1 };
  }
  const smallest = FONT_SIZES[FONT_SIZES.length - 1] ?? 7;
  return { size: smallest, pages: layout(handover, smallest).pages.length };
}

/** The handover as the bytes of a PDF file. */
export function handoverPdfBytes(
  handover: Handover,
  createdAt: Date = new Date(),
): Uint8Array<ArrayBuffer> {
  const { size } = layoutHandover(handover);
  const pages = layout(handover, size).pages.map((ops, i, all) => [
    ...ops,
    ...footer(handover, i, all.length),
  ]);

  // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${String(id)} 0 R`).join(' ')}] /Count ${String(pages.length)} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${utf16Hex(handover.title)} /Producer (RescueLog) /CreationDate (${pdfDate(createdAt)}) >>`;
  pages.forEach((ops, i) => {
    const pageId = 6 + i * 2;
    const stream = contentStream(ops);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(PAGE_WIDTH)} ${num(PAGE_HEIGHT)}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${String(pageId + 1)} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${String(stream.length)} >>\nstream\n${stream}\nendstream`;
  });

  // A binary comment on line two tells transfer tools the file is binary (PDF 1.4, 7.5.2).
  let file = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = file.length;
    file += `${String(id)} 0 obj\n${objects[id] ?? 'null'}\nendobj\n`;
  }
  const xrefAt = file.length;
  file += `xref\n0 ${String(objects.length)}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1)
    file += `${String(offsets[id] ?? 0).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${String(objects.length)} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${String(xrefAt)}\n%%EOF\n`;

  const bytes = new Uint8Array(file.length);
  for (let i = 0; i < file.length; i += 1) bytes[i] = file.charCodeAt(i) & 0xff;
  return bytes;
}

/** The handover as a PDF file to download. */
export function handoverPdfBlob(handover: Handover, createdAt: Date = new Date()): Blob {
  return new Blob([handoverPdfBytes(handover, createdAt)], { type: 'application/pdf' });
}

/** e.g. handover-C-2611-7Q4M-XK3P.pdf */
export function handoverPdfFileName(caseId: string): string {
  return `handover-${caseId.replace(/[^A-Za-z0-9-]+/g, '_') || 'case'}.pdf`;
}
