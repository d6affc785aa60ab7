// One Chromium page running a bundled page script, for the benchmarks that measure client
// code over the browser's real IndexedDB (case-search-device.ts, local-save.ts). The script
// is bundled with esbuild and served from a tiny local server (IndexedDB needs a real origin)
// with the app's own Content-Security-Policy (api/src/plugins/external/helmet.ts: no
// 'unsafe-eval'), so the code runs as it does in the app: zod, for one, cannot compile its
// parsers with `new Function` there and takes its slower path.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Another copy of sync-protocol/src to bundle instead (e.g. the last commit's, extracted
 * with `git archive`), to measure before and after in one session on the same harness. */
const SYNC_PROTOCOL_SRC = process.env.BENCH_SYNC_PROTOCOL_SRC;

/** The app's script policy (the parts that matter to a page script). */
export const APP_SCRIPT_CSP =
  "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'";

export interface BenchPage {
  page: Page;
  close(): Promise<void>;
}

export interface BenchPageOptions {
  /** The page script (TypeScript), bundled with its imports. */
  entry: string;
  title: string;
  /** The global the script sets when it is ready (checked after load). */
  global: string;
  /** Serve without the app's CSP (to compare); default false. */
  withoutCsp?: boolean;
}

/** Names what was bundled, for a benchmark's header. */
export function benchSource(): string {
  return SYNC_PROTOCOL_SRC
    ? `sync-protocol from ${SYNC_PROTOCOL_SRC}`
    : 'sync-protocol from this checkout';
}

/** Bundles `entry`, serves it on a free local port and opens it in headless Chromium. */
export async function openBenchPage(options: BenchPageOptions): Promise<BenchPage> {
  const other = SYNC_PROTOCOL_SRC
    ? {
        alias: { '@rescuelog/sync-protocol': path.resolve(SYNC_PROTOCOL_SRC) },
        nodePaths: [path.join(REPO, 'sync-protocol/node_modules')],
      }
    : {};
  const bundle = await build({
    entryPoints: [options.entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    ...other,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const csp: Record<string, string> = options.withoutCsp
    ? {}
    : { 'content-security-policy': APP_SCRIPT_CSP };
  const http = createServer((req, res) => {
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', ...csp }).end(script);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html', ...csp })
      .end(
        `<!doctype html><html lang="en-GB"><title>${options.title}</title><link rel="icon" href="data:,"><script src="/page.js"></script></html>`,
      );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const closeHttp = () => new Promise((resolve) => http.close(resolve));
  const origin = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const browser = await chromium
    .launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
    .catch(async (error: unknown) => {
      await closeHttp();
      throw error;
    });
  const close = async () => {
    await browser.close();
    await closeHttp();
  };
  try {
    const page = await browser.newPage();
    // The script tag runs before the load event goto waits for.
    await page.goto(`${origin}/`);
    const ready = await page.evaluate((name) => name in window, options.global);
    if (!ready) throw new Error(`the page script did not set window.${options.global}`);
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** p50, p95 and max of some timings (ms), rounded to `digits`. */
export function timingStats(
  ms: readonly number[],
  digits = 2,
): { p50: number; p95: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const f = 10 ** digits;
  const r = (v: number) => Math.round(v * f) / f;
  return {
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    max: r(sorted.at(-1) ?? Number.NaN),
  };
}
