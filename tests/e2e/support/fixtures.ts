// The `test` every spec uses: baseURL is the run's server, and a page fails its test on
// any unexpected console error or uncaught exception (allow-list per test with
// `test.use({ allowedConsoleErrors: [...] })`).
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from '@playwright/test';
import { ORIGIN_ENV } from './server';

export { expect };

export function serverOrigin(): string {
  const origin = process.env[ORIGIN_ENV];
  if (!origin)
    throw new Error(`${ORIGIN_ENV} is not set: run the e2e suite through playwright.config.ts`);
  return origin;
}

/** A console error the browser itself logs for an expected HTTP status. */
export interface AllowedConsoleError {
  text: RegExp;
  /** The resource or script the message is about, when it matters. */
  url?: RegExp;
}

/** Nothing: signed out, the app's GET /api/session answers 200 `{ user: null }` (decision
 * 059), so a signed-out visit logs no failed request. */
const ALWAYS_ALLOWED: AllowedConsoleError[] = [];

export interface ConsoleGuard {
  errors: string[];
}

/** Collects unexpected console errors and page errors of `page`. */
export function guardConsole(page: Page, allowed: AllowedConsoleError[]): ConsoleGuard {
  const guard: ConsoleGuard = { errors: [] };
  const all = [...ALWAYS_ALLOWED, ...allowed];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    if (all.some((a) => a.text.test(message.text()) && (!a.url || a.url.test(url)))) return;
    guard.errors.push(`${message.text()} (${url || 'no location'})`);
  });
  page.on('pageerror', (error) => guard.errors.push(`uncaught: ${error.message}`));
  return guard;
}

interface Fixtures {
  allowedConsoleErrors: AllowedConsoleError[];
  /** Opens a page in a fresh browser context (another person on another device). */
  openAs: (label: string) => Promise<Page>;
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
  baseURL: async ({}, use) => {
    await use(serverOrigin());
  },
  page: async ({ page, allowedConsoleErrors }, use) => {
    const guard = guardConsole(page, allowedConsoleErrors);
    await use(page);
    expect(guard.errors, 'unexpected console errors').toEqual([]);
  },
  openAs: async ({ browser, allowedConsoleErrors, baseURL }, use) => {
    const opened: Array<{ context: BrowserContext; guard: ConsoleGuard; label: string }> = [];
    await use(async (label) => {
      const context = await newContext(browser, baseURL);
      const page = await context.newPage();
      opened.push({ context, guard: guardConsole(page, allowedConsoleErrors), label });
      return page;
    });
    for (const { context, guard, label } of opened) {
      await context.close();
      expect(guard.errors, `unexpected console errors (${label})`).toEqual([]);
    }
  },
});

async function newContext(browser: Browser, baseURL: string | undefined): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    locale: 'en-GB',
    timezoneId: 'Africa/Johannesburg',
    serviceWorkers: 'allow',
  });
}

/**
 * Waits until every finite animation and transition on the page (a dialog or a toast coming
 * in) has finished, so what is checked next sees the final colours and positions; endless
 * ones (spinners) are left running. A fixed pause is too short on a loaded machine.
 */
export async function animationsFinished(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
}

/** The widths every screen is checked at: a phone and a tablet (WCAG 2.2 AA at both). */
export const VIEWPORTS = [
  { name: 'phone', size: { width: 360, height: 740 } },
  { name: 'tablet', size: { width: 1024, height: 768 } },
] as const;

/**
 * Runs axe at each viewport on the screen as it is; `ready` waits for its content after the
 * resize (a layout that changes with the width may re-render).
 */
export async function scanAtEachViewport(
  page: Page,
  screen: string,
  ready: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport.size);
    await ready();
    await animationsFinished(page);
    await expectNoAxeViolations(page, `${screen} (${viewport.name})`);
  }
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Runs axe on the page as it is now and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(summary, `axe violations on ${screen}`).toEqual([]);
}
