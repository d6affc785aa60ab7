// Sync chaos on the real case screens (issue 4's chaos suite, issue 5's screens): the built
// app and its service worker are loaded THROUGH a fault-injecting proxy in front of the real
// server. While the proxy refuses connections, answers 500 or a captive portal's page, cuts
// a response after the server committed, or hangs, a responder starts cases with New Case
// and edits earlier ones on Patient Details; the page is closed and opened again; then the
// network heals. The server must end with exactly the cases saved, with the values the
// responder last saw on screen: none lost, none twice.
import type { Page } from '@playwright/test';
import { signInAsAdmin } from './support/accounts';
import {
  apiGetCase,
  apiSearchCases,
  caseIdFromUrl,
  caseHeader,
  caseSyncMark,
  readDeviceCase,
  signInAsCaseResponder,
  syncBar,
  tap,
  typeField,
  waitForServiceWorkerControl,
} from './support/cases';
import { startFaultProxy, type Fault, type FaultProxy } from './support/fault-proxy';
import { expect, guardConsole, serverOrigin, test } from './support/fixtures';

// Chromium reports each broken sync request in the console; those are the faults we inject.
const SYNC_FAULT_CONSOLE = [{ text: /Failed to load resource/, url: /\/api\/sync\// }];
test.use({ allowedConsoleErrors: SYNC_FAULT_CONSOLE });

// 'hang' last: the app gives a hung request 30 s before it gives up, and closing the page
// is what ends it here.
const FAULTS: Fault[] = ['refuse', 'server-error', 'captive-portal', 'cut-after-commit', 'hang'];

/** The sync bar with changes waiting (a request still hanging shows as syncing; a refused
 * connection, no answer at all, as offline). */
const PENDING = /\d+ changes? not yet synced|Syncing \d+ changes?…|Offline: \d+ changes? kept/;

let proxy: FaultProxy;

test.beforeAll(async () => {
  proxy = await startFaultProxy(serverOrigin(), {});
});

test.afterAll(async () => {
  await proxy.close();
});

interface SavedCase {
  caseId: string;
  patientName: string;
  approximateAge: number;
  incidentType: string;
  incidentLocation: string | null;
}

async function newCase(page: Page, saved: SavedCase, userId: number): Promise<string> {
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-[0-9A-Z-]+$/);
  const caseId = caseIdFromUrl(page);
  await typeField(page, 'patientName', saved.patientName);
  await typeField(page, 'approximateAge', String(saved.approximateAge));
  await tap(page, 'field-incidentType-Medical');
  await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
  // A tap shows at once and saves a moment later; the test leaves the page right after, so
  // it waits until the device holds the change (as it does for the edit below).
  await expect
    .poll(async () => (await readDeviceCase(page, userId, caseId)).case?.incidentType)
    .toBe(saved.incidentType);
  return caseId;
}

test('cases saved on the real screens under network faults reach the server exactly once', async ({
  page,
  openAs,
}) => {
  test.setTimeout(150_000);
  const run = Math.random().toString(36).slice(2, 7).toUpperCase();
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const member = await signInAsCaseResponder(page.context(), admin);

  await page.goto(`${proxy.origin}/`);
  await expect(page.getByText(member.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);

  const saved: SavedCase[] = [];
  for (const [index, fault] of FAULTS.entries()) {
    proxy.fault = fault;
    const before = proxy.counts[fault];

    // A new case under this fault…
    const entry: SavedCase = {
      caseId: '',
      patientName: `Chaos ${run} ${fault}`,
      approximateAge: 20 + index,
      incidentType: 'Medical',
      incidentLocation: null,
    };
    entry.caseId = await newCase(page, entry, member.id);
    saved.push(entry);

    // …and an edit of the case started under the previous fault (its first push may have
    // been committed by the server without the device hearing of it).
    const previous = saved[index - 1];
    if (previous) {
      previous.incidentLocation = `Corner of Main and ${fault} Road`;
      await page.goto(`${proxy.origin}/patient-details/${previous.caseId}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Patient Details' })).toBeVisible();
      await expect(page.locator('#field-patientName')).toHaveValue(previous.patientName);
      await typeField(page, 'incidentLocation', previous.incidentLocation);
      await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
      // The field saves when it loses focus, a moment after the screen shows the text (the
      // mark above said so already: the case was pending before). The page is reloaded or
      // closed soon after; wait until the device holds the edit.
      const edited = previous;
      await expect
        .poll(
          async () => (await readDeviceCase(page, member.id, edited.caseId)).case?.incidentLocation,
        )
        .toBe(edited.incidentLocation);
    }

    // The app tried under this fault and kept everything.
    await expect
      .poll(() => proxy.counts[fault], {
        timeout: 20_000,
        message: `a sync attempt under ${fault}`,
      })
      .toBeGreaterThan(before);
    await expect(syncBar(page)).toContainText(PENDING);
    await caseHeader(page).getByRole('link', { name: 'Dashboard' }).click();
  }

  // Close the page with everything still queued (and at least one batch committed by the
  // server but never acknowledged), then open the app again, the network still broken (the
  // proxy now refuses: closing the page ended the hung request).
  proxy.fault = 'refuse';
  await page.close();
  const reopened = await page.context().newPage();
  const guard = guardConsole(reopened, SYNC_FAULT_CONSOLE);
  await reopened.goto(`${proxy.origin}/`);
  await expect(reopened.getByText(member.fullName)).toBeVisible();
  await expect(syncBar(reopened)).toContainText(PENDING);
  for (const entry of saved) {
    const device = await readDeviceCase(reopened, member.id, entry.caseId);
    expect(device.case?.patientName, `${entry.caseId} is still on the device`).toBe(
      entry.patientName,
    );
  }

  // Heal. The user taps Sync now once, as anyone would (the app also finds the server again
  // by itself at its next probe, 15 s). From then the outbox must empty within 40 s: a
  // request the service worker may still hold gives up after 30 s, and the drain of these
  // few cases takes seconds. No second tap: a drain that needs coaxing, or a slow one, fails.
  proxy.fault = null;
  const bar = syncBar(reopened);
  const syncNow = bar.getByRole('button', { name: 'Sync now' });
  if (await syncNow.isEnabled()) await syncNow.click();
  await expect(bar).toContainText('All changes synced', { timeout: 40_000 });
  await expect(syncBar(reopened).getByRole('link', { name: /not accepted/ })).toHaveCount(0);

  // Exactly the cases saved, each once, with the values last entered.
  const onServer = await apiSearchCases(admin.request, { patientName: `Chaos ${run} ` });
  expect(onServer.map((c) => c.caseId).sort(), 'the cases on the server').toEqual(
    saved.map((s) => s.caseId).sort(),
  );
  for (const entry of saved) {
    const { case: record } = await apiGetCase(admin.request, entry.caseId);
    expect(
      {
        patientName: record.patientName,
        approximateAge: record.approximateAge,
        incidentType: record.incidentType,
        incidentLocation: record.incidentLocation,
        userId: record.userId,
      },
      entry.caseId,
    ).toEqual({
      patientName: entry.patientName,
      approximateAge: entry.approximateAge,
      incidentType: entry.incidentType,
      incidentLocation: entry.incidentLocation,
      userId: member.id,
    });
    const device = await readDeviceCase(reopened, member.id, entry.caseId);
    expect(device.pendingOutbox).toBe(0);
    expect(device.case?.incidentLocation ?? null).toBe(entry.incidentLocation);
  }
  for (const fault of FAULTS)
    expect(proxy.counts[fault], `requests that met ${fault}`).toBeGreaterThan(0);
  expect(guard.errors, 'unexpected console errors (reopened page)').toEqual([]);
});
