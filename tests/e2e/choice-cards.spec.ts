// Choice cards (the form kit's ChoiceGroup, multi-selects and checks) never break a word
// inside a card: on every case step, at a phone's 390×844 and a tablet's 1024×768, each word
// of each card's label lies on one line and inside its card (issue 36: at 1024 px the steps
// showed "Emerg/ency: treat imme/diatel/y"). The screens are scanned with axe as well.
import type { Page } from '@playwright/test';
import { signInAsAdmin } from './support/accounts';
import { caseIdFromUrl, choose, tick } from './support/cases';
import { animationsFinished, expect, expectNoAxeViolations, test } from './support/fixtures';

const SIZES = [
  { name: '390×844', width: 390, height: 844 },
  { name: '1024×768', width: 1024, height: 768 },
] as const;

/**
 * Every word of every card label that is split over lines or sticks out of its card, as
 * "label text → word". A word is split when its Range has client rects on more than one line.
 * Labels of text fields and checks are measured too: no label may break a word.
 */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const cards = document.querySelectorAll<HTMLElement>('main fieldset label, main label[class]');
    for (const card of cards) {
      if (card.getClientRects().length === 0) continue;
      const box = card.getBoundingClientRect();
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Text for screen readers only (.sr-only: a 1 px clipped box) is not on the card.
        const holder = node.parentElement?.getBoundingClientRect();
        if (!holder || holder.width <= 1 || holder.height <= 1) continue;
        const text = node.textContent ?? '';
        // A line may end after a hyphen the word itself holds ("Non-/emergency"), as in print.
        for (const match of text.matchAll(/[^\s-]+-*|-+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          const lines = new Set(rects.map((r) => Math.round(r.top)));
          const outside = rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1);
          if (lines.size > 1 || outside)
            found.push(`${(card.textContent ?? '').trim()} → ${match[0]}`);
        }
      }
    }
    return found;
  });
}

async function checkStep(page: Page, heading: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await animationsFinished(page);
    expect(await page.locator('main label').count()).toBeGreaterThan(0);
    expect(await brokenWords(page), `words split in ${heading} at ${size.name}`).toEqual([]);
    await expectNoAxeViolations(page, `${heading} (${size.name})`);
  }
}

test('no choice card on a case step breaks a word, on a phone and on a tablet', async ({
  page,
}) => {
  // Five steps, two sizes, an axe scan each: longer than one screen's test.
  test.setTimeout(240_000);
  await signInAsAdmin(page);
  await page.goto('/');
  await page.getByRole('link', { name: /New Case/ }).click();
  await expect(page).toHaveURL(/\/patient-details\/C-/);
  const caseId = caseIdFromUrl(page);

  // Conditional parts open, so their cards are measured too.
  await choose(page, 'hasMedicalAid', true);
  await checkStep(page, 'Patient Details');

  await page.goto(`/primary-survey/${caseId}`);
  await choose(page, 'hemorrhagingActive', true);
  await checkStep(page, 'Primary Survey');

  await page.goto(`/secondary-survey/${caseId}`);
  await checkStep(page, 'Secondary Survey');

  await page.goto(`/treatment-provided/${caseId}`);
  await tick(page, 'endotrachealIntubation');
  await checkStep(page, 'Treatment Provided');

  await page.goto(`/response-details/${caseId}`);
  await checkStep(page, 'Response Details');
});
