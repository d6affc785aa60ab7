// Case search benchmark, device side (issue 5): p50/p95 of searchLocalCases (the offline
// Cases Logged search, sync-protocol/src/client/case-search.ts) over 5,000 cases in Chromium's
// IndexedDB, for several filter mixes (the list kept since the last change: the normal case
// while someone types filters), the first search after a case changed (only what changed is
// read), the first search after opening the database (all 5,000 summaries are read), and the
// dashboard's recent-cases read. The page runs
// the real client code (bundled with esbuild); no server is needed. Target: p95 < 100 ms.
// Reports only; never fails on a slow machine.
//   npx tsx tests/bench/case-search-device.ts      (BENCH_DEVICE_CASES, BENCH_SEARCH_RUNS)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/case/search';
import type { DeviceBenchApi } from './case-search-device-page';
import { round, table, writeResult } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CASES = Number(process.env.BENCH_DEVICE_CASES ?? 5_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 50);
const TARGET_P95_MS = 100;
const NEWEST = '2026-11-21T06:00:00.000Z';
/** 5,000 cases over a year and a half: a busy volunteer station's device. */
const DAYS = 540;

declare global {
  interface Window {
    caseSearchBench: DeviceBenchApi;
  }
}

const MIXES: Array<{ name: string; filters: CaseSearchFilters }> = [
  { name: 'no filter (all, sorted)', filters: {} },
  { name: 'case number prefix', filters: { caseId: 'c-1' } },
  { name: 'patient name contains', filters: { patientName: 'nkosi' } },
  { name: 'patient name, no match', filters: { patientName: 'xylophone' } },
  { name: 'incident type', filters: { incidentType: 'drowning' } },
  { name: 'one week', filters: { from: '2026-06-01', to: '2026-06-07' } },
  { name: 'status in progress', filters: { status: 'in_progress' } },
  { name: 'responder contains', filters: { responder: 'khumalo' } },
  { name: 'only my cases', filters: { mine: true } },
  { name: 'completed + Fall + one month', filters: { status: 'completed', incidentType: 'Fall', from: '2026-05-01', to: '2026-05-31' } },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function stats(ms: number[]): { p50: number; p95: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50), 2), p95: round(percentile(sorted, 95), 2) };
}

export async function runCaseSearchDeviceBench(): Promise<Record<string, unknown>> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = await build({
    entryPoints: [path.join(here, 'case-search-device-page.ts')],
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
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en-GB"><title>Case search bench</title><link rel="icon" href="data:,"><script src="/page.js"></script></html>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'caseSearchBench' in window);
    const seedMs = await page.evaluate(([n, newest, days]) => window.caseSearchBench.seed(n, newest, days), [CASES, NEWEST, DAYS] as const);
    console.log(`\nCase search, device: ${String(CASES)} cases in Chromium IndexedDB (stored in ${String(round(seedMs / 1000, 1))} s), ${String(RUNS)} runs per mix`);

    const rows: Array<{ mix: string; matches: number; p50Ms: number; p95Ms: number }> = [];
    for (const mix of MIXES) {
      const { ms, total } = await page.evaluate(([filters, runs]) => window.caseSearchBench.time(filters, runs), [mix.filters, RUNS] as const);
      rows.push({ mix: mix.name, matches: total, ...renameStats(stats(ms)) });
    }
    const afterChange = stats(await page.evaluate((runs) => window.caseSearchBench.timeAfterChange(runs), RUNS));
    rows.push({ mix: 'first search after a case changed', matches: 0, ...renameStats(afterChange) });
    const cold = stats(await page.evaluate((runs) => window.caseSearchBench.timeCold(runs), Math.min(RUNS, 20)));
    rows.push({ mix: 'first search after opening (reads every summary)', matches: 0, ...renameStats(cold) });
    const recent = stats(await page.evaluate((runs) => window.caseSearchBench.timeRecent(runs), RUNS));
    rows.push({ mix: "dashboard's 3 newest (recentLocalCases)", matches: 3, ...renameStats(recent) });

    const worst = Math.max(...rows.map((r) => r.p95Ms));
    table(rows.map((r) => ({ mix: r.mix, matches: r.matches, 'p50 (ms)': r.p50Ms, 'p95 (ms)': r.p95Ms })));
    console.log(`worst p95: ${String(worst)} ms (target < ${String(TARGET_P95_MS)} ms: ${worst < TARGET_P95_MS ? 'met' : 'NOT met'})`);
    const result = { cases: CASES, runs: RUNS, targetP95Ms: TARGET_P95_MS, worstP95Ms: worst, mixes: rows };
    console.log(`results: ${writeResult('case-search-device', result)}`);
    return result;
  } finally {
    await browser.close();
    await new Promise((resolve) => http.close(resolve));
  }
}

function renameStats(s: { p50: number; p95: number }): { p50Ms: number; p95Ms: number } {
  return { p50Ms: s.p50, p95Ms: s.p95 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCaseSearchDeviceBench();
