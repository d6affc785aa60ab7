// End-to-end tests: Debian's Chromium against the real built app and API (one server for
// the run, started by global-setup.ts on a free port with a fresh embedded database).
// Projects run in order: the first-admin spec needs an empty system, the offline spec
// stops the server and so runs last.
import { defineConfig } from '@playwright/test';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Playwright empties its output folder when a run starts, so two local runs on one checkout
// would delete each other's traces mid-run. Each local run gets its own folder (set once in
// the runner process; the workers inherit it). CI runs once and uses the plain folder.
process.env.RESCUELOG_E2E_OUTPUT ??= process.env.CI
  ? './test-results'
  : `./test-results/run-${new Date().toISOString().replace(/[:.]/g, '-')}-${String(process.pid)}`;

export default defineConfig({
  testDir: '.',
  outputDir: process.env.RESCUELOG_E2E_OUTPUT,
  workers: 1,
  fullyParallel: false,
  // A stray .only would run one spec and pass: refused locally too, not only under CI.
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: './playwright-report' }]],
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
    locale: 'en-GB',
    timezoneId: 'Africa/Johannesburg',
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'first-admin', testMatch: /first-admin\.spec\.ts$/ },
    {
      name: 'app',
      testMatch: /(accounts|notifications|a11y)\.spec\.ts$/,
      dependencies: ['first-admin'],
    },
    // Notification administration and web push (issue 16): compose, schedule, cancel and
    // role targeting on the run's server; push to the member's real service worker on a
    // server of its own that may push to the stand-in push service (support/push-server.ts).
    {
      name: 'notifications',
      testMatch: /\/notifications-(admin|push)\.spec\.ts$/,
      dependencies: ['app'],
    },
    // Sync chaos (issue 4): its own fault-injecting proxy in front of the run's server; the
    // test-only engine page and the real case screens. Background Sync: the service worker
    // delivers a change with every page closed. Recovery (issue 10): synced within a minute
    // of the server's return after ten minutes of 503.
    {
      name: 'sync',
      testMatch: /sync-(chaos(-cases)?|background|worker-start|recovery)\.spec\.ts$/,
      dependencies: ['app'],
    },
    // Roles, profile and system settings (issue 11).
    // And what a newly approved member meets first on a phone (issue 37).
    { name: 'roles', testMatch: /\/(roles|first-minutes)\.spec\.ts$/, dependencies: ['app'] },
    // Patient cases online (issue 5): addenda, handover, FHIR export, search, access.
    // Data in the browser (issue 12): a session the server ends clears or locks the device.
    {
      name: 'cases',
      testMatch: /\/(cases|conflicts|session-end-device|choice-cards)\.spec\.ts$/,
      dependencies: ['app'],
    },
    // Stops the server: cases-offline.spec.ts (capture with no server), offline.spec.ts.
    { name: 'offline', testMatch: /(offline|pwa-update)\.spec\.ts$/, dependencies: ['app'] },
    // The round's features, one spec each (issues 38 to 42): medical inventory, the CPR
    // logger, mass-casualty command, incident reports with media, the reference library.
    { name: 'inventory', testMatch: /\/inventory\.spec\.ts$/, dependencies: ['app'] },
    { name: 'cpr', testMatch: /\/cpr\.spec\.ts$/, dependencies: ['app'] },
    { name: 'mci', testMatch: /\/mci\.spec\.ts$/, dependencies: ['app'] },
    { name: 'incidents', testMatch: /\/incident-reports\.spec\.ts$/, dependencies: ['app'] },
    { name: 'reference', testMatch: /\/reference\.spec\.ts$/, dependencies: ['app'] },
  ],
});
