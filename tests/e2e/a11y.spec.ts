// axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on every screen of the web-shell issue, on a
// 360 px phone and on a tablet. Zero violations expected.
import type { Page } from '@playwright/test';
import { ADMIN, fillRegisterForm, newPerson, signInAsAdmin, signInAsNewMember } from './support/accounts';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

const VIEWPORTS = [
  { name: 'phone', size: { width: 360, height: 740 } },
  { name: 'tablet', size: { width: 1024, height: 768 } },
] as const;

async function settle(page: Page): Promise<void> {
  // Let the toast/dialog enter animations finish so colours are final.
  await page.waitForTimeout(400);
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('auth screen: Sign In tab, validation messages, Register tab with Other', async ({ page }) => {
      await page.goto('/auth');
      await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
      await expectNoAxeViolations(page, 'Sign In tab');

      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByText('Valid email address is required')).toBeVisible();
      await expect(page.getByText('Password is required')).toBeVisible();
      await expectNoAxeViolations(page, 'Sign In tab with errors');

      await page.getByRole('tab', { name: 'Register' }).click();
      await page.getByLabel('Qualifications').selectOption('Other');
      await expect(page.getByLabel('Other qualifications')).toBeVisible();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
      await expect(page.getByText('Full name is required')).toBeVisible();
      await expectNoAxeViolations(page, 'Register tab with errors');
    });

    test('pending approval screen', async ({ page }) => {
      await page.goto('/auth');
      await fillRegisterForm(page, newPerson('Pending Person'));
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();
      await settle(page);
      await expectNoAxeViolations(page, 'Account Pending Approval');
    });

    test('administrator: dashboard, user management, not-yet-available and 404 pages', async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto('/');
      await expect(page.getByText(ADMIN.fullName)).toBeVisible();
      await expect(page.getByRole('link', { name: 'User Management' })).toBeVisible();
      await settle(page);
      await expectNoAxeViolations(page, 'dashboard (administrator)');

      await page.goto('/admin/users');
      await expect(page.getByRole('row').filter({ hasText: ADMIN.email })).toBeVisible();
      await expectNoAxeViolations(page, '/admin/users');

      await page.goto('/profile');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, '/profile (not available yet)');

      await page.goto('/no-such-screen');
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
      await expectNoAxeViolations(page, 'Page Not Found');
    });

    test('member: dashboard, notifications dialog, Access Denied', async ({ page, openAs }) => {
      await signInAsNewMember(page, await openAs('administrator'), 'Axe Member');
      await page.goto('/');
      await expect(page.getByText('Member', { exact: true })).toBeVisible();
      await settle(page);
      await expectNoAxeViolations(page, 'dashboard (member)');

      await page.getByRole('button', { name: /^Notifications/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Notifications' });
      await expect(dialog.getByText('No unread notifications')).toBeVisible();
      await settle(page);
      await expectNoAxeViolations(page, 'notifications dialog, Unread tab');
      await dialog.getByRole('tab', { name: 'Read' }).click();
      await expect(dialog.getByText('No read notifications')).toBeVisible();
      await expectNoAxeViolations(page, 'notifications dialog, Read tab');
      await page.keyboard.press('Escape');

      await page.goto('/admin/users');
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expectNoAxeViolations(page, 'Access Denied');
    });
  });
}
