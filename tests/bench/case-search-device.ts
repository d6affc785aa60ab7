// Case search benchmark, device side (issue 5): p50/p95 of searchLocalCases (the offline
// Cases Logged search, sync-protocol/src/client/case-search.ts) over 5,000 cases in Chromium's
// IndexedDB, for several filter mixes (the list kept since the last change: the normal case
// while someone types filters), the first search after a case changed (only what changed is
// read), the first search after opening the database (the list stored at the last start plus
// what changed since; after a case was removed; and without a stored list: every summary
// read), the first search of a freshly loaded page (code and database cold, as when the app
// opens), and the dashboard's recent-cases read. The page runs the real client code (bundled with esbuild, served with the
// app's CSP); no server is needed. Target: p95 < 100 ms. Reports only; never fails on a slow
// machine.
//   npx tsx tests/bench/case-search-device.ts
//   (BENCH_DEVICE_CASES, BENCH_SEARCH_RUNS, BENCH_COLD_RUNS, BENCH_NO_CSP=1, BENCH_SYNC_PROTOCOL_SRC)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import type { DeviceBenchApi } from './case-search-device-page';
import { BENCH_DAYS, BENCH_NEWEST } from './case-search-device-seed';
import { round, table, writeResult } from './support';
import { benchSource, openBenchPage, timingStats } from './support/chromium-page';

const CASES = Number(process.env.BENCH_DEVICE_CASES ?? 5_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 50);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 20);
const NO_CSP = process.env.BENCH_NO_CSP === '1';
const TARGET_P95_MS = 100;

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
  {
    name: 'completed + Fall + one month',
    filters: { status: 'completed', incidentType: 'Fall', from: '2026-05-01', to: '2026-05-31' },
  },
];

export async function runCaseSearchDeviceBench(): Promise<Record<string, unknown>> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bench = await openBenchPage({
    entry: path.join(here, 'case-search-device-page.ts'),
    title: 'Case search bench',
    global: 'caseSearchBench',
    withoutCsp: NO_CSP,
  });
  const { page } = bench;
  try {
    const seedMs = await page.evaluate(
      ([n, newest, days]) => window.caseSearchBench.seed(n, newest, days),
      [CASES, BENCH_NEWEST, BENCH_DAYS] as const,
    );
    console.log(
      `\nCase search, device: ${String(CASES)} cases in Chromium IndexedDB (stored in ${String(round(seedMs / 1000, 1))} s), ${String(RUNS)} runs per mix, ${String(COLD_RUNS)} per cold row; ${benchSource()}; CSP ${NO_CSP ? 'off' : 'as in the app'}`,
    );

    const rows: Array<{
      mix: string;
      matches: number | string;
      p50Ms: number;
      p95Ms: number;
      maxMs: number;
    }> = [];
    const add = (mix: string, matches: number | string, ms: number[]) => {
      const s = timingStats(ms);
      rows.push({ mix, matches, p50Ms: s.p50, p95Ms: s.p95, maxMs: s.max });
    };
    for (const mix of MIXES) {
      const { ms, total } = await page.evaluate(
        ([filters, runs]) => window.caseSearchBench.time(filters, runs),
        [mix.filters, RUNS] as const,
      );
      add(mix.name, total, ms);
    }
    add(
      'first search after a case changed',
      '',
      await page.evaluate((runs) => window.caseSearchBench.timeAfterChange(runs), RUNS),
    );
    // The 50 changes above had the list stored again; a start happens after that write ended
    // (a tab opened while another stores waits for the write: not what this row measures).
    await page.evaluate(() => window.caseSearchBench.settleKeptList());
    add(
      'first search after opening (list kept from the last start)',
      '',
      await page.evaluate((runs) => window.caseSearchBench.timeCold(runs, false), COLD_RUNS),
    );
    add(
      'first search after opening, a case removed since',
      '',
      await page.evaluate((runs) => window.caseSearchBench.timeColdAfterRemoval(runs), COLD_RUNS),
    );
    add(
      'first search after opening, no list kept (reads every summary)',
      '',
      await page.evaluate((runs) => window.caseSearchBench.timeCold(runs, true), COLD_RUNS),
    );
    await page.evaluate(() => window.caseSearchBench.settleKeptList());
    // A new page each time: the code is cold too (as when the app opens). The list kept by the
    // previous page's search is there, as it would be.
    const firstOfPage: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      await page.reload();
      firstOfPage.push(await page.evaluate(() => window.caseSearchBench.firstSearchOfPage()));
      await page.evaluate(() => window.caseSearchBench.settleKeptList());
    }
    add('first search of a freshly loaded page', '', firstOfPage);
    add(
      "dashboard's 3 newest (recentLocalCases)",
      3,
      await page.evaluate((runs) => window.caseSearchBench.timeRecent(runs), RUNS),
    );

    const worst = Math.max(
      ...rows.filter((r) => !r.mix.includes('no list kept')).map((r) => r.p95Ms),
    );
    table(
      rows.map((r) => ({
        mix: r.mix,
        matches: r.matches,
        'p50 (ms)': r.p50Ms,
        'p95 (ms)': r.p95Ms,
        'max (ms)': r.maxMs,
      })),
    );
    console.log(
      `worst p95 (with the list kept): ${String(worst)} ms (target < ${String(TARGET_P95_MS)} ms: ${worst < TARGET_P95_MS ? 'met' : 'NOT met'})`,
    );
    const result = {
      cases: CASES,
      runs: RUNS,
      coldRuns: COLD_RUNS,
      csp: !NO_CSP,
      source: benchSource(),
      targetP95Ms: TARGET_P95_MS,
      worstP95Ms: worst,
      mixes: rows,
    };
    console.log(`results: ${writeResult('case-search-device', result)}`);
    return result;
  } finally {
    await bench.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCaseSearchDeviceBench();
