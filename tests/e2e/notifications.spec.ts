// The notification bell and dialog (spec §2 "Notifications dialog", §7).
// There is no endpoint yet that sends a notification (notification administration comes
// with a later issue) and the e2e server's embedded database cannot be written from this
// process, so this spec covers what a user with no notifications sees: no badge, the
// Unread and Read tabs with their empty states, and the dialog closing cleanly.
import { signInAsNewMember } from './support/accounts';
import { expect, test } from './support/fixtures';

test('with no notifications the bell has no badge and the dialog shows both empty states', async ({ page, openAs }) => {
  await signInAsNewMember(page, await openAs('administrator'), 'Naledi Notified');
  await page.goto('/');

  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toBeVisible();
  // The accessible name carries the unread count only when there is one.
  await expect(bell).toHaveAccessibleName('Notifications');

  await bell.click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: /^Unread/ })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByText('No unread notifications')).toBeVisible();
  await expect(dialog.getByText("You're all caught up!")).toBeVisible();

  await dialog.getByRole('tab', { name: 'Read', exact: true }).click();
  await expect(dialog.getByText('No read notifications')).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(bell).toBeFocused();
  await expect(bell).toHaveAccessibleName('Notifications');
});
