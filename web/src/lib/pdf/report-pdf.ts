// The one call a screen makes to save a report as PDF: loads what the renderer needs on this
// device (the font files, the organisation's logo) and returns the file. The fonts are Vite
// assets the service worker precaches with the app shell, so this works offline; they are
// fetched only here, when someone prints. Import this module with a dynamic import.
import regularFontUrl from './fonts/noto-sans-regular.ttf?url';
import boldFontUrl from './fonts/noto-sans-bold.ttf?url';
import { renderReport, type ReportFonts, type ReportLogo } from './report-document';
import type { ReportContent } from './report-layout';

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${String(response.status)}`);
  return new Uint8Array(await response.arrayBuffer());
}

let fonts: Promise<ReportFonts> | null = null;

/** The report fonts, fetched once per page load (from the precache when offline). */
function loadFonts(): Promise<ReportFonts> {
  fonts ??= Promise.all([fetchBytes(regularFontUrl), fetchBytes(boldFontUrl)]).then(
    ([regular, bold]) => ({ regular, bold }),
    (e: unknown) => {
      fonts = null; // a later try may succeed
      throw e;
    },
  );
  return fonts;
}

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * The logo (an upload of System Settings: PNG, JPEG or WebP) as PNG or JPEG, which is what a
 * PDF can hold: a WebP is redrawn as PNG through a canvas. Null when there is none or it
 * cannot be had (offline and not cached, unreadable): the report prints without it rather
 * than not at all.
 */
async function loadLogo(url: string | null | undefined): Promise<ReportLogo | null> {
  if (!url) return null;
  try {
    const bytes = await fetchBytes(url);
    if (startsWith(bytes, PNG)) return { bytes, format: 'png' };
    if (startsWith(bytes, JPEG)) return { bytes, format: 'jpeg' };
    const bitmap = await createImageBitmap(new Blob([bytes.slice()]));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    const png = await canvas.convertToBlob({ type: 'image/png' });
    return { bytes: new Uint8Array(await png.arrayBuffer()), format: 'png' };
  } catch {
    return null;
  }
}

export interface ReportPdfOptions {
  /** The organisation's name and logo of System Settings (the device's last copy offline). */
  organisation: string | null;
  logoUrl?: string | null;
  printedAt?: Date;
}

/** The report as a PDF file to download. */
export async function reportPdfBlob(
  content: ReportContent,
  { organisation, logoUrl, printedAt = new Date() }: ReportPdfOptions,
): Promise<Blob> {
  const [loadedFonts, logo] = await Promise.all([loadFonts(), loadLogo(logoUrl)]);
  const bytes = await renderReport(content, {
    fonts: loadedFonts,
    header: { organisation, logo },
    printedAt,
  });
  return new Blob([bytes], { type: 'application/pdf' });
}

/** A file name of safe characters: reportFileName('handover', 'C-2611-7Q4M') is
 * handover-C-2611-7Q4M.pdf. */
export function reportFileName(kind: string, id: string): string {
  return `${kind}-${id.replace(/[^A-Za-z0-9-]+/g, '_') || 'report'}.pdf`;
}
