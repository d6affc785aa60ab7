// Runs first, on the run's empty embedded database: the first account registered becomes
// an approved administrator (README, issue 2) and goes straight to the dashboard.
import { ADMIN, fillRegisterForm } from './support/accounts';
import { expect, test } from './support/fixtures';

test('the first account registered on an empty system becomes an approved administrator', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);

  await fillRegisterForm(page, ADMIN);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByText('Registration successful', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
  await expect(page.getByText('Administrator', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toHaveCount(0);
});
