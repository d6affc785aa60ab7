// Every report's PDF (handover today; CPR, mass-casualty, incident and inventory next): the
// content laid out by report-layout.ts, drawn with pdf-lib in Noto Sans (embedded, subset to
// the glyphs used, so any Latin, Greek or Cyrillic name prints as typed), on A4 pages headed
// with the organisation's logo and name and footed with the report's note, the print time
// and "Page N of M". A report only describes its content (ReportContent); decision 054.
//
// Import this module only with a dynamic import, when someone prints: pdf-lib and fontkit
// are several hundred KiB and no screen needs them to render.
import fontkit from '@pdf-lib/fontkit';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { PDFDocument, grayscale, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import {
  CONTENT_BOTTOM,
  HEADER_HEIGHT,
  HEADER_TOP,
  MARGIN_X,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  chooseSize,
  layoutReport,
  type FontFace,
  type Measure,
  type ReportContent,
  type Tone,
} from './report-layout';

/** The font files (TrueType) the report is set in. */
export interface ReportFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

/** A logo image as pdf-lib embeds it. */
export interface ReportLogo {
  bytes: Uint8Array;
  format: 'png' | 'jpeg';
}

/** What heads every page (System Settings: organisation name and logo). */
export interface ReportHeader {
  organisation: string | null;
  logo: ReportLogo | null;
}

export interface RenderOptions {
  fonts: ReportFonts;
  header: ReportHeader;
  /** When the report was printed: in the footer (service time zone) and the PDF's dates. */
  printedAt: Date;
}

const INK = grayscale(0);
const MUTED = grayscale(0.25);
const RULE = grayscale(0.35);
const FOOTER_SIZE = 8;

/**
 * The text as the font can draw it: composed (NFC, so "e" + combining diaeresis is the one
 * glyph ë), white space as spaces, and a character the font lacks as its base letter when
 * it has one, else "?" (never a blank box or a thrown error mid-report).
 */
function printable(known: Set<number>, text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 63;
    if (ch === '\n') out += ch;
    else if (code < 32 || code === 0xa0) out += ' ';
    else if (known.has(code)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out +=
        base && base !== ch && [...base].every((c) => known.has(c.codePointAt(0) ?? 0))
          ? base
          : '?';
    }
  }
  return out;
}

interface Faces {
  regular: PDFFont;
  bold: PDFFont;
}

function drawHeader(page: PDFPage, header: ReportHeader, faces: Faces, logo: PDFImage | null) {
  const top = PAGE_HEIGHT - HEADER_TOP;
  let x = MARGIN_X;
  if (logo) {
    // At most the band's height and three times as wide, keeping its proportions.
    const scale = Math.min(HEADER_HEIGHT / logo.height, (HEADER_HEIGHT * 3) / logo.width);
    const { width, height } = logo.scale(scale);
    page.drawImage(logo, { x, y: top - height, width, height });
    x += width + 10;
  }
  if (header.organisation) {
    // One line: a name too long for it (up to 100 characters are allowed) ends in "…".
    const room = PAGE_WIDTH - MARGIN_X - x;
    const fits = (t: string) => faces.bold.widthOfTextAtSize(t, 11) <= room;
    let name = header.organisation;
    while (!fits(name) && name.length > 1) name = `${Array.from(name).slice(0, -2).join('')}…`;
    page.drawText(name, {
      x,
      y: top - HEADER_HEIGHT / 2 - 4,
      size: 11,
      font: faces.bold,
      color: MUTED,
    });
  }
}

function drawFooter(page: PDFPage, faces: Faces, left: string, right: string) {
  const y = CONTENT_BOTTOM - 16;
  page.drawLine({
    start: { x: MARGIN_X, y },
    end: { x: PAGE_WIDTH - MARGIN_X, y },
    thickness: 0.5,
    color: RULE,
  });
  const width = (text: string) => faces.regular.widthOfTextAtSize(text, FOOTER_SIZE);
  const style = { size: FOOTER_SIZE, font: faces.regular, color: MUTED };
  if (left) page.drawText(left, { ...style, x: MARGIN_X, y: y - 12 });
  // The page number sits at the right, on the note's line when both fit, else under it.
  const shared = width(left) + 16 + width(right) <= PAGE_WIDTH - 2 * MARGIN_X;
  page.drawText(right, {
    ...style,
    x: PAGE_WIDTH - MARGIN_X - width(right),
    y: shared || !left ? y - 12 : y - 23,
  });
}

/** The report as the bytes of a PDF file. */
export async function renderReport(
  content: ReportContent,
  { fonts, header, printedAt }: RenderOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const faces: Faces = {
    regular: await doc.embedFont(fonts.regular, { subset: true }),
    bold: await doc.embedFont(fonts.bold, { subset: true }),
  };
  const known = {
    regular: new Set(faces.regular.getCharacterSet()),
    bold: new Set(faces.bold.getCharacterSet()),
  };
  const clean = (face: FontFace, text: string) => printable(known[face], text);
  const logo = header.logo
    ? header.logo.format === 'png'
      ? await doc.embedPng(header.logo.bytes)
      : await doc.embedJpg(header.logo.bytes)
    : null;

  // Everything is cleaned once, before layout, so what is measured is what is drawn.
  const cleaned: ReportContent = {
    ...content,
    title: clean('bold', content.title),
    subtitle: content.subtitle === undefined ? undefined : clean('regular', content.subtitle),
    blocks: content.blocks.map((b) => {
      switch (b.kind) {
        case 'heading':
          return { ...b, text: clean('bold', b.text) };
        case 'paragraph':
          return { ...b, text: clean('regular', b.text) };
        case 'rows':
          return {
            ...b,
            empty: b.empty === undefined ? undefined : clean('regular', b.empty),
            rows: b.rows.map((r) => ({
              label: clean('bold', r.label),
              value: clean('regular', r.value),
            })),
          };
        case 'table':
          return {
            ...b,
            columns: b.columns.map((c) => ({ ...c, header: clean('bold', c.header) })),
            rows: b.rows.map((r) => r.map((cell) => clean('regular', cell))),
          };
        case 'pageBreak':
          return b;
      }
    }),
  };
  // Widths add up glyph by glyph (the fonts carry no kerning or ligatures), so each
  // character is measured once; measuring whole lines through fontkit's layout on every
  // wrap candidate made a long report take seconds.
  const widths = { regular: new Map<string, number>(), bold: new Map<string, number>() };
  const measure: Measure = (text, face, size) => {
    const cache = widths[face];
    let units = 0;
    for (const ch of text) {
      let w = cache.get(ch);
      if (w === undefined) {
        w = faces[face].widthOfTextAtSize(ch, 1000);
        cache.set(ch, w);
      }
      units += w;
    }
    return (units * size) / 1000;
  };
  const pages = layoutReport(cleaned, chooseSize(cleaned, measure), measure);

  const cleanHeader = {
    ...header,
    organisation: header.organisation ? clean('bold', header.organisation) : null,
  };
  const note = content.footerNote ? clean('regular', content.footerNote) : '';
  const printed = `Printed ${formatDateTime(printedAt)}`;
  const color = (tone: Tone) => (tone === 'muted' ? MUTED : INK);
  pages.forEach((ops, i) => {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    drawHeader(page, cleanHeader, faces, logo);
    for (const op of ops) {
      if (op.kind === 'rule') {
        page.drawLine({
          start: { x: op.x1, y: op.y },
          end: { x: op.x2, y: op.y },
          thickness: op.width,
          color: RULE,
        });
      } else {
        page.drawText(op.text, {
          x: op.x,
          y: op.y,
          size: op.size,
          font: faces[op.face],
          color: color(op.tone),
        });
      }
    }
    const pageOf = `Page ${String(i + 1)} of ${String(pages.length)}`;
    drawFooter(page, faces, note, `${printed} · ${pageOf}`);
  });

  doc.setTitle(cleaned.title, { showInWindowTitleBar: true });
  if (header.organisation) doc.setAuthor(header.organisation);
  doc.setProducer('RescueLog');
  doc.setCreator('RescueLog');
  doc.setCreationDate(printedAt);
  doc.setModificationDate(printedAt);
  const bytes = await doc.save();
  // A fresh ArrayBuffer-backed copy, the type Blob and File accept.
  return new Uint8Array(bytes);
}
