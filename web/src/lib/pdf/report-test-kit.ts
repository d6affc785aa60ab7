// For tests: renders a report with the fonts the app ships (read from disk, where the app
// fetches them) and reads the PDF back with a real PDF text extractor (pdf.js through unpdf):
// the text is in subset CID fonts, so searching the file's bytes would find nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractText, getDocumentProxy } from 'unpdf';
import { renderReport, type ReportHeader } from './report-document';
import type { ReportContent } from './report-layout';

const fontFile = (name: string) =>
  new Uint8Array(
    readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fonts', name)),
  );

export const reportFonts = {
  regular: fontFile('noto-sans-regular.ttf'),
  bold: fontFile('noto-sans-bold.ttf'),
};

/** Each page's text, lines joined by "\n" as pdf.js finds them. */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(bytes.slice());
  const { text } = await extractText(pdf, { mergePages: false });
  return text;
}

export async function renderForTest(
  content: ReportContent,
  header: ReportHeader = { organisation: null, logo: null },
  printedAt: Date = new Date('2026-11-20T11:00:00.000Z'),
): Promise<Uint8Array> {
  return renderReport(content, { fonts: reportFonts, header, printedAt });
}
