// Issue 10's "a queue that never stalls", the retry side (decision 016), in Chromium on the
// real case screens. The app is loaded through a proxy in front of the real server, and a
// responder saves a case while the whole server is unavailable: 503 with
// Retry-After: 3600, to the sync API and to the engine's health probe (GET /api/ready). The
// outage lasts ten minutes of the page's clock (Playwright's fake clock, moved on in steps;
// the network, IndexedDB and the server are real). Then the server comes back. With the
// browser online all along and without a reload, the sync bar must say everything is synced
// within 60 s of the page's clock.
import type { Page } from '@playwright/test';
import { signInAsAdmin } from './support/accounts';
import {
  apiGetCase,
  caseIdFromUrl,
  caseSyncMark,
  signInAsCaseResponder,
  syncBar,
  tap,
  typeField,
  waitForServiceWorkerControl,
} from './support/cases';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { expect, serverOrigin, test } from './support/fixtures';

// Chromium reports each 503 in the console; that is the outage we inject.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: the server responded with a status of 503/, url: /\/api\// },
  ],
});

const MINUTE = 60_000;

let proxy: FaultProxy;

test.beforeAll(async () => {
  proxy = await startFaultProxy(serverOrigin(), {});
});

test.afterAll(async () => {
  await proxy.close();
});

function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => Date.now());
}

/** Moves the page's clock on by `ms` (timers due meanwhile fire once) and gives the request
 * a fired timer sent time to be answered. */
async function advance(page: Page, ms: number): Promise<void> {
  const before = proxy.counts.unavailable + proxy.counts.passed;
  await page.clock.fastForward(ms);
  await expect
    .poll(() => proxy.counts.unavailable + proxy.counts.passed, { timeout: 2_000 })
    .toBeGreaterThan(before)
    .catch(() => undefined); // nothing was due in this step
}

test('after ten minutes of 503 the app syncs within a minute of the server coming back', async ({
  page,
  openAs,
}) => {
  test.setTimeout(120_000);
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const member = await signInAsCaseResponder(page.context(), admin);

  await page.clock.install();
  await page.goto(`${proxy.origin}/`);
  await expect(page.getByText(member.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);

  // The server goes down; the responder starts a case.
  proxy.fault = 'unavailable';
  const outageStart = await pageNow(page);
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-[0-9A-Z-]+$/);
  const caseId = caseIdFromUrl(page);
  const patientName = `Outage ${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
  await typeField(page, 'patientName', patientName);
  await tap(page, 'field-incidentType-Medical');
  await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
  await expect(syncBar(page)).toContainText('Sync failed: Service Unavailable');

  // Ten minutes of the page's clock, in 30 s steps: the app keeps trying, at least once a
  // minute (pushes and probes), and every one is refused.
  while ((await pageNow(page)) - outageStart < 10 * MINUTE) await advance(page, 30_000);
  const refused = proxy.counts.unavailable;
  expect(refused, 'requests refused during the outage').toBeGreaterThanOrEqual(10);
  await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
  await expect(syncBar(page)).toContainText(/\d+ changes? not yet synced/);

  // The server comes back. Only the page's clock moves the app on: no reload, no tap, no
  // `online` event, no tab switch.
  proxy.fault = null;
  const recoveredAt = await pageNow(page);
  let syncedAfter: number | null = null;
  while (syncedAfter === null && (await pageNow(page)) - recoveredAt <= MINUTE) {
    await advance(page, 5_000);
    const synced = await expect(syncBar(page))
      .toContainText('All changes synced', { timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    if (synced) syncedAfter = (await pageNow(page)) - recoveredAt;
  }
  expect(syncedAfter, 'page-clock ms from recovery to "All changes synced"').not.toBeNull();
  expect(syncedAfter!).toBeLessThanOrEqual(MINUTE);
  test.info().annotations.push(
    { type: 'requests refused during the outage', description: String(refused) },
    {
      type: 'synced after recovery',
      description: `${String(syncedAfter)} ms of the page's clock`,
    },
  );
  await expect(caseSyncMark(page)).not.toHaveText(/Not yet synced/);
  const { case: record } = await apiGetCase(admin.request, caseId);
  expect(record.patientName).toBe(patientName);
});
