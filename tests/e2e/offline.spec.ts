// Installable PWA: after one online visit the service worker serves the app shell with the
// server stopped (issue 3), and nothing from /api/ ends up in any cache. Runs last: it
// stops the run's server and starts it again on the same port and data folder.
import type { Page } from '@playwright/test';
import { ADMIN, signInAsAdmin } from './support/accounts';
import { expect, test } from './support/fixtures';
import { readServerState, restartServer, stopServer } from './support/server';

// With the server down, the app's own API calls fail at the network level.
test.use({
  allowedConsoleErrors: [
    {
      text: /Failed to load resource: net::ERR_(CONNECTION_REFUSED|FAILED|CONNECTION_RESET)/,
      url: /\/api\//,
    },
  ],
});

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

async function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(request.url);
    }
    return urls;
  });
}

test('after one online visit the app shell opens with the server stopped', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/');
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);

  const urls = await cachedUrls(page);
  expect(
    urls.some((u) => new URL(u).pathname === '/index.html'),
    'index.html is precached',
  ).toBe(true);
  expect(
    urls.some((u) => /\/assets\/.+\.js/.test(u)),
    'the JavaScript bundles are precached',
  ).toBe(true);
  expect(
    urls.some((u) => new URL(u).pathname === '/manifest.webmanifest'),
    'the web manifest is precached',
  ).toBe(true);
  expect(
    urls.filter((u) => new URL(u).pathname.startsWith('/api')),
    'no API response in any cache',
  ).toEqual([]);

  const state = readServerState();
  await stopServer(state);
  try {
    const health = await fetch(`${state.origin}/api/health`).then(
      () => 'up',
      () => 'down',
    );
    expect(health, 'the server is really stopped').toBe('down');

    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
    // The app opens for the account this device last signed in with, not an error.
    await expect(page.getByText(ADMIN.fullName)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quick Stats' })).toBeVisible();
    await expect(page.getByText('Could not load your account')).toHaveCount(0);

    // A deep link opened offline gets the same shell (navigation fallback) and its screen.
    const deep = await page.goto('/case-search');
    expect(deep?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { level: 1, name: 'Cases Logged' })).toBeVisible();

    // The manifest and icons are there for the installed app too.
    const manifest = await page.evaluate(
      async () => (await fetch('/manifest.webmanifest')).json() as Promise<{ short_name?: string }>,
    );
    expect(manifest.short_name).toBe('RescueLog');
  } finally {
    await restartServer(state);
  }

  // Back online: the same app, same session, straight from the server again.
  await page.goto('/');
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
});

test('the web manifest makes the app installable', async ({ page }) => {
  await page.goto('/auth');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const response = await page.request.get(href ?? '');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
  };
  expect(manifest.name).toContain('RescueLog');
  expect(manifest.short_name).toBe('RescueLog');
  expect(manifest.start_url).toBe('/');
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const sizes = manifest.icons.map(
    (i) => `${i.sizes}${i.purpose === 'maskable' ? ' maskable' : ''}`,
  );
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512', '512x512 maskable']));
  for (const icon of manifest.icons) {
    const image = await page.request.get(icon.src);
    expect(image.ok(), icon.src).toBe(true);
    expect(image.headers()['content-type']).toContain('image/png');
  }
  const themeMeta = await page.locator('meta[name="theme-color"]').getAttribute('content');
  expect(themeMeta?.toLowerCase()).toBe(manifest.theme_color.toLowerCase());
});
