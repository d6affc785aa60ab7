// axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on every screen of the web shell and the patient
// case screens, on a 360 px phone and on a tablet. Zero violations expected. One registration
// per screen (registration is rate limited per address: 10 an hour).
import {
  ADMIN,
  fillRegisterForm,
  newPerson,
  signInAsAdmin,
  signInAsNewMember,
} from './support/accounts';
import { caseIdFromUrl, choose, tick } from './support/cases';
import { expect, scanAtEachViewport, test } from './support/fixtures';

test('auth screen: Sign In tab, validation messages, Register tab with Other', async ({ page }) => {
  await page.goto('/auth');
  await scanAtEachViewport(page, 'Sign In tab', () =>
    expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible(),
  );

  await page.getByRole('button', { name: 'Sign In' }).click();
  await scanAtEachViewport(page, 'Sign In tab with errors', async () => {
    await expect(page.getByText('Valid email address is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
  });

  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Qualifications').selectOption('Other');
  await expect(page.getByLabel('Other qualifications')).toBeVisible();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await scanAtEachViewport(page, 'Register tab with errors', async () => {
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Full name is required')).toBeVisible();
  });
});

test('pending approval screen', async ({ page }) => {
  await page.goto('/auth');
  await fillRegisterForm(page, newPerson('Pending Person'));
  await page.getByRole('button', { name: 'Create Account' }).click();
  await scanAtEachViewport(page, 'Account Pending Approval', () =>
    expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible(),
  );
});

test('administrator: dashboard, user management, help and 404 pages', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/');
  await scanAtEachViewport(page, 'dashboard (administrator)', async () => {
    await expect(page.getByText(ADMIN.fullName)).toBeVisible();
    await expect(page.getByRole('link', { name: 'User Management' })).toBeVisible();
  });

  await page.goto('/admin/users');
  const users = page.getByRole('region', { name: 'Users' });
  await scanAtEachViewport(page, '/admin/users (pending)', () =>
    expect(users).toHaveAttribute('aria-busy', 'false'),
  );
  await page.getByLabel('All', { exact: true }).check();
  await scanAtEachViewport(page, '/admin/users (all)', async () => {
    await expect(users.getByRole('heading', { name: ADMIN.fullName })).toBeVisible();
    await expect(users).toHaveAttribute('aria-busy', 'false');
  });
  await users.getByRole('button', { name: 'Edit access' }).first().click();
  await scanAtEachViewport(page, 'Edit access dialog', () =>
    expect(page.getByRole('dialog', { name: /^Access for/ })).toBeVisible(),
  );
  await page.keyboard.press('Escape');
  await users
    .getByRole('button', { name: 'Approve' })
    .or(users.getByRole('button', { name: 'Suspend' }))
    .first()
    .click();
  await scanAtEachViewport(page, 'approve/suspend confirmation', () =>
    expect(page.getByRole('alertdialog')).toBeVisible(),
  );
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/help');
  await scanAtEachViewport(page, '/help', () =>
    expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  );

  await page.goto('/no-such-screen');
  await scanAtEachViewport(page, 'Page Not Found', () =>
    expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible(),
  );
});

test('approved member (Responder by default): dashboard, notifications dialog, Access Denied', async ({
  page,
  openAs,
}) => {
  await signInAsNewMember(page, await openAs('administrator'), 'Axe Member');
  await page.goto('/');
  await scanAtEachViewport(page, 'dashboard (approved member)', () =>
    expect(page.getByText('Responder', { exact: true })).toBeVisible(),
  );

  await page.getByRole('button', { name: /^Notifications/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await scanAtEachViewport(page, 'notifications dialog, Unread tab', () =>
    expect(dialog.getByText('No unread notifications')).toBeVisible(),
  );
  await dialog.getByRole('tab', { name: 'Read', exact: true }).click();
  await scanAtEachViewport(page, 'notifications dialog, Read tab', () =>
    expect(dialog.getByText('No read notifications')).toBeVisible(),
  );
  await page.keyboard.press('Escape');

  await page.goto('/admin/users');
  await scanAtEachViewport(page, 'Access Denied', () =>
    expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible(),
  );
});

test('patient case screens: every capture step, the completed case and Cases Logged', async ({
  page,
}) => {
  // Fourteen axe scans (seven screens at two sizes): over a minute on two busy cores.
  test.setTimeout(150_000);
  await signInAsAdmin(page);
  await page.goto('/');
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-/);
  const caseId = caseIdFromUrl(page);

  // Conditional parts open, so they are scanned too.
  await choose(page, 'hasMedicalAid', true);
  await scanAtEachViewport(page, 'Patient Details', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Patient Details' })).toBeVisible(),
  );

  await page.goto(`/primary-survey/${caseId}`);
  await choose(page, 'hemorrhagingActive', true);
  await scanAtEachViewport(page, 'Primary Survey', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Primary Survey' })).toBeVisible(),
  );

  await page.goto(`/secondary-survey/${caseId}`);
  await scanAtEachViewport(page, 'Secondary Survey', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Secondary Survey' })).toBeVisible(),
  );

  await page.goto(`/treatment-provided/${caseId}`);
  await tick(page, 'endotrachealIntubation');
  await scanAtEachViewport(page, 'Treatment Provided', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Treatment Provided' })).toBeVisible(),
  );

  await page.goto(`/response-details/${caseId}`);
  await scanAtEachViewport(page, 'Response Details', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Response Details' })).toBeVisible(),
  );

  await page.goto(`/case-completed/${caseId}`);
  await scanAtEachViewport(page, 'Case Completed (problems listed)', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Case Completed' })).toBeVisible(),
  );

  await page.goto(`/case-search?caseId=${encodeURIComponent(caseId)}`);
  await scanAtEachViewport(page, 'Cases Logged', () =>
    expect(page.getByText(caseId).first()).toBeVisible(),
  );
});
