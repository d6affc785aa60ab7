// Where the first device case search's time goes (a profile for issue 5's cold search):
// IndexedDB read vs parse vs sort vs match, and how other stored layouts would read.
//   npx tsx tests/bench/case-search-device-profile.ts   (BENCH_DEVICE_CASES, BENCH_NO_CSP=1)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProfileApi } from './case-search-device-profile-page';
import { openBenchPage, timingStats } from './support/chromium-page';

const CASES = Number(process.env.BENCH_DEVICE_CASES ?? 5_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 15);

declare global {
  interface Window {
    caseSearchProfile: ProfileApi;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const bench = await openBenchPage({
  entry: path.join(here, 'case-search-device-profile-page.ts'),
  title: 'Case search profile',
  global: 'caseSearchProfile',
  withoutCsp: process.env.BENCH_NO_CSP === '1',
});
try {
  await bench.page.evaluate((n) => window.caseSearchProfile.seed(n), CASES);
  const parts = await bench.page.evaluate((runs) => window.caseSearchProfile.profile(runs), RUNS);
  console.log(
    `${String(CASES)} cases, ${String(RUNS)} runs, CSP ${process.env.BENCH_NO_CSP === '1' ? 'off' : 'on (as in the app)'}`,
  );
  for (let i = 0; i < RUNS; i++) {
    await bench.page.reload();
    for (const [part, ms] of Object.entries(
      await bench.page.evaluate(() => window.caseSearchProfile.profileFreshPage()),
    ))
      (parts[part] ??= []).push(ms);
  }
  console.table(Object.entries(parts).map(([part, ms]) => ({ part, ...timingStats(ms) })));
} finally {
  await bench.close();
}
