// Issue 39, what only a browser shows: an arrest started with one tap from the dashboard and
// logged with one tap per event while the device has no signal; the 2-minute prompt on the
// screen and spoken (Playwright's clock, not real waiting); the wake lock asked for; every
// tap target at least 56 px; axe clean on a phone and a tablet. Back online, the events
// sync, and a second device of the same responder sees the same timeline in CPR Logs (so the
// server holds every event once). Clocks, prompts and validation are Vitest's
// (sync-protocol/test/cpr, api/test/cpr-sync.test.ts, web/src/features/cpr).
import type { Page } from '@playwright/test';
import { signInAsNewMember } from './support/accounts';
import { waitForServiceWorkerControl } from './support/cases';
import { expect, expectNoAxeViolations, scanAtEachViewport, test } from './support/fixtures';

// Offline, the app's own API calls fail at the network level.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)/, url: /\/api\// },
  ],
});

/** Records what the page speaks and whether it asks for the wake lock. */
async function recordSpeechAndWakeLock(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as {
      __spoken: { text: string; lang: string; rate: number; volume: number }[];
      __wakeLocks: number;
    };
    w.__spoken = [];
    w.__wakeLocks = 0;
    Object.defineProperty(window, 'speechSynthesis', {
      configurable: true,
      value: {
        speak: (u: SpeechSynthesisUtterance) =>
          w.__spoken.push({ text: u.text, lang: u.lang, rate: u.rate, volume: u.volume }),
        cancel: () => undefined,
      },
    });
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request: () => {
          w.__wakeLocks += 1;
          return Promise.resolve({
            released: false,
            release: () => Promise.resolve(),
            addEventListener: () => undefined,
          });
        },
      },
    });
  });
}

const spoken = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __spoken: { text: string; lang: string; rate: number; volume: number }[];
        }
      ).__spoken,
  );

test('an arrest logged offline with one tap per event, synced and seen on a second device', async ({
  page,
  openAs,
}) => {
  test.setTimeout(90_000);
  const adminPage = await openAs('administrator');
  await signInAsNewMember(page, adminPage, 'Lerato Compressions');
  await recordSpeechAndWakeLock(page);
  await page.clock.install();
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  const start = page.getByRole('link', { name: 'CPR Logger' });
  await expect(start).toBeVisible();

  await page.context().setOffline(true);
  await start.click();
  const heading = page.getByRole('heading', { level: 1, name: /^CPR S-/ });
  await expect(heading).toBeVisible();
  const sessionId = ((await heading.textContent()) ?? '').replace('CPR ', '');
  expect(page.url()).toContain(`/cpr-logger/${sessionId}`);

  const events = page.getByRole('region', { name: 'Log an event' });
  const timeline = page.getByRole('list', { name: 'Event timeline' });
  await events.getByRole('button', { name: 'VF', exact: true }).click();
  await events.getByRole('button', { name: 'Shock 150 J' }).click();
  await events.getByRole('button', { name: 'Adrenaline 1 mg' }).click();
  await expect(timeline.getByRole('listitem')).toHaveCount(3);
  await expect(timeline).toContainText('Rhythm check: VF');
  await expect(timeline).toContainText('Shock 150 J');
  await expect(timeline).toContainText('Adrenaline 1 mg');
  await expect(page.getByText('Not yet synced')).toBeVisible();

  // Two minutes on (the fake clock): the rhythm check prompt, on screen and spoken.
  await page.clock.fastForward('02:01');
  await expect(page.getByText('Rhythm check. Swap compressors.')).toBeVisible();
  await expect
    .poll(async () => (await spoken(page)).map((s) => s.text))
    .toContain('Rhythm check. Swap compressors.');
  // The §9 voice; Chromium keeps rate and volume as 32-bit floats (0.8999999761581421).
  const first = (await spoken(page))[0];
  expect(first).toMatchObject({ lang: 'en-US' });
  expect(first?.rate).toBeCloseTo(0.9, 5);
  expect(first?.volume).toBeCloseTo(0.8, 5);
  expect(
    await page.evaluate(() => (window as unknown as { __wakeLocks: number }).__wakeLocks),
  ).toBeGreaterThan(0);

  // Gloves: every tap target of the arrest screen is at least 56 px tall and wide.
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('main button, main a, main summary')]
      .map((el) => ({ text: el.textContent?.trim() ?? '', box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 56 || box.width < 56))
      .map(({ text, box }) => `${text} ${String(box.width)}×${String(box.height)}`),
  );
  expect(small).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'CPR logger (390 px)');
  await scanAtEachViewport(page, 'CPR logger', () => expect(heading).toBeVisible());

  // Back online: the session and its events reach the server.
  await page.context().setOffline(false);
  await expect(page.getByText('Synced', { exact: true })).toBeVisible({ timeout: 20_000 });

  // The same responder on another device: CPR Logs lists the session and shows its timeline.
  const other = await openAs('second device');
  await other.context().addCookies(await page.context().cookies());
  await other.goto('/cpr-logs');
  const row = other.getByRole('link', { name: new RegExp(sessionId) });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText('In progress');
  await row.click();
  const otherTimeline = other.getByRole('list', { name: 'Event timeline' });
  await expect(otherTimeline.getByRole('listitem')).toHaveCount(3);
  await expect(otherTimeline).toContainText('Shock 150 J');
  await expect(other.getByText('Shocks').locator('..')).toContainText('1');
  await scanAtEachViewport(other, 'CPR session log', () => expect(otherTimeline).toBeVisible());
});
