// Local save benchmark in Chromium (issue 4's "local save p95 <= 16 ms"), with and without the
// case-summaries middleware side by side: saves alternate between two fresh databases (the
// order shuffled each round), so machine load hits both alike. Creates (a new case) and
// edits (autosave of one field of an existing case). No server is needed. Reports only.
//   npx tsx tests/bench/local-save.ts      (BENCH_SAVES, default 600 per variant and kind;
//   BENCH_NO_CSP=1, BENCH_SYNC_PROTOCOL_SRC: see support/chromium-page.ts)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalSaveBenchApi, SaveVariant } from './local-save-page';
import { round, table, writeResult } from './support';
import { benchSource, openBenchPage, timingStats } from './support/chromium-page';

const SAVES = Number(process.env.BENCH_SAVES ?? 600);
const VARIANTS: SaveVariant[] = ['summaries', 'noSummaries'];

declare global {
  interface Window {
    localSaveBench: LocalSaveBenchApi;
  }
}

export async function runLocalSaveBench(): Promise<Record<string, unknown>> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bench = await openBenchPage({
    entry: path.join(here, 'local-save-page.ts'),
    title: 'Local save bench',
    global: 'localSaveBench',
    withoutCsp: process.env.BENCH_NO_CSP === '1',
  });
  const { page } = bench;
  try {
    await page.evaluate((v) => window.localSaveBench.open(v), VARIANTS);
    const times = await page.evaluate(
      async ([n, variants]) => {
        const out: Record<string, { create: number[]; edit: number[] }> = {};
        for (const v of variants) out[v] = { create: [], edit: [] };
        // Inline (no named helpers: tsx would wrap them in a __name the page lacks).
        for (let i = 0; i < n; i++)
          for (const v of [...variants].sort(() => Math.random() - 0.5))
            out[v]?.create.push(await window.localSaveBench.timeCreate(v, i));
        for (let i = 0; i < n; i++)
          for (const v of [...variants].sort(() => Math.random() - 0.5))
            out[v]?.edit.push(await window.localSaveBench.timeEdit(v, i));
        return out;
      },
      [SAVES, VARIANTS] as const,
    );
    const rows = VARIANTS.flatMap((variant) =>
      (['create', 'edit'] as const).map((kind) => {
        const s = timingStats(times[variant]?.[kind] ?? []);
        return { variant, kind, p50Ms: s.p50, p95Ms: s.p95, maxMs: round(s.max, 1) };
      }),
    );
    console.log(
      `\nLocal save in Chromium IndexedDB, ${String(SAVES)} per variant and kind, interleaved (target p95 <= 16 ms); ${benchSource()}`,
    );
    table(
      rows.map((r) => ({
        variant: r.variant,
        kind: r.kind,
        'p50 (ms)': r.p50Ms,
        'p95 (ms)': r.p95Ms,
        'max (ms)': r.maxMs,
      })),
    );
    const result = { saves: SAVES, targetP95Ms: 16, source: benchSource(), rows };
    console.log(`results: ${writeResult('local-save', result)}`);
    return result;
  } finally {
    await bench.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runLocalSaveBench();
