// Issue 42, the reference library in the browser: a first aid protocol opened offline after
// one online visit and read aloud step by step (the speech calls and spec §9's voice), search
// by a symptom; an administrator publishes an SOP and a member reads and acknowledges it
// offline, the acknowledgement reaching the server; axe at a phone's and a tablet's width.
// Headless Chromium here has no voices: where getVoices() is empty the page's speak() is
// replaced by one that records the utterance and fires its start and end events; with
// voices it records and speaks for real.
import type { Page } from '@playwright/test';
import { signInAsAdmin, signInAsNewMember } from './support/accounts';
import { waitForServiceWorkerControl } from './support/cases';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

test.use({
  allowedConsoleErrors: [
    {
      text: /Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED|CONNECTION_REFUSED)/,
      url: /\/api\//,
    },
  ],
});

interface Spoken {
  text: string;
  lang: string;
  rate: number;
  pitch: number;
  volume: number;
}

async function recordSpeech(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __spoken: unknown[] };
    w.__spoken = [];
    const synth = window.speechSynthesis;
    const real = synth.speak.bind(synth);
    synth.speak = (u: SpeechSynthesisUtterance) => {
      w.__spoken.push({
        text: u.text,
        lang: u.lang,
        rate: u.rate,
        pitch: u.pitch,
        volume: u.volume,
      });
      if (synth.getVoices().length > 0) return real(u);
      setTimeout(() => {
        u.onstart?.(new SpeechSynthesisEvent('start', { utterance: u }));
        u.onend?.(new SpeechSynthesisEvent('end', { utterance: u }));
      }, 10);
    };
  });
}

const spoken = (page: Page) =>
  page.evaluate(() => (window as unknown as { __spoken: Spoken[] }).__spoken);

const SIZES = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
];

async function axeAtBothSizes(page: Page, screen: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page, `${screen} at ${String(size.width)} px`);
  }
  await page.setViewportSize(SIZES[0] ?? { width: 390, height: 844 });
}

test('a protocol opens offline and is read aloud step by step; search finds it by a symptom', async ({
  page,
  openAs,
}) => {
  await recordSpeech(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const admin = await openAs('admin');
  // The administrator first: run alone (--no-deps), the first account of the run is theirs.
  await signInAsAdmin(admin);
  await signInAsNewMember(page, admin, 'Protocol Reader');
  await page.goto('/protocols');
  await expect(page.getByRole('heading', { level: 1, name: 'First Aid Protocols' })).toBeVisible();
  await waitForServiceWorkerControl(page);
  await axeAtBothSizes(page, '/protocols');

  await page.context().setOffline(true);
  await page.goto('/protocols');
  await page.getByRole('searchbox', { name: 'Search protocols' }).fill('bee sting');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('link').first()).toHaveAccessibleName(/^Anaphylaxis/);
  await results.getByRole('link').first().click();

  await expect(page.getByRole('heading', { level: 1, name: 'Anaphylaxis' })).toBeVisible();
  const current = page.locator('[aria-current="step"]');
  await expect(current).toContainText('Look for swelling of the lips');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(current).toContainText('Help them use their adrenaline auto-injector');
  await expect(current).toBeInViewport();
  await expect(page.getByText('Step 2 of 7')).toBeVisible();
  await page.getByRole('button', { name: 'Repeat' }).click();
  await expect.poll(() => spoken(page)).toHaveLength(2);
  const calls = await spoken(page);
  for (const call of calls) {
    expect(call).toEqual({
      text: expect.stringMatching(/^Step 2\. Help them use their adrenaline auto-injector/),
      lang: 'en-US',
      rate: expect.closeTo(0.9, 5),
      pitch: 1,
      volume: expect.closeTo(0.8, 5),
    });
  }
  await axeAtBothSizes(page, '/protocols/anaphylaxis');
  await page.context().setOffline(false);
});

test('an administrator publishes an SOP; a member reads and acknowledges it offline', async ({
  page,
  openAs,
}) => {
  const admin = await openAs('admin');
  await signInAsAdmin(admin);
  const member = await signInAsNewMember(page, admin, 'Sop Reader');
  await admin.setViewportSize({ width: 1024, height: 768 });
  const title = `Radio check ${String(Date.now())}`;

  await admin.goto('/internal-protocols/new');
  await admin.getByLabel('Title').fill(title);
  await admin.getByLabel('Category').selectOption('Communications');
  await admin.getByLabel('Text').fill('# Daily\n- Test the **base** radio\n- Log it');
  await admin.getByRole('button', { name: 'Publish SOP' }).click();
  await expect(admin.getByRole('heading', { name: title })).toBeVisible();
  await expect(
    admin.getByRole('listitem').filter({ hasText: 'Test the base radio' }),
  ).toBeVisible();
  await axeAtBothSizes(admin, 'the SOP editor’s result');

  // The member's device receives it through sync, then reads it with no connection.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/internal-protocols');
  await waitForServiceWorkerControl(page);
  const row = page.getByRole('link', { name: new RegExp(title) });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 40_000 });
  await expect(row).toContainText('Not yet acknowledged');
  await axeAtBothSizes(page, '/internal-protocols');

  await page.context().setOffline(true);
  await row.click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('Test the')).toBeVisible();
  await page.getByRole('button', { name: 'I have read and understood version 1' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'You acknowledged version 1' }),
  ).toContainText('Not yet synced');
  await axeAtBothSizes(page, 'an SOP');
  await page.context().setOffline(false);
  await expect(
    page.getByRole('status').filter({ hasText: 'You acknowledged version 1' }),
  ).not.toContainText('Not yet synced', { timeout: 30_000 });

  // The administrator's list of who has not acknowledged no longer names the member.
  const missing = admin.getByRole('list', { name: 'Not yet acknowledged' });
  await expect(async () => {
    await admin.reload();
    await expect(missing).toBeVisible({ timeout: 3_000 });
    await expect(missing).not.toContainText(member.fullName, { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });
});
