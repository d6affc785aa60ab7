// Issue 37, what a new volunteer meets first, on a 390×844 phone: the sign-in screen opens
// without a failed request, a CSP violation or an aborted request; an administrator approves
// them with the dialog's defaults, which name the role and what it allows; the volunteer's
// dashboard shows their role, and New Case and CPR Logger without scrolling while the
// notifications offer shows, and New Case opens. Nothing in the browser's console (the
// fixture's guard), no Content Security Policy report and no aborted API request on the way.
import type { Page } from '@playwright/test';
import { apiRegister, newPerson, signInAsAdmin } from './support/accounts';
import {
  signInAsCaseResponder,
  syncBar,
  typeField,
  waitForServiceWorkerControl,
} from './support/cases';
import { expect, test } from './support/fixtures';

const PHONE = { width: 390, height: 844 };

interface Watch {
  /** CSP violations the page saw (the securitypolicyviolation event). */
  violations: () => Promise<string[]>;
  /** API requests that ended without an answer (aborted, failed). */
  failedApi: string[];
}

/** Records CSP violations from the first script on, and API requests that failed. */
async function watch(page: Page): Promise<Watch> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  const failedApi: string[] = [];
  page.on('requestfailed', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/'))
      failedApi.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? ''}`);
  });
  return {
    violations: () =>
      page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []),
    failedApi,
  };
}

test('a signed-out visit to the sign-in screen: no error, no CSP report, no failed request', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const seen = await watch(page);
  const session = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/session');
  await page.goto('/auth');
  expect((await session).status()).toBe(200);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await seen.violations()).toEqual([]);
  expect(seen.failedApi).toEqual([]);
});

test('a member approved with the dialog’s defaults starts a case, a CPR session, an incident and a report from the phone dashboard', async ({
  page,
  openAs,
}) => {
  // The administrator first (on a fresh server the first account is the administrator).
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const person = newPerson('Lindiwe First');
  await apiRegister(page.request, person);

  // The administrator approves without changing anything: the dialog names the role.
  await admin.goto('/admin/users');
  const card = admin
    .getByRole('listitem')
    .filter({ has: admin.getByRole('heading', { name: person.fullName }) });
  await card.getByRole('button', { name: 'Approve' }).click();
  const confirm = admin.getByRole('alertdialog', { name: `Approve ${person.fullName}?` });
  await expect(confirm.getByLabel('Role')).toHaveValue(/\d+/);
  await expect(confirm.getByLabel('Role').locator('option:checked')).toHaveText(
    'Responder (default)',
  );
  await expect(confirm).toContainText('use RescueLog as Responder');
  await expect(confirm).toContainText(
    'Documents New Case, CPR Logger, Multi-Patient and Incident Reports; sees their own cases only.',
  );
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(card).toHaveCount(0);

  // The member's phone: the dashboard, with the notifications offer showing.
  await page.setViewportSize(PHONE);
  const seen = await watch(page);
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByText('Responder', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: /^(Get notifications|Notifications) on this device$/ }),
  ).toBeAttached();
  // Quick Stats count only what this member may see: nothing yet.
  await expect(page.getByText('Updated', { exact: false })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const actions = page.getByRole('navigation', { name: 'Main actions' });
  const newCase = actions.getByRole('link', { name: /New Case/ });
  const cpr = actions.getByRole('link', { name: /CPR Logger/ });
  const newCaseBox = await newCase.boundingBox();
  const cprBox = await cpr.boundingBox();
  test.info().annotations.push({
    type: 'phone dashboard (390×844, offer showing)',
    description: `New Case top ${String(newCaseBox?.y)} bottom ${String(
      (newCaseBox?.y ?? 0) + (newCaseBox?.height ?? 0),
    )}; CPR Logger bottom ${String((cprBox?.y ?? 0) + (cprBox?.height ?? 0))}`,
  });
  for (const box of [newCaseBox, cprBox]) {
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
  }
  // Nothing moved once shown: the same place after everything loaded.
  expect(await newCase.boundingBox()).toEqual(newCaseBox);
  expect(await seen.violations()).toEqual([]);
  expect(seen.failedApi).toEqual([]);

  await newCase.click();
  await expect(page).toHaveURL(/\/patient-details\/C-/);
  await expect(page.getByRole('heading', { name: 'Patient Details' }).first()).toBeVisible();

  // Left untouched, the new case leaves nothing behind: back home, "Active" does not move
  // and the member's case list stays empty once the device has synced.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(actions).toBeVisible();
  // Synced (the create and the discard both reached the server), and the server holds no
  // case of this member's and counts none active.
  await expect
    .poll(
      async () => {
        const synced = await page.getByText('All changes synced').isVisible();
        const cases = (await (await page.request.get('/api/cases')).json()) as unknown[];
        return synced ? cases.length : 'not synced yet';
      },
      { timeout: 20_000 },
    )
    .toBe(0);
  const stats = (await (await page.request.get('/api/stats')).json()) as {
    activeIncidents: number;
  };
  expect(stats.activeIncidents).toBe(0);
  await page.reload();
  await expect(page.locator('dt', { hasText: 'Active' }).locator('+ dd')).toHaveText('0');

  // With the same defaults the member starts each other record from the dashboard: a CPR
  // session (one tap), a mass-casualty incident and an incident report.
  await actions.getByRole('link', { name: /CPR Logger/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^CPR S-/ })).toBeVisible();
  await page.goto('/');
  await actions.getByRole('link', { name: /^Multi-Patient(?! Logs)/ }).click();
  await page.getByRole('button', { name: 'Declare a mass-casualty incident' }).click();
  await expect(page).toHaveURL(/\/multi-patient\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: /^Incident I/ })).toBeVisible();
  await page.goto('/');
  await actions.getByRole('link', { name: /^Incident Reports/ }).click();
  await page.getByRole('link', { name: 'Water rescue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Water rescue details', level: 2 })).toBeVisible();
});

test.describe('offline', () => {
  // Offline, the engine's requests fail; the browser logs each (it is the state under test).
  test.use({
    allowedConsoleErrors: [
      { text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, url: /\/api\// },
    ],
  });

  test('the banner counts the changes the device keeps: 1, 2 and 10 edits, and after a reload', async ({
    page,
    context,
    openAs,
  }) => {
    const admin = await openAs('administrator');
    await signInAsCaseResponder(context, admin);
    await page.goto('/patient-details');
    await expect(page).toHaveURL(/\/patient-details\/C-/);
    await expect(syncBar(page).getByText('All changes synced')).toBeVisible({ timeout: 20_000 });

    // The app is installed (its service worker serves every screen offline), as after any visit.
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    const fields: [string, string][] = [
      ['patientName', 'Nomsa Dube'],
      ['approximateAge', '54'],
      ['incidentLocation', '14 Long Street, Cape Town'],
      ['callerName', 'Thabo Dlamini'],
      ['callerPhone', '082 555 0147'],
      ['allergies', 'Penicillin (rash)'],
      ['medications', 'Amlodipine 5 mg daily'],
      ['pastHistory', 'Hypertension'],
      ['eventsLeadingUp', 'Slipped on wet stairs'],
      ['onset', 'Sudden, at the fall'],
    ];
    const banner = (n: number) =>
      syncBar(page).getByText(
        `Offline: ${String(n)} ${n === 1 ? 'change' : 'changes'} kept on this device`,
      );
    for (const [index, [name, value]] of fields.entries()) {
      // Patient Details holds the first five, the Secondary Survey the rest.
      if (index === 5)
        await page
          .getByRole('navigation', { name: 'Case steps' })
          .getByRole('link', { name: /Secondary/ })
          .click();
      await typeField(page, name, value);
      const n = index + 1;
      if (n === 1 || n === 2 || n === 10) await expect(banner(n)).toBeVisible({ timeout: 15_000 });
    }
    // Kept across a reload, and not one more for having opened the case again.
    await page.reload();
    await expect(banner(10)).toBeVisible({ timeout: 15_000 });

    await context.setOffline(false);
    await expect(syncBar(page).getByText('All changes synced')).toBeVisible({ timeout: 30_000 });
  });
});
