// Data in the browser (issue 12, decision 023) in Chromium against the real server: a
// responder's session is ended by the server (a logout elsewhere) while a change made
// offline still waits. The app then shows only a sign-in prompt naming the responder, and the
// change stays on the device; signing in again as the responder syncs it. Ended again with
// nothing waiting, the app deletes the responder's database at its next start.
import type { Page } from '@playwright/test';
import { signInAsAdmin } from './support/accounts';
import {
  apiGetCase,
  caseIdFromUrl,
  signInAsCaseResponder,
  syncBar,
  typeField,
  waitForServiceWorkerControl,
  writeHeaders,
} from './support/cases';
import { expect, test } from './support/fixtures';

// The ended session answers 401 to the sync API; offline requests fail at the network level.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: the server responded with a status of 401/, url: /\/api\// },
    { text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, url: /\/api\// },
  ],
});

function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
}

/** The server ends the responder's session, as a logout on another device does. */
async function endSessionOnServer(page: Page): Promise<void> {
  const response = await page.request.post('/api/logout', { headers: writeHeaders() });
  expect(response.ok()).toBe(true);
}

test('a session the server ends locks unsynced changes behind the same sign-in, else clears the device', async ({
  page,
  openAs,
}) => {
  test.setTimeout(120_000);
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const member = await signInAsCaseResponder(page.context(), admin);
  const database = `rescuelog-user-${String(member.id)}`;

  await page.goto('/');
  await expect(page.getByText(member.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);

  // Offline, the responder starts a case: it waits on the device.
  await page.context().setOffline(true);
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-[0-9A-Z-]+$/);
  const caseId = caseIdFromUrl(page);
  const patientName = `Held ${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
  await typeField(page, 'patientName', patientName);

  // Meanwhile the server ends the session; the signal returns.
  await endSessionOnServer(page);
  await page.context().setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));

  const locked = page.getByRole('heading', { name: 'Unsynced changes are locked on this device' });
  await expect(locked).toBeVisible({ timeout: 30_000 });
  // The new case and its name may be one queued change or two.
  await expect(
    page.locator('p', {
      hasText: new RegExp(`${member.fullName} has \\d+ unsynced changes? here\\.`),
    }),
  ).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Register' })).toHaveCount(0);
  await expect(page.getByText(patientName)).toHaveCount(0);
  expect(await databases(page)).toContain(database);
  expect((await admin.request.get(`/api/cases/${caseId}`)).status()).toBe(404);

  // The responder signs in again on the locked screen: the change reaches the server.
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(member.fullName)).toBeVisible();
  await expect(syncBar(page)).toContainText('All changes synced', { timeout: 30_000 });
  await expect
    .poll(async () => (await admin.request.get(`/api/cases/${caseId}`)).status(), {
      timeout: 30_000,
    })
    .toBe(200);
  expect((await apiGetCase(admin.request, caseId)).case.patientName).toBe(patientName);

  // Ended again, with nothing waiting: the next start finds the session gone and clears.
  await endSessionOnServer(page);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible({ timeout: 30_000 });
  await expect(locked).toHaveCount(0);
  await expect.poll(() => databases(page)).not.toContain(database);
});
