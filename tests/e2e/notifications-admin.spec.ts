// Notification administration end to end (issue 16): the administrator composes and schedules
// a notification for a role on /admin/notifications and cancels it; a notification sent now to
// that role reaches its member and not a member without it; axe on the page at 360 and
// 1024 px (with the form's messages, the preview and the list).
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { zonedDay } from '@rescuelog/sync-protocol/time';
import { signInAsAdmin, signInAsNewMember, writeHeaders } from './support/accounts';
import { expect, scanAtEachViewport, test } from './support/fixtures';

function bell(page: Page) {
  return page.getByRole('button', { name: /^Notifications/ });
}

test('an administrator schedules a notification for a role, cancels it, and a role sends reach only that role', async ({
  page: admin,
  openAs,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(admin);
  const suffix = randomUUID().slice(0, 6);
  const roleName = `dispatch-${suffix}`;
  const roleLabel = `Dispatch ${suffix}`;
  const role = await admin.request.post('/api/admin/roles', {
    headers: writeHeaders(),
    data: { name: roleName, displayName: roleLabel, permissions: {} },
  });
  expect(role.status(), await role.text()).toBe(201);
  const roleId = ((await role.json()) as { role: { id: number } }).role.id;

  const inRole = await openAs('member in the role');
  const outside = await openAs('member without it');
  const dispatcher = await signInAsNewMember(inRole, admin, 'Role Dispatcher');
  await signInAsNewMember(outside, admin, 'Role Outsider');
  const assign = await admin.request.patch(`/api/admin/users/${String(dispatcher.id)}`, {
    headers: writeHeaders(),
    data: { roleId },
  });
  expect(assign.ok(), await assign.text()).toBe(true);

  // Composing: the §5 messages, then a notification for the role, scheduled.
  await admin.goto('/admin/notifications');
  const compose = admin.getByRole('region', { name: 'New notification' });
  await compose.getByRole('button', { name: 'Send notification' }).click();
  await expect(compose.getByText('Title is required')).toBeVisible();
  await expect(compose.getByText('Message is required')).toBeVisible();
  await scanAtEachViewport(admin, '/admin/notifications with the form messages', () =>
    expect(admin.getByRole('region', { name: 'Sent and scheduled' })).toHaveAttribute(
      'aria-busy',
      'false',
    ),
  );

  const scheduledTitle = `Radio check ${suffix}`;
  await compose.getByLabel(/^Title/).fill(scheduledTitle);
  await compose.getByLabel(/^Message/).fill('All dispatch stations: radio check at 09:30.');
  await compose.getByLabel('Priority').selectOption('high');
  await compose.getByRole('radio', { name: 'Roles' }).check({ force: true });
  await compose.getByRole('checkbox', { name: roleLabel }).check();
  await compose.getByRole('radio', { name: 'Schedule' }).check({ force: true });
  // Two days ahead, 09:30 on the service's clock (Africa/Johannesburg).
  const day = String(zonedDay(Date.now() + 2 * 24 * 60 * 60 * 1000, 'Africa/Johannesburg'));
  await compose.getByLabel(/^Date and time \(Africa\/Johannesburg\)/).fill(`${day}T09:30`);
  const preview = compose.getByRole('region', { name: 'Preview on a phone' });
  await expect(preview.getByText(scheduledTitle)).toBeVisible();
  await expect(preview.getByText('High priority')).toBeVisible();
  await scanAtEachViewport(admin, '/admin/notifications composing for a role', () =>
    expect(compose.getByText(/Goes out .*09:30, Africa\/Johannesburg time\./)).toBeVisible(),
  );
  await compose.getByRole('button', { name: 'Schedule notification' }).click();
  await expect(admin.getByText('Notification scheduled', { exact: true })).toBeVisible();

  const list = admin.getByRole('region', { name: 'Sent and scheduled' });
  const scheduled = list
    .getByRole('listitem')
    .filter({ has: admin.getByRole('heading', { name: scheduledTitle }) });
  await expect(scheduled.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(scheduled).toContainText(`To: Roles: ${roleLabel}`);
  await expect(scheduled).toContainText(/Goes out \d+ \w+ \d{4}, 09:30/);
  await scanAtEachViewport(admin, '/admin/notifications with a scheduled notification', () =>
    expect(scheduled).toBeVisible(),
  );

  // Cancelled before it goes out: asked first, and the member never gets it.
  await scheduled.getByRole('button', { name: /Cancel sending/ }).click();
  const confirm = admin.getByRole('alertdialog', { name: 'Cancel this scheduled notification?' });
  await expect(confirm).toContainText(scheduledTitle);
  await confirm.getByRole('button', { name: 'Cancel sending' }).click();
  await expect(scheduled.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(scheduled.getByRole('button', { name: /Cancel sending/ })).toHaveCount(0);

  // Sent now to the role: only its member gets it.
  const nowTitle = `Dispatch briefing ${suffix}`;
  await compose.getByLabel(/^Title/).fill(nowTitle);
  await compose.getByLabel(/^Message/).fill('Briefing in the dispatch room at 07:00.');
  await compose.getByRole('radio', { name: 'Roles' }).check({ force: true });
  await compose.getByRole('checkbox', { name: roleLabel }).check();
  await compose.getByRole('button', { name: 'Send notification' }).click();
  await expect(admin.getByText('Notification sent', { exact: true })).toBeVisible();
  const sent = list
    .getByRole('listitem')
    .filter({ has: admin.getByRole('heading', { name: nowTitle }) });
  await expect(sent.getByText('Sent', { exact: true })).toBeVisible();
  const recipients = sent
    .getByLabel('Delivery figures')
    .getByText('Recipients')
    .locator('xpath=following-sibling::dd[1]');
  await expect(recipients).toHaveText('1');

  await inRole.goto('/');
  await expect(bell(inRole)).toHaveAccessibleName('Notifications, 1 unread');
  await bell(inRole).click();
  const dialog = inRole.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByRole('heading', { name: nowTitle })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: scheduledTitle })).toHaveCount(0);
  await inRole.keyboard.press('Escape');

  await outside.goto('/');
  await expect(outside.getByRole('heading', { name: 'Quick Stats' })).toBeVisible();
  await expect(bell(outside)).toHaveAccessibleName('Notifications');
  await bell(outside).click();
  await expect(
    outside.getByRole('dialog', { name: 'Notifications' }).getByText('No unread notifications'),
  ).toBeVisible();
  await outside.keyboard.press('Escape');

  // Read by the member: the administrator's figures follow.
  await admin.reload();
  await expect(
    admin
      .getByRole('region', { name: 'Sent and scheduled' })
      .getByRole('listitem')
      .filter({ has: admin.getByRole('heading', { name: nowTitle }) })
      .getByLabel('Delivery figures')
      .getByText('Read')
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText('1');
});
