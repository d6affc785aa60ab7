// Mass-casualty command in Chromium (issue 40): two responders, each on their own device,
// triage casualties into one incident, one of them offline. After both have synced, both
// boards show the same casualties and the same counts. The board is axe clean at a phone's
// 390 px and a tablet's 1024 px.
import type { Page } from '@playwright/test';
import { signInAsAdmin, signInAsNewMember } from './support/accounts';
import { animationsFinished, expect, expectNoAxeViolations, test } from './support/fixtures';

// One device goes offline on purpose: its sync push then fails at the network level.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, url: /\/api\/sync\// },
  ],
});

async function tag(page: Page, colour: string): Promise<void> {
  const region = page.getByRole('region', { name: 'Tag a casualty' });
  const before = await page.getByTestId('count-total').textContent();
  await region.getByRole('button', { name: new RegExp(`^${colour}\\b`) }).click();
  await expect(page.getByTestId('count-total')).not.toHaveText(before ?? '');
}

async function expectCounts(page: Page, counts: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(counts))
    await expect(page.getByTestId(`count-${key}`)).toHaveText(value);
}

test('two responders triage one incident, one offline; after sync both boards agree, and the board is axe clean', async ({
  openAs,
}) => {
  test.setTimeout(90_000);
  const commander = await openAs('commander');
  await signInAsAdmin(commander);
  const responder = await openAs('responder');
  await signInAsNewMember(responder, commander, 'Lindiwe Triage');

  // The commander declares the incident in one tap and tags two casualties online.
  await commander.goto('/multi-patient');
  await commander.getByRole('button', { name: 'Declare a mass-casualty incident' }).click();
  await expect(commander).toHaveURL(/\/multi-patient\/[0-9a-f-]{36}$/);
  const boardUrl = new URL(commander.url()).pathname;
  await tag(commander, 'RED');
  await tag(commander, 'BLACK');

  // The responder opens the same board once the incident has reached their device.
  await expect(async () => {
    await responder.goto(boardUrl);
    await expect(responder.getByRole('heading', { name: /^Incident I/ })).toBeVisible({
      timeout: 3000,
    });
  }).toPass({ timeout: 30_000 });

  // Offline, the responder tags three (one through the START assistant, overriding it).
  await responder.context().setOffline(true);
  await tag(responder, 'GREEN');
  await tag(responder, 'YELLOW');
  const region = responder.getByRole('region', { name: 'Tag a casualty' });
  await region.getByRole('button', { name: 'Triage with START / JumpSTART' }).click();
  await region.getByRole('button', { name: 'Adult (START)' }).click();
  await region.getByRole('button', { name: 'No' }).click(); // walking
  await region.getByRole('button', { name: 'Yes' }).click(); // breathing
  await region.getByRole('button', { name: 'Yes' }).click(); // RR over 30
  await expect(region.getByRole('heading', { name: /START proposes RED/ })).toBeVisible();
  await region.getByRole('button', { name: /^GREY\b/ }).click();
  await expectCounts(responder, { total: '5', RED: '1', GREEN: '1', YELLOW: '1', GREY: '1' });

  // Back online, both devices sync; both boards show five casualties with the same counts.
  await responder.context().setOffline(false);
  const agreed = { total: '5', RED: '1', YELLOW: '1', GREEN: '1', GREY: '1', BLACK: '1' };
  for (const page of [responder, commander])
    await expect(async () => {
      await page.goto(boardUrl);
      await expectCounts(page, agreed);
    }).toPass({ timeout: 40_000 });
  await expect(commander.getByTestId('casualty-list').getByRole('listitem')).toHaveCount(5);
  await expectCounts(commander, { 'on-scene': '5', transported: '0', unassigned: '5' });

  // The override is kept in the casualty's triage history.
  await commander.getByTestId('casualty-list').getByRole('button', { name: /GREY/ }).click();
  await expect(commander.getByText(/proposed RED: overridden/)).toBeVisible();

  for (const size of [
    { width: 390, height: 844 },
    { width: 1024, height: 768 },
  ]) {
    await commander.setViewportSize(size);
    await animationsFinished(commander);
    await expectNoAxeViolations(commander, `command board (${String(size.width)} px)`);
  }
});
