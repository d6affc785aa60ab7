// A new version never reloads under the user (issue 3): when a new service worker is
// installed, the page shows "Update ready"; Later hides it until the next load, Update
// hands over to the new worker and reloads once. The "new version" is the run's copy of
// the built app with a changed sw.js, so the browser sees a byte-different worker.
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN, signInAsAdmin } from './support/accounts';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { readServerState } from './support/server';

async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 15_000,
    })
    .toBe(true);
}

function hasWaitingWorker(page: Page): Promise<boolean> {
  return page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration())?.waiting != null,
  );
}

test('a new version waits for the user: Update ready, Later, then Update reloads once', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/');
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);
  const prompt = page.getByRole('region', { name: 'Update ready' });
  await expect(prompt).toHaveCount(0);

  const swFile = path.join(readServerState().webDist, 'sw.js');
  // The server may send a precompressed sibling instead of the file; set those aside too.
  const files = [swFile, `${swFile}.br`, `${swFile}.gz`].filter((f) => existsSync(f));
  const originals = new Map(files.map((f) => [f, readFileSync(f)]));
  try {
    for (const f of files) if (f !== swFile) rmSync(f);
    appendFileSync(swFile, `\n// e2e: a new build ${new Date().toISOString()}\n`);

    // The next load finds the new worker; it installs and waits instead of taking over.
    await page.reload();
    await expect(prompt).toBeVisible({ timeout: 20_000 });
    await expect(
      prompt.getByText('A new version of RescueLog is ready.', { exact: false }),
    ).toBeVisible();
    expect(await hasWaitingWorker(page)).toBe(true);
    await expectNoAxeViolations(page, 'Update ready prompt');

    await prompt.getByRole('button', { name: 'Later' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(page.getByText(ADMIN.fullName)).toBeVisible();

    // Still waiting on the next load, so the prompt comes back.
    await page.reload();
    await expect(prompt).toBeVisible({ timeout: 20_000 });

    await page.evaluate(() => {
      (window as Window & { beforeUpdate?: boolean }).beforeUpdate = true;
    });
    await Promise.all([
      page.waitForEvent('load'),
      prompt.getByRole('button', { name: 'Update' }).click(),
    ]);
    await expect(page.getByText(ADMIN.fullName)).toBeVisible();
    expect(
      await page.evaluate(() => (window as Window & { beforeUpdate?: boolean }).beforeUpdate),
      'the page reloaded',
    ).toBeUndefined();
    await expect(prompt).toHaveCount(0);
    expect(await hasWaitingWorker(page)).toBe(false);
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
  } finally {
    for (const [f, content] of originals) writeFileSync(f, content);
  }
});
