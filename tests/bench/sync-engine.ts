// Sync engine benchmark in Chromium (issue 4): p50/p95 of one local save (domain row plus
// outbox entry, one IndexedDB transaction), the time to drain 1,000 queued mutations in
// batches versus one request each, and the server's applied pushes per second. The page
// runs the client engine from sync-protocol/src/client against the real built server.
// Then a new device's first sync: every case pulled into a fresh database (rows/s, and how much
// of it waits for the server). Targets: local save p95 <= 16 ms; batched drain >= 10x faster.
// Reports only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { startFaultProxy } from '../e2e/support/fault-proxy';
import type { ChaosPageApi } from '../e2e/support/sync-chaos-page';
import { round, startBenchServer, table, writeResult } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAVES = 1000;
const MUTATIONS = 1000;
const BATCH = 200;
const PULLS = 3;
const PULL_PAGE = 1000;

declare global {
  interface Window {
    chaos: ChaosPageApi;
  }
}

/** A process's CPU time so far (user + system) from /proc, in ms; NaN where unavailable. */
function processCpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th
    // and 13th, in clock ticks (100 per second on Linux).
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function runSyncBench(): Promise<Record<string, unknown>> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = await build({
    entryPoints: [path.join(here, '..', 'e2e', 'support', 'sync-chaos-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
  });
  const server = await startBenchServer();
  // Same origin for the page and the API: the proxy (with no fault) serves the page.
  const proxy = await startFaultProxy(server.state.origin, {
    '/bench/': {
      contentType: 'text/html',
      body: '<!doctype html><html lang="en-GB"><title>Sync bench</title><link rel="icon" href="data:,"><script src="/bench/page.js"></script></html>',
    },
    '/bench/page.js': { contentType: 'text/javascript', body: bundle.outputFiles[0]?.text ?? '' },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${proxy.origin}/bench/`);
    // The first account on the empty database is an approved administrator, signed in.
    const userId = await page.evaluate(async () => {
      const res = await fetch('/api/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
        body: JSON.stringify({
          email: 'sync-bench@example.org',
          password: 'bench-password-1',
          fullName: 'Sync Bench',
          qualifications: 'Nurse',
        }),
      });
      if (res.status !== 201)
        throw new Error(`register: ${String(res.status)} ${await res.text()}`);
      // Registration signs nobody in (decision 027): sign in for the session and the id.
      const login = await fetch('/api/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
        body: JSON.stringify({ email: 'sync-bench@example.org', password: 'bench-password-1' }),
      });
      if (!login.ok) throw new Error(`login: ${String(login.status)} ${await login.text()}`);
      return ((await login.json()) as { user: { id: number } }).user.id;
    });
    await page.evaluate((id) => window.chaos.open(id), userId);

    // 1. Local saves (the queue grows to SAVES entries; they are drained in step 2).
    const saveMs = await page.evaluate(async (n) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++)
        times.push(await window.chaos.timeSave(`Bench patient ${String(i)}`));
      return times;
    }, SAVES);
    const sorted = [...saveMs].sort((a, b) => a - b);

    // 2. Drain MUTATIONS batched, then MUTATIONS more one request each.
    const serverCpuBefore = processCpuMs(server.state.pid);
    const batched = await page.evaluate((b) => window.chaos.drain(b), BATCH);
    const serverCpuBatched = processCpuMs(server.state.pid) - serverCpuBefore;
    await page.evaluate(async (n) => {
      for (let i = 0; i < n; i++) await window.chaos.timeSave(`Bench single ${String(i)}`);
    }, MUTATIONS);
    const serverCpuBeforeSingle = processCpuMs(server.state.pid);
    const single = await page.evaluate(() => window.chaos.drain(1));
    const serverCpuSingle = processCpuMs(server.state.pid) - serverCpuBeforeSingle;
    if (batched.acknowledged !== MUTATIONS || single.acknowledged !== MUTATIONS) {
      throw new Error(
        `drain did not finish: batched ${JSON.stringify(batched)}, single ${JSON.stringify(single)}`,
      );
    }

    // 3. A new device's first sync: everything pulled into a fresh database (the 2,000 cases
    // above), in pages of 1,000; the median of PULLS runs.
    const pulls: { ms: number; requestMs: number; rows: number }[] = [];
    for (let i = 0; i < PULLS; i++)
      pulls.push(await page.evaluate((limit) => window.chaos.freshPull(limit), PULL_PAGE));
    const pull = [...pulls].sort((a, b) => a.ms - b.ms)[Math.floor(PULLS / 2)];
    if (!pull || pull.rows < SAVES + MUTATIONS)
      throw new Error(`the pull did not bring every case: ${JSON.stringify(pulls)}`);

    const result = {
      localSave: {
        saves: SAVES,
        p50Ms: round(percentile(sorted, 50), 2),
        p95Ms: round(percentile(sorted, 95), 2),
        targetP95Ms: 16,
      },
      drain: {
        mutations: MUTATIONS,
        batchSize: BATCH,
        batchedMs: round(batched.ms),
        oneByOneMs: round(single.ms),
        ratio: round(single.ms / batched.ms, 1),
        targetRatio: 10,
        // Time waiting for the server's answers; the rest is the device (IndexedDB, parsing).
        batchedRequestMs: round(batched.requestMs),
        oneByOneRequestMs: round(single.requestMs),
      },
      devicePull: {
        rows: pull.rows,
        pageSize: PULL_PAGE,
        ms: round(pull.ms),
        rowsPerSecond: round((pull.rows / pull.ms) * 1000, 0),
        // Time waiting for the server's answers; the rest is the device (parse, IndexedDB).
        requestMs: round(pull.requestMs),
        deviceMs: round(pull.ms - pull.requestMs),
      },
      server: {
        // The server process's CPU time: unlike wall time it hardly moves when other work
        // shares the machine (NaN where /proc is missing).
        cpuMsPerMutationBatched: round(serverCpuBatched / MUTATIONS, 2),
        cpuMsPerMutationOneByOne: round(serverCpuSingle / MUTATIONS, 2),
        cpuRatio: round(serverCpuSingle / serverCpuBatched, 1),
        appliedPushesPerSecondBatched: round((MUTATIONS / batched.ms) * 1000, 0),
        appliedPushesPerSecondOneByOne: round((MUTATIONS / single.ms) * 1000, 0),
      },
    };
    console.log('\nSync engine (Chromium, real built server, embedded database)');
    table([
      { measure: 'local save p50 (ms)', value: result.localSave.p50Ms },
      {
        measure: 'local save p95 (ms)',
        value: result.localSave.p95Ms,
        target: '<= 16',
        met: result.localSave.p95Ms <= 16 ? 'yes' : 'NO',
      },
      { measure: `drain ${String(MUTATIONS)} batched (ms)`, value: result.drain.batchedMs },
      { measure: `drain ${String(MUTATIONS)} one by one (ms)`, value: result.drain.oneByOneMs },
      {
        measure: 'one-by-one / batched',
        value: result.drain.ratio,
        target: '>= 10',
        met: result.drain.ratio >= 10 ? 'yes' : 'NO',
      },
      { measure: 'batched: waiting for the server (ms)', value: result.drain.batchedRequestMs },
      { measure: 'one by one: waiting for the server (ms)', value: result.drain.oneByOneRequestMs },
      {
        measure: 'server applied pushes/s (batched)',
        value: result.server.appliedPushesPerSecondBatched,
      },
      {
        measure: 'server CPU ms per mutation, batched',
        value: result.server.cpuMsPerMutationBatched,
      },
      {
        measure: 'server CPU ms per mutation, one by one',
        value: result.server.cpuMsPerMutationOneByOne,
      },
      { measure: 'server CPU one-by-one / batched', value: result.server.cpuRatio },
      {
        measure: `new device's pull of ${String(result.devicePull.rows)} rows (ms)`,
        value: result.devicePull.ms,
      },
      { measure: 'its rows/s on the device', value: result.devicePull.rowsPerSecond },
      { measure: 'its time waiting for the server (ms)', value: result.devicePull.requestMs },
      { measure: 'its time on the device (ms)', value: result.devicePull.deviceMs },
    ]);
    console.log(`results: ${writeResult('sync-engine', result)}`);
    return result;
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runSyncBench();
