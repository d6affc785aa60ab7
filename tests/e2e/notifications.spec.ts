// The notification bell and dialog (spec §2 "Notifications dialog", §7, §9): one member,
// first with nothing, then with a notification the administrator sends through
// POST /api/admin/notifications, then with more than 99 unread.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { apiSendNotification, signInAsAdmin, signInAsNewMember } from './support/accounts';
import {
  animationsFinished,
  expect,
  expectNoAxeViolations,
  guardConsole,
  serverOrigin,
  test,
  type ConsoleGuard,
} from './support/fixtures';

test.describe.configure({ mode: 'serial' });

let memberContext: BrowserContext;
let adminContext: BrowserContext;
let member: Page;
let admin: Page;
let memberId: number;
const guards: ConsoleGuard[] = [];

async function open(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: serverOrigin(),
    locale: 'en-GB',
    timezoneId: 'Africa/Johannesburg',
  });
  const page = await context.newPage();
  guards.push(guardConsole(page, []));
  return { context, page };
}

test.beforeAll(async ({ browser }) => {
  ({ context: memberContext, page: member } = await open(browser));
  ({ context: adminContext, page: admin } = await open(browser));
  await signInAsAdmin(admin);
  ({ id: memberId } = await signInAsNewMember(member, admin, 'Naledi Notified'));
});

test.afterAll(async () => {
  await memberContext.close();
  await adminContext.close();
  expect(
    guards.flatMap((g) => g.errors),
    'unexpected console errors',
  ).toEqual([]);
});

function bell(page: Page) {
  return page.getByRole('button', { name: /^Notifications/ });
}

test('with no notifications the bell has no badge and the dialog shows both empty states', async () => {
  await member.goto('/');
  await expect(bell(member)).toHaveAccessibleName('Notifications');

  await bell(member).click();
  const dialog = member.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByRole('tab', { name: 'Unread (0)' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(dialog.getByText('No unread notifications')).toBeVisible();
  await expect(dialog.getByText("You're all caught up!")).toBeVisible();

  await dialog.getByRole('tab', { name: 'Read', exact: true }).click();
  await expect(dialog.getByText('No read notifications')).toBeVisible();

  await member.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(bell(member)).toBeFocused();
  await expect(bell(member)).toHaveAccessibleName('Notifications');
});

test('a notification sent by the administrator shows on the badge, in Unread, and moves to Read when the dialog closes', async () => {
  await apiSendNotification(admin, {
    title: 'Flooding on the N2',
    message: 'All crews: avoid the N2 between exits 12 and 14.',
    type: 'emergency',
    priority: 'critical',
    targetUserIds: [memberId],
  });
  await member.reload();
  await expect(bell(member)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(bell(member)).toContainText('1');

  await bell(member).click();
  const dialog = member.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByRole('tab', { name: 'Unread (1)' })).toBeVisible();
  const item = dialog.getByRole('listitem').filter({ hasText: 'Flooding on the N2' });
  await expect(item.getByText('All crews: avoid the N2 between exits 12 and 14.')).toBeVisible();
  await expect(item.getByRole('img', { name: 'Emergency' })).toBeVisible();
  await expect(item.getByText(/^Sent /)).toBeVisible();
  await animationsFinished(member); // the dialog coming in
  await expectNoAxeViolations(
    member,
    'notifications dialog with a critical emergency notification',
  );

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(bell(member)).toHaveAccessibleName('Notifications');
  await expect(bell(member)).not.toContainText('1');

  // Read on the server too: a reload shows it under Read with its read time.
  await member.reload();
  await expect(bell(member)).toHaveAccessibleName('Notifications');
  await bell(member).click();
  await expect(dialog.getByText('No unread notifications')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Read', exact: true }).click();
  const readItem = dialog.getByRole('listitem').filter({ hasText: 'Flooding on the N2' });
  await expect(readItem.getByText(/Read \d/)).toBeVisible();
  await expectNoAxeViolations(member, 'notifications dialog, Read tab with an item');
  await member.keyboard.press('Escape');
});

test('more than 99 unread notifications show as 99+', async () => {
  for (let i = 1; i <= 100; i++) {
    await apiSendNotification(admin, {
      title: `Roster update ${String(i)}`,
      message: 'Check the roster.',
      priority: 'low',
      targetUserIds: [memberId],
    });
  }
  await member.reload();
  await expect(bell(member)).toHaveAccessibleName('Notifications, 99+ unread');
  await expect(bell(member)).toContainText('99+');
  await expectNoAxeViolations(member, 'dashboard with the 99+ badge');
});
