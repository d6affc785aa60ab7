// Incident reports (issue 41) in the browser: a water-rescue report written and completed
// with no signal (the device makes the report and its number, every field saves as it is
// typed or tapped, the completion check lists what is missing), which reaches the server when
// the signal returns and is found in the list; an unknown type in the URL names the types;
// axe on the screens at a phone's and a tablet's width. The rules themselves (each type's
// schema, completion, lock, addenda, refusals) are Vitest tests in sync-protocol and api.
import { signInAsAdmin } from './support/accounts';
import { waitForServiceWorkerControl } from './support/cases';
import { expect, expectNoAxeViolations, scanAtEachViewport, test } from './support/fixtures';
import type { Page } from '@playwright/test';

test.use({
  allowedConsoleErrors: [{ text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/ }],
});

async function type(page: Page, id: string, value: string): Promise<void> {
  const input = page.locator(`#${id}`);
  await input.fill(value);
  await input.blur();
  await expect(input).toHaveValue(value);
}

async function pick(page: Page, group: RegExp, option: string): Promise<void> {
  const fieldset = page.getByRole('group', { name: group });
  await fieldset.getByText(option, { exact: true }).click();
  await expect(fieldset.getByRole('radio', { name: option })).toBeChecked();
}

const syncMark = (page: Page) =>
  page.getByRole('group', { name: /^Report I-/ }).getByRole('status');

test('a water-rescue report written and completed offline reaches the server and the list', async ({
  page,
  context,
}) => {
  await signInAsAdmin(page);
  await page.goto('/incident-reports');
  await expect(page.getByRole('heading', { name: 'Start a report' })).toBeVisible();
  await waitForServiceWorkerControl(page);
  await scanAtEachViewport(page, 'Incident Reports', () =>
    expect(page.getByRole('link', { name: 'Water rescue', exact: true })).toBeVisible(),
  );
  await page.setViewportSize({ width: 390, height: 844 });

  await context.setOffline(true);
  await page.getByRole('link', { name: 'Water rescue', exact: true }).click();
  await expect(page).toHaveURL(/\/incident-reports\/report\/[0-9a-f-]{36}$/);
  await expect(page.getByText(/^I-/).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Water rescue details', level: 2 })).toBeVisible();

  // Completion lists what is missing before anything is filled in.
  await expect(page.getByText(/things to finish before completing/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Record victims' })).toBeVisible();

  const title = `Car in the Liesbeek ${String(Date.now())}`;
  await type(page, 'field-title', title);
  await type(page, 'field-description', 'Vehicle swept off the low-water bridge, two on the roof');
  await type(page, 'field-location', 'Liesbeek low-water bridge');
  await page
    .getByRole('button', { name: /now$/i })
    .and(page.locator('[aria-controls="field-incidentEndTime"]'))
    .click();
  await expect(page.locator('#field-incidentEndTime')).not.toHaveValue('');
  await pick(page, /Water type/, 'Swift water');
  await type(page, 'field-typeSpecificData-victims', '2');
  await pick(page, /Rescue technique/, 'Boat');
  await expect(
    page.getByText('Everything needed to complete this report is recorded.'),
  ).toBeVisible();
  await expect(syncMark(page)).toHaveText(/Not yet synced/);
  await expectNoAxeViolations(page, 'Incident report form (390 px)');

  await page.getByRole('button', { name: 'Complete report' }).click();
  await page.getByRole('button', { name: 'Complete and lock' }).click();
  await expect(page.getByText('Completed', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Addenda' })).toBeVisible();
  await expect(page.locator('#field-title')).toHaveAttribute('readonly', '');

  // Signal again: the report and its completion reach the server.
  await context.setOffline(false);
  await expect(syncMark(page)).toHaveText('Synced', { timeout: 30_000 });

  await page.goto('/incident-reports/list');
  await page.getByRole('searchbox').fill('Liesbeek');
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('link', { name: new RegExp(title) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Completed');
  await expect(row).toContainText('Water rescue');
  await scanAtEachViewport(page, 'Incident Reports List', () => expect(row).toBeVisible());
});

test('an unknown type in the URL says so and lists the types', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/incident-reports/new/kite-rescue');
  await expect(page.getByRole('heading', { name: 'Unknown report type' })).toBeVisible();
  await expect(
    page.getByText('“kite-rescue” is not a type of incident report.', { exact: false }),
  ).toBeVisible();
  const types = page.getByRole('list', { name: 'Report types' }).getByRole('link');
  await expect(types).toHaveCount(11);
  await scanAtEachViewport(page, 'Unknown incident report type', () =>
    expect(page.getByRole('heading', { name: 'Unknown report type' })).toBeVisible(),
  );
});
