// Sync chaos: records saved in Chromium while a proxy in front of the real API refuses
// connections, hangs, cuts responses after the server committed, answers 500 or a captive
// portal's page; the page is closed and reopened; then the network heals. The server must
// end with exactly the records the user saved — none lost, none twice.
//
// The page is a test-only page served by the proxy on the same origin that runs the client
// engine from sync-protocol/src/client (the code the app and its service worker run) on its
// own, so each fault meets the engine without screens, a service worker or the app's timers
// in between. sync-chaos-cases.spec.ts drives the real case screens through the same proxy.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import { ADMIN } from './support/accounts';
import { startFaultProxy, type Fault, type FaultProxy } from './support/fault-proxy';
import { expect, guardConsole, serverOrigin, test } from './support/fixtures';
import type { ChaosPageApi } from './support/sync-chaos-page';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGE_PATH = '/__sync-chaos/';

// Chromium reports each broken sync request in the console; those are the faults we inject.
const SYNC_FAULT_CONSOLE = [{ text: /Failed to load resource/, url: /\/api\/sync\// }];
test.use({ allowedConsoleErrors: SYNC_FAULT_CONSOLE });

let proxy: FaultProxy;

test.beforeAll(async () => {
  const bundle = await build({
    entryPoints: [path.join(HERE, 'support', 'sync-chaos-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  proxy = await startFaultProxy(serverOrigin(), {
    [PAGE_PATH]: {
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en-GB"><head><title>Sync chaos</title><link rel="icon" href="data:,"><script src="${PAGE_PATH}page.js"></script></head><body><main><h1>Sync chaos</h1></main></body></html>`,
    },
    [`${PAGE_PATH}page.js`]: { contentType: 'text/javascript; charset=utf-8', body: script },
  });
});

test.afterAll(async () => {
  await proxy.close();
});

async function openChaosPage(page: Page, userId: number): Promise<void> {
  await page.goto(`${proxy.origin}${PAGE_PATH}`);
  await page.waitForFunction(() => 'chaos' in globalThis);
  await page.evaluate((id) => window.chaos.start(id), userId);
}

async function signIn(page: Page): Promise<number> {
  await page.goto(`${proxy.origin}${PAGE_PATH}`);
  return page.evaluate(async ({ email, password }) => {
    const response = await fetch('/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`login: ${String(response.status)}`);
    const body = (await response.json()) as { user: { id: number } };
    return body.user.id;
  }, ADMIN);
}

const FAULTS: Fault[] = ['refuse', 'hang', 'cut-after-commit', 'server-error', 'captive-portal'];

test('every record saved under network faults reaches the server exactly once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = Math.random().toString(36).slice(2, 8);
  const userId = await signIn(page);
  await openChaosPage(page, userId);

  const saved: string[] = [];
  for (const fault of FAULTS) {
    proxy.fault = fault;
    const before = proxy.counts[fault];
    for (let i = 1; i <= 3; i++) {
      const name = `Chaos ${run} ${fault} ${String(i)}`;
      await page.evaluate((n) => window.chaos.save(n), name);
      saved.push(name);
    }
    // The engine tried (and failed) under this fault, and kept everything.
    await expect.poll(() => proxy.counts[fault], { timeout: 15_000 }).toBeGreaterThan(before);
    expect(await page.evaluate(() => window.chaos.pending())).toBe(saved.length);
  }
  expect(await page.evaluate(() => window.chaos.maxAttempts())).toBeGreaterThan(FAULTS.length);

  // Close the page with everything still queued (and one batch committed but unacknowledged).
  await page.close();
  const reopened = await page.context().newPage();
  const guard = guardConsole(reopened, SYNC_FAULT_CONSOLE);
  await openChaosPage(reopened, userId);
  expect(await reopened.evaluate(() => window.chaos.pending())).toBe(saved.length);

  // Heal.
  proxy.fault = null;
  await reopened.evaluate(() => window.chaos.syncNow());
  await expect
    .poll(() => reopened.evaluate(() => window.chaos.pending()), { timeout: 20_000 })
    .toBe(0);
  expect(await reopened.evaluate(() => window.chaos.rejections())).toBe(0);
  // The outbox empties when the last batch is acknowledged; the engine pulls after that and
  // only then is idle (a retry that healed the network is still 'syncing' here).
  await expect
    .poll(() => reopened.evaluate(() => window.chaos.status().phase), { timeout: 10_000 })
    .toBe('idle');

  // This run's records only (the list is newest first, 200 at most, of every case on the server).
  const onServer = await reopened.evaluate(async (prefix) => {
    const response = await fetch(`/api/cases?limit=200&patientName=${encodeURIComponent(prefix)}`);
    const cases = (await response.json()) as { patientName: string | null }[];
    return cases.map((c) => c.patientName ?? '').filter((n) => n.startsWith(prefix));
  }, `Chaos ${run} `);
  expect(onServer.sort()).toEqual([...saved].sort());
  expect(
    proxy.counts['cut-after-commit'],
    'a batch was committed by the server and its answer lost',
  ).toBeGreaterThan(0);
  expect(guard.errors, 'unexpected console errors (reopened page)').toEqual([]);
});

declare global {
  interface Window {
    chaos: ChaosPageApi;
  }
}
