// Local save benchmark in Chromium (issue 4's "local save p95 <= 16 ms"), with and without the
// case-summaries middleware side by side: saves alternate between two fresh databases (the
// order shuffled each round), so machine load hits both alike. Creates (a new case) and
// edits (autosave of one field of an existing case). No server is needed. Reports only.
//   npx tsx tests/bench/local-save.ts      (BENCH_SAVES, default 600 per variant and kind)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import type { LocalSaveBenchApi, SaveVariant } from './local-save-page';
import { round, table, writeResult } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAVES = Number(process.env.BENCH_SAVES ?? 600);
const VARIANTS: SaveVariant[] = ['summaries', 'noSummaries'];

declare global {
  interface Window {
    localSaveBench: LocalSaveBenchApi;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function runLocalSaveBench(): Promise<Record<string, unknown>> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = await build({
    entryPoints: [path.join(here, 'local-save-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  // IndexedDB needs a real origin: a tiny local server for the page and its script.
  const http = createServer((req, res) => {
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en-GB"><title>Local save bench</title><link rel="icon" href="data:,"><script src="/page.js"></script></html>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'localSaveBench' in window);
    await page.evaluate((v) => window.localSaveBench.open(v), VARIANTS);
    const times = await page.evaluate(
      async ([n, variants]) => {
        const out: Record<string, { create: number[]; edit: number[] }> = {};
        for (const v of variants) out[v] = { create: [], edit: [] };
        // Inline (no named helpers: tsx would wrap them in a __name the page lacks).
        for (let i = 0; i < n; i++) for (const v of [...variants].sort(() => Math.random() - 0.5)) out[v]?.create.push(await window.localSaveBench.timeCreate(v, i));
        for (let i = 0; i < n; i++) for (const v of [...variants].sort(() => Math.random() - 0.5)) out[v]?.edit.push(await window.localSaveBench.timeEdit(v, i));
        return out;
      },
      [SAVES, VARIANTS] as const,
    );
    const rows = VARIANTS.flatMap((variant) =>
      (['create', 'edit'] as const).map((kind) => {
        const sorted = [...(times[variant]?.[kind] ?? [])].sort((a, b) => a - b);
        return { variant, kind, p50Ms: round(percentile(sorted, 50), 2), p95Ms: round(percentile(sorted, 95), 2), maxMs: round(sorted.at(-1) ?? Number.NaN, 1) };
      }),
    );
    console.log(`\nLocal save in Chromium IndexedDB, ${String(SAVES)} per variant and kind, interleaved (target p95 <= 16 ms)`);
    table(rows.map((r) => ({ variant: r.variant, kind: r.kind, 'p50 (ms)': r.p50Ms, 'p95 (ms)': r.p95Ms, 'max (ms)': r.maxMs })));
    const result = { saves: SAVES, targetP95Ms: 16, rows };
    console.log(`results: ${writeResult('local-save', result)}`);
    return result;
  } finally {
    await browser.close();
    await new Promise((resolve) => http.close(resolve));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runLocalSaveBench();
