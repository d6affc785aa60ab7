// Benchmark (issue 3): the gzipped JavaScript needed for the first render of /auth and of /
// (signed in), and a Lighthouse mobile run (Debian Chromium, default mobile emulation and
// simulated throttling) of both pages: performance score, LCP, TBT, CLS, printed against
// the targets (first-render JS <= 170 KiB gzipped, performance >= 90). Not a test: it
// reports, it never fails because the machine is slow.
//
// "Needed for the first render" = every script the page requested before the route's
// first meaningful content was on screen, in a browser without a service worker (a first
// visit): the entry, its static imports and the lazily loaded route chunk.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';
import { freePort } from '../e2e/support/server';
import { round, sessionCookie, startBenchServer, table, writeHeaders, writeResult } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const JS_TARGET_KIB = 170;
const PERFORMANCE_TARGET = 90;

interface PageSpec {
  path: '/auth' | '/';
  /** Waits until the route's own content is rendered. */
  ready: (page: Page) => Promise<void>;
}

const PAGES: PageSpec[] = [
  { path: '/auth', ready: (page) => page.getByRole('button', { name: 'Sign In' }).waitFor() },
  { path: '/', ready: (page) => page.getByText('Bench Administrator').first().waitFor() },
];

interface ScriptLoad {
  url: string;
  bytes: number;
  gzipBytes: number;
}

async function firstRenderScripts(origin: string, cookie: string | null, spec: PageSpec): Promise<ScriptLoad[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    for (const pair of cookie === null ? [] : cookie.split('; ')) {
      const [name = '', ...value] = pair.split('=');
      await context.addCookies([{ name, value: value.join('='), url: origin }]);
    }
    const page = await context.newPage();
    const requested: string[] = [];
    let rendered = false;
    page.on('request', (request) => {
      if (!rendered && request.resourceType() === 'script') requested.push(request.url());
    });
    await page.goto(`${origin}${spec.path}`);
    await spec.ready(page);
    rendered = true;
    const loads: ScriptLoad[] = [];
    for (const url of [...new Set(requested)]) {
      const body = await (await fetch(url)).arrayBuffer();
      const bytes = Buffer.from(body);
      loads.push({ url: new URL(url).pathname, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
    }
    return loads;
  } finally {
    await browser.close();
  }
}

interface LighthouseSummary {
  performance: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
}

async function waitForDevtools(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${String(port)}/json/version`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Chromium did not open its DevTools port');
}

async function runLighthouse(url: string, cookie: string | null): Promise<LighthouseSummary> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), 'rescuelog-lh-'));
  const browser = spawn(CHROMIUM, ['--headless=new', ...CHROMIUM_FLAGS, `--remote-debugging-port=${String(port)}`, `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: 'ignore',
  });
  try {
    await waitForDevtools(port);
    // Lighthouse resets storage between runs, so the session travels as a header.
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie === null ? {} : { extraHeaders: { Cookie: cookie } }) });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null;
    const score = lhr.categories.performance?.score;
    return {
      performance: score === null || score === undefined ? null : Math.round(score * 100),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
    };
  } finally {
    browser.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function runWebBench(): Promise<Record<string, unknown>> {
  const server = await startBenchServer();
  const origin = server.state.origin;
  try {
    const registered = await fetch(`${origin}/api/register`, {
      method: 'POST',
      headers: writeHeaders(origin),
      body: JSON.stringify({ email: 'bench-admin@example.org', password: 'bench-password-1', fullName: 'Bench Administrator', qualifications: 'Nurse' }),
    });
    if (registered.status !== 201) throw new Error(`register: ${String(registered.status)} ${await registered.text()}`);
    const cookie = sessionCookie(registered);

    const pages: Array<Record<string, unknown>> = [];
    const rows: Array<Record<string, string | number>> = [];
    for (const spec of PAGES) {
      // /auth is what a signed-out visitor sees; the session would redirect it to /.
      const pageCookie = spec.path === '/auth' ? null : cookie;
      const scripts = await firstRenderScripts(origin, pageCookie, spec);
      const gzipKiB = scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024;
      const lh = await runLighthouse(`${origin}${spec.path}`, pageCookie);
      pages.push({ path: spec.path, firstRenderJsGzipKiB: round(gzipKiB), scripts, lighthouse: lh });
      rows.push({
        page: spec.path,
        'first-render JS (KiB gz)': round(gzipKiB),
        [`JS <= ${String(JS_TARGET_KIB)}`]: gzipKiB <= JS_TARGET_KIB ? 'yes' : 'NO',
        performance: lh.performance ?? 'n/a',
        [`perf >= ${String(PERFORMANCE_TARGET)}`]: lh.performance !== null && lh.performance >= PERFORMANCE_TARGET ? 'yes' : 'NO',
        'LCP ms': lh.lcpMs === null ? 'n/a' : Math.round(lh.lcpMs),
        'TBT ms': lh.tbtMs === null ? 'n/a' : Math.round(lh.tbtMs),
        CLS: lh.cls === null ? 'n/a' : round(lh.cls, 3),
      });
      console.log(`\nScripts before the first render of ${spec.path}:`);
      table(scripts.map((s) => ({ script: s.url, 'KiB': round(s.bytes / 1024), 'KiB gz': round(s.gzipBytes / 1024) })));
    }
    console.log('\nWeb: first render and Lighthouse (mobile) against the targets');
    table(rows);
    const result = { targets: { firstRenderJsGzipKiB: JS_TARGET_KIB, performance: PERFORMANCE_TARGET }, pages };
    console.log(`Saved ${writeResult('web-first-render', result)}`);
    return result;
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runWebBench();
}
