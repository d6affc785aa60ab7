// The drain at service-worker start (issue 4), the path Safari and Firefox depend on: they
// have no Background Sync, so a change saved while the server could not be reached leaves
// with the next start of the worker, e.g. the first request after the device is back in
// coverage, before any page of the app has run.
//
// Chromium stands in for such a browser: an init script hides Background Sync from the app
// (as Safari and Firefox do), so a save registers no wake-up. The app is loaded through the
// fault-injecting proxy, which refuses the sync API while the case is saved (Playwright's
// offline switch cannot be used: it waits forever on a stopped worker). Every page is
// closed and the worker stopped (DevTools protocol); the network heals and nothing may
// arrive. Then a navigation to an API address (the worker sees it but does not answer it
// with the app, so no app code runs) starts the worker, and its start drain delivers.
import type { Page, Request } from '@playwright/test';
import { signInAsAdmin } from './support/accounts';
import {
  apiGetCase,
  caseIdFromUrl,
  caseSyncMark,
  readDeviceCase,
  signInAsCaseResponder,
  typeField,
  waitForServiceWorkerControl,
} from './support/cases';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { expect, serverOrigin, test } from './support/fixtures';

// Chromium reports each refused sync request in the console.
test.use({ allowedConsoleErrors: [{ text: /Failed to load resource/, url: /\/api\/sync\// }] });

/** Stops every service worker of the browser (DevTools protocol) and waits until they are. */
async function stopServiceWorkers(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  const running = new Map<string, string>();
  devtools.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const version of event.versions) running.set(version.versionId, version.runningStatus);
  });
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await expect
    .poll(() => running.size > 0 && [...running.values()].every((status) => status === 'stopped'), {
      message: 'every service worker stopped',
      timeout: 10_000,
    })
    .toBe(true);
  await devtools.send('ServiceWorker.disable');
  await devtools.detach();
}

let proxy: FaultProxy;
test.beforeAll(async () => {
  proxy = await startFaultProxy(serverOrigin(), {});
});
test.afterAll(async () => {
  await proxy.close();
});

test('without Background Sync, a change saved offline leaves when the service worker next starts', async ({
  page,
  openAs,
}) => {
  test.setTimeout(120_000);
  const context = page.context();
  // Like Safari and Firefox: no SyncManager on the worker's registration.
  await context.addInitScript(() => {
    if (typeof ServiceWorkerRegistration === 'undefined') return;
    Object.defineProperty(ServiceWorkerRegistration.prototype, 'sync', {
      configurable: true,
      get: () => undefined,
    });
  });
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const member = await signInAsCaseResponder(context, admin);

  const fromWorker: number[] = [];
  context.on('request', (request: Request) => {
    if (request.serviceWorker() && request.url().includes('/api/sync/push'))
      fromWorker.push(Date.now());
  });

  await page.goto(`${proxy.origin}/`);
  await expect(page.getByText(member.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);
  expect(
    await page.evaluate(
      async () =>
        ((await navigator.serviceWorker.ready) as unknown as { sync?: unknown }).sync === undefined,
    ),
    'Background Sync is hidden from the app',
  ).toBe(true);

  // Out of coverage: a new case through the app's own screen.
  proxy.fault = 'refuse';
  const patientName = `Worker start ${Math.random().toString(36).slice(2, 7)}`;
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-[0-9A-Z-]+$/);
  const caseId = caseIdFromUrl(page);
  await typeField(page, 'patientName', patientName);
  await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
  await expect
    .poll(async () => (await readDeviceCase(page, member.id, caseId)).pendingOutbox)
    .toBeGreaterThan(0);
  await expect
    .poll(() => proxy.counts.refuse, { message: 'the app tried and was refused' })
    .toBeGreaterThan(0);

  // Every page of the app closed and the worker stopped; then the network heals.
  await admin.close();
  await page.goto('about:blank');
  await stopServiceWorkers(page);
  await page.close();
  expect(context.pages()).toEqual([]);
  const passedBefore = proxy.counts.passed;
  proxy.fault = null;

  // Nothing runs that could send it: no page, no worker, no Background Sync.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(proxy.counts.passed, 'no sync request before the worker starts').toBe(passedBefore);
  const onServer = async (): Promise<string | null> => {
    const response = await context.request.get(`/api/cases/${encodeURIComponent(caseId)}`);
    if (response.status() === 404) return null;
    return (await apiGetCase(context.request, caseId)).case.patientName;
  };
  expect(await onServer(), 'not on the server yet').toBeNull();

  // A request the worker sees but answers from the network: it starts the worker only. (If
  // the browser had started the worker again by itself while the network was still broken,
  // its start drain ran then and failed: stop it and start it again, up to three times.)
  const startedAt = Date.now();
  const probe = await context.newPage();
  let delivered: string | null = null;
  for (let start = 1; start <= 3 && delivered === null; start++) {
    if (start > 1) {
      await probe.goto('about:blank');
      await stopServiceWorkers(probe);
    }
    const health = await probe.goto(`${proxy.origin}/api/health`);
    expect(health?.status()).toBe(200);
    const deadline = Date.now() + 15_000;
    while (delivered === null && Date.now() < deadline) {
      delivered = await onServer();
      if (delivered === null) await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  expect(delivered, 'delivered after the worker started').toBe(patientName);
  expect(fromWorker.filter((at) => at >= startedAt).length, 'pushed by the worker').toBeGreaterThan(
    0,
  );
  await probe.close();
});
