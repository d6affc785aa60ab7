// Roles, profile and system settings end to end (issue 11): an administrator creates a role,
// approves a new member with it, and the member sees exactly the dashboard buttons the role
// allows; the administrator narrows the role and the member's dashboard follows after a
// reload; the member edits their profile and changes their password; axe on the three
// screens at 360 and 1024 px.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiLogin, apiRegister, newPerson, signInAsAdmin } from './support/accounts';
import { expect, scanAtEachViewport, test } from './support/fixtures';

/** The labels of the dashboard's main buttons, in order. */
async function dashboardButtons(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main actions' });
  await expect(nav).toBeVisible();
  // Each action's label is the link's first text span (the icon is an svg; a description may follow).
  return nav.locator('a > span:first-of-type').allTextContents();
}

test('a role decides what a new member sees; the member edits their profile and password', async ({
  page,
  openAs,
}) => {
  test.setTimeout(120_000);
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const suffix = randomUUID().slice(0, 6);
  const displayName = `Crew ${suffix}`;

  // The administrator creates the role: New Case and Cases Logged, no CPR or MCI logs.
  await admin.goto('/admin/roles');
  await scanAtEachViewport(admin, '/admin/roles', () =>
    expect(admin.getByRole('heading', { name: 'Responder' })).toBeVisible(),
  );
  await admin.getByRole('button', { name: 'New role' }).click();
  const editor = admin.getByRole('dialog', { name: 'New role' });
  await scanAtEachViewport(admin, 'role editor', () => expect(editor).toBeVisible());
  await editor.getByLabel(/^Role name/).fill(`crew-${suffix}`);
  await editor.getByLabel(/^Display name/).fill(displayName);
  await editor
    .getByRole('group', { name: 'New Case' })
    .getByRole('checkbox', { name: 'Create' })
    .check();
  for (const module of ['CPR Logs', 'Multi-Patient Logs']) {
    await editor
      .getByRole('group', { name: module })
      .getByRole('checkbox', { name: 'View' })
      .uncheck();
  }
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toHaveCount(0);
  await expect(admin.getByRole('heading', { name: displayName })).toBeVisible();

  // A new person registers (and is signed in on `page`); the administrator approves them
  // with the new role.
  const person = newPerson('Role Member');
  await apiRegister(page.request, person);
  await admin.goto('/admin/users');
  const card = admin
    .getByRole('listitem')
    .filter({ has: admin.getByRole('heading', { name: person.fullName }) })
    .filter({ hasText: person.email });
  await card.getByRole('button', { name: 'Approve' }).click();
  const approve = admin.getByRole('alertdialog', { name: `Approve ${person.fullName}?` });
  await approve.getByRole('combobox', { name: 'Role' }).selectOption({ label: displayName });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByText('User approved', { exact: true })).toBeVisible();

  await page.goto('/');
  expect(await dashboardButtons(page)).toEqual([
    'New Case',
    'First Aid Protocols',
    'Medical Inventory',
    'Cases Logged',
    'Internal SOPs',
    'Help & Guide',
  ]);

  // The administrator narrows the role: no more New Case. The member's next load follows.
  await admin.goto('/admin/roles');
  await admin.getByRole('button', { name: `Edit ${displayName}` }).click();
  const edit = admin.getByRole('dialog', { name: `Edit ${displayName}` });
  await edit
    .getByRole('group', { name: 'New Case' })
    .getByRole('checkbox', { name: 'Create' })
    .uncheck();
  await edit.getByRole('button', { name: 'Save role' }).click();
  await expect(edit).toHaveCount(0);
  await page.reload();
  await expect
    .poll(() => dashboardButtons(page))
    .toEqual([
      'First Aid Protocols',
      'Medical Inventory',
      'Cases Logged',
      'Internal SOPs',
      'Help & Guide',
    ]);

  // The member edits their profile.
  await page.goto('/profile');
  await scanAtEachViewport(page, '/profile', () =>
    expect(page.getByText('This device', { exact: true }).first()).toBeVisible(),
  );
  await page.getByLabel('Call sign').fill('RESCUE 9');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Profile saved', { exact: true })).toBeVisible();
  await page.goto('/');
  await expect(page.getByText('RESCUE 9')).toBeVisible();

  // ... and changes the password: this device stays signed in, the old password is dead.
  await page.goto('/profile');
  const passwordForm = page.getByRole('form', { name: 'Password' });
  await passwordForm.getByLabel('Current password', { exact: true }).fill(person.password);
  await passwordForm.getByLabel('New password', { exact: true }).fill(`${person.password}-new`);
  await passwordForm.getByLabel('Repeat new password').fill(`${person.password}-new`);
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  const other = await openAs('another device');
  const oldLogin = await other.request.post('/api/login', {
    headers: { 'x-requested-with': 'rescuelog', origin: new URL(page.url()).origin },
    data: { email: person.email, password: person.password },
  });
  expect(oldLogin.status()).toBe(401);
  await apiLogin(other.request, { ...person, password: `${person.password}-new` });

  // System Settings, as the administrator (looked at, not changed: other specs share the server).
  await admin.goto('/system-settings');
  await scanAtEachViewport(admin, '/system-settings', () =>
    expect(admin.getByRole('button', { name: 'Save settings' })).toBeVisible(),
  );
});
