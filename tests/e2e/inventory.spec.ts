// Medical inventory in Chromium (issue 38): two devices book the same item out while both are
// offline, and after sync the stock counts both with every movement in the history; a member
// without Medical Inventory create cannot add an item, and the server refuses one pushed
// anyway; the list and the item screen are axe clean on a phone and a tablet. Everything
// else (refusals, derived stock, flags) is in Vitest (api/test/inventory-sync.test.ts,
// sync-protocol/test/inventory/stock.test.ts).
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { signInAsAdmin, signInAsNewMember, writeHeaders } from './support/accounts';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

// Both devices go offline on purpose: their sync pushes then fail at the network level.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, url: /\/api\// },
  ],
});

const SIZES = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
];

async function axeAtBothSizes(page: Page, screen: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page, `${screen} at ${String(size.width)} px`);
  }
}

/** The list row of the item (its card: the link and its −/+ controls). */
function row(page: Page, name: string) {
  return page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: new RegExp(name) }) });
}

async function findOnList(page: Page, name: string): Promise<void> {
  await page.goto(`/medical-inventory?q=${encodeURIComponent(name)}`);
  await expect(row(page, name)).toBeVisible({ timeout: 30_000 });
}

test('two devices book the same item out offline; after sync both movements count', async ({
  openAs,
}) => {
  test.slow();
  const name = `Adrenaline 1 mg/ml ${randomUUID().slice(0, 6)}`;
  const one = await openAs('device one');
  const two = await openAs('device two');
  await signInAsAdmin(one);
  await signInAsAdmin(two);

  // Device one adds the item with 10 in stock.
  await one.goto('/medical-inventory/new');
  await one.getByLabel('Description').fill(name);
  await one.getByLabel('Stock on hand').fill('10');
  await one.getByLabel('Minimum quantity').fill('4');
  await one.getByRole('button', { name: 'Add item' }).click();
  await expect(one.getByRole('heading', { name: 'Stock on hand' })).toBeVisible();
  await expect(one.getByText('10 pieces', { exact: true })).toBeVisible();
  await axeAtBothSizes(one, 'inventory item');

  // Synced, device two pulls it.
  await findOnList(one, name);
  await expect(row(one, name).getByText('Not yet synced')).toHaveCount(0, { timeout: 30_000 });
  await findOnList(two, name);
  await expect(row(two, name).getByText('10 pieces', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await axeAtBothSizes(two, 'inventory list');

  // Both offline: one books one out, two books two out (one tap each).
  await one.context().setOffline(true);
  await two.context().setOffline(true);
  await row(one, name)
    .getByRole('button', { name: `Book one ${name} out` })
    .click();
  await expect(row(one, name).getByText('9 pieces', { exact: true })).toBeVisible();
  const outOnTwo = row(two, name).getByRole('button', { name: `Book one ${name} out` });
  await outOnTwo.click();
  await expect(row(two, name).getByText('9 pieces', { exact: true })).toBeVisible();
  await outOnTwo.click();
  await expect(row(two, name).getByText('8 pieces', { exact: true })).toBeVisible();
  await expect(row(two, name).getByText('Not yet synced')).toBeVisible();

  // Back online: each device pushes its own and pulls the other's. 10 − 1 − 2 = 7 on both.
  await one.context().setOffline(false);
  await two.context().setOffline(false);
  await expect(row(two, name).getByText('Not yet synced')).toHaveCount(0, { timeout: 30_000 });
  await expect(row(one, name).getByText('Not yet synced')).toHaveCount(0, { timeout: 30_000 });
  for (const page of [one, two]) {
    await expect(async () => {
      await findOnList(page, name);
      await expect(row(page, name).getByText('7 pieces', { exact: true })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000 });
  }

  // The history on device one holds the three uses and the opening stock.
  await row(one, name).getByRole('link').click();
  const history = one.getByRole('region', { name: 'History' });
  await expect(history.getByText(/Used$/)).toHaveCount(3);
  await expect(history.getByText(/Received$/)).toHaveCount(1);
  await expect(one.getByText('7 pieces', { exact: true })).toBeVisible();
});

test('a member without Medical Inventory create cannot add an item, and the server refuses it', async ({
  openAs,
}) => {
  const admin = await openAs('administrator');
  const memberPage = await openAs('member');
  const member = await signInAsNewMember(memberPage, admin, 'Lindiwe Readonly');

  await memberPage.goto('/medical-inventory');
  await expect(memberPage.getByRole('heading', { name: 'Medical Inventory' })).toBeVisible();
  await expect(memberPage.getByRole('status').filter({ hasText: /on this device/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(memberPage.getByRole('link', { name: 'New item' })).toHaveCount(0);
  await memberPage.goto('/medical-inventory/new');
  await expect(memberPage.getByText('You may not add inventory items.')).toBeVisible();

  // Pushed anyway, the server refuses it with the permission's reason.
  const deviceId = randomUUID();
  const id = randomUUID();
  const response = await memberPage.request.post('/api/sync/push', {
    headers: writeHeaders(),
    data: {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations: [
        {
          mutationId: randomUUID(),
          deviceId,
          seq: 1,
          actorUserId: member.id,
          name: 'inventoryItem.upsert',
          args: { id, fields: { description: 'Not allowed' } },
          entityIds: [id],
          baseVersion: null,
          clientTime: new Date().toISOString(),
          schemaVersion: SCHEMA_VERSION,
        },
      ],
    },
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { results: { status: string; code?: string }[] };
  expect(body.results).toEqual([
    expect.objectContaining({ status: 'rejected', code: 'FORBIDDEN' }),
  ]);
});
