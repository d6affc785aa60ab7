// Where every line of a report goes: the content (headings, paragraphs, key/value rows,
// tables, page breaks) placed on A4 pages at one text size, wrapped to the column widths and
// broken across pages. Pure: it measures text through the function it is given (the embedded
// font's metrics, report-document.ts), so it is the same for every report and testable alone.
// Page furniture (header, footer, page numbers) is drawn by report-document.ts on top of the
// space reserved here.

export const PAGE_WIDTH = 595.28; // A4, points
export const PAGE_HEIGHT = 841.89;
export const MARGIN_X = 44;
/** The header band (organisation's logo and name) at the top of every page. */
export const HEADER_TOP = 36;
export const HEADER_HEIGHT = 30;
/** Content starts under the header band and ends above the footer. */
export const CONTENT_TOP = PAGE_HEIGHT - HEADER_TOP - HEADER_HEIGHT - 6;
export const CONTENT_BOTTOM = 56;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const LABEL_WIDTH = 150;
const COLUMN_GAP = 10;

export type FontFace = 'regular' | 'bold';
export type Tone = 'normal' | 'muted';

/** A row of a key/value list: a bold label beside its value. */
export interface ReportRow {
  label: string;
  value: string;
}

export interface ReportColumn {
  header: string;
  /** Share of the content width (the shares of a table's columns add up to 1). */
  width: number;
}

/** What a report is made of, top to bottom. */
export type ReportBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string; tone?: Tone }
  | { kind: 'rows'; rows: readonly ReportRow[]; empty?: string }
  | { kind: 'table'; columns: readonly ReportColumn[]; rows: readonly (readonly string[])[] }
  | { kind: 'pageBreak' };

export interface ReportContent {
  /** The document's title: the first page's heading and the PDF's title. */
  title: string;
  /** A muted line under the title (e.g. when it was generated). */
  subtitle?: string;
  /** Printed at the foot of every page, before the page number (e.g. a confidentiality line). */
  footerNote?: string;
  blocks: readonly ReportBlock[];
  /**
   * Shrinks the text (from 10 pt, in half points, down to `smallestSize`) until the report
   * fits on `pages` pages; past the smallest size it takes more pages, never drops content.
   */
  fit?: { pages: number; smallestSize: number };
}

export type LayoutOp =
  | { kind: 'text'; x: number; y: number; face: FontFace; size: number; tone: Tone; text: string }
  | { kind: 'rule'; x1: number; x2: number; y: number; width: number };

export type Measure = (text: string, face: FontFace, size: number) => number;

export const BASE_SIZE = 10;

/** Breaks text into lines no wider than `width`; a line break in the text starts a new line
 * and a word too long for a line is cut. */
export function wrapText(
  text: string,
  face: FontFace,
  size: number,
  width: number,
  measure: Measure,
): string[] {
  const lines: string[] = [];
  const fits = (s: string) => measure(s, face, size) <= width;
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let rest = word;
      while (!fits(rest)) {
        const chars = Array.from(rest);
        let cut = chars.length - 1;
        while (cut > 1 && !fits(chars.slice(0, cut).join(''))) cut -= 1;
        lines.push(chars.slice(0, cut).join(''));
        rest = chars.slice(cut).join('');
      }
      line = rest;
    }
    lines.push(line);
  }
  // Trailing empty lines of a text ending in a line break add nothing.
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The content placed at one text size: the operations of each page. */
export function layoutReport(content: ReportContent, size: number, measure: Measure): LayoutOp[][] {
  const pages: LayoutOp[][] = [[]];
  let page = pages[0] as LayoutOp[];
  let y = CONTENT_TOP;
  const leading = size * 1.28;
  const right = PAGE_WIDTH - MARGIN_X;
  const newPage = () => {
    page = [];
    pages.push(page);
    y = CONTENT_TOP;
  };
  const ensure = (height: number) => {
    if (y - height < CONTENT_BOTTOM && y < CONTENT_TOP) newPage();
  };
  const text = (x: number, face: FontFace, s: number, t: string, tone: Tone = 'normal') => {
    if (t) page.push({ kind: 'text', x, y, face, size: s, tone, text: t });
  };
  const rule = (width: number) => page.push({ kind: 'rule', x1: MARGIN_X, x2: right, y, width });
  /** Lines side by side (one per column), as many rows as the longest column needs. */
  const columns = (cells: { x: number; face: FontFace; lines: string[]; tone?: Tone }[]) => {
    const rows = Math.max(1, ...cells.map((c) => c.lines.length));
    for (let i = 0; i < rows; i += 1) {
      ensure(leading);
      y -= leading;
      for (const cell of cells) text(cell.x, cell.face, size, cell.lines[i] ?? '', cell.tone);
    }
  };

  const titleSize = size + 6;
  for (const line of wrapText(content.title, 'bold', titleSize, CONTENT_WIDTH, measure)) {
    y -= titleSize;
    text(MARGIN_X, 'bold', titleSize, line);
    y -= 2;
  }
  y += 2;
  if (content.subtitle) {
    for (const line of wrapText(content.subtitle, 'regular', size - 1, CONTENT_WIDTH, measure)) {
      y -= size + 2;
      text(MARGIN_X, 'regular', size - 1, line, 'muted');
    }
  }
  y -= 8;
  rule(1.2);

  // A page break takes effect at the next block, so one at the end adds no empty page.
  let breakPending = false;
  for (const block of content.blocks) {
    if (breakPending && block.kind !== 'pageBreak') newPage();
    breakPending = false;
    switch (block.kind) {
      case 'heading': {
        const headingSize = size + 2;
        // A heading never ends a page: it keeps its first line of content with it.
        ensure(headingSize + 14 + leading);
        y -= headingSize + 8;
        text(MARGIN_X, 'bold', headingSize, block.text);
        y -= 4;
        rule(0.5);
        y -= 2;
        break;
      }
      case 'paragraph':
        columns([
          {
            x: MARGIN_X,
            face: 'regular',
            tone: block.tone,
            lines: wrapText(block.text, 'regular', size, CONTENT_WIDTH, measure),
          },
        ]);
        y -= size * 0.25;
        break;
      case 'rows': {
        if (block.rows.length === 0 && block.empty) {
          columns([{ x: MARGIN_X, face: 'regular', tone: 'muted', lines: [block.empty] }]);
        }
        const valueX = MARGIN_X + LABEL_WIDTH + COLUMN_GAP;
        const valueWidth = CONTENT_WIDTH - LABEL_WIDTH - COLUMN_GAP;
        for (const row of block.rows) {
          columns([
            {
              x: MARGIN_X,
              face: 'bold',
              lines: wrapText(row.label, 'bold', size, LABEL_WIDTH, measure),
            },
            {
              x: valueX,
              face: 'regular',
              lines: wrapText(row.value, 'regular', size, valueWidth, measure),
            },
          ]);
          y -= size * 0.25;
        }
        break;
      }
      case 'table': {
        const xs: number[] = [];
        let x = MARGIN_X;
        for (const column of block.columns) {
          xs.push(x);
          x += column.width * CONTENT_WIDTH;
        }
        const cellWidth = (i: number) =>
          (block.columns[i]?.width ?? 0) * CONTENT_WIDTH - COLUMN_GAP;
        const header = () => {
          columns(
            block.columns.map((c, i) => ({
              x: xs[i] ?? MARGIN_X,
              face: 'bold' as const,
              lines: wrapText(c.header, 'bold', size, cellWidth(i), measure),
            })),
          );
          y -= 3;
          rule(0.5);
        };
        header();
        for (const cells of block.rows) {
          const wrapped = cells.map((c, i) => wrapText(c, 'regular', size, cellWidth(i), measure));
          const height = Math.max(1, ...wrapped.map((l) => l.length)) * leading;
          // A row stays on one page (unless it is taller than a page), and a table continued
          // on a new page repeats its column headings.
          if (y - height < CONTENT_BOTTOM && height < CONTENT_TOP - CONTENT_BOTTOM) {
            newPage();
            header();
          }
          columns(
            wrapped.map((lines, i) => ({ x: xs[i] ?? MARGIN_X, face: 'regular' as const, lines })),
          );
          y -= size * 0.25;
        }
        break;
      }
      case 'pageBreak':
        breakPending = y < CONTENT_TOP;
        break;
    }
  }
  return pages;
}

/** The text size the report is laid out at: the largest that meets its `fit`, if any. */
export function chooseSize(content: ReportContent, measure: Measure): number {
  const fit = content.fit;
  if (!fit) return BASE_SIZE;
  for (let size = BASE_SIZE; size > fit.smallestSize; size -= 0.5) {
    if (layoutReport(content, size, measure).length <= fit.pages) return size;
  }
  return fit.smallestSize;
}
