// The built web app is served from the same origin, with the SPA fallback for page routes,
// revalidation for index.html and the service worker, and no fallback under /api.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from './helpers';

describe('with a built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'rescuelog-web-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><title>RescueLog</title><div id="root"></div>',
    );
    await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    t = await build({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html at / and for client-side routes, revalidated each time', async () => {
    for (const page of ['/', '/auth', '/patient-details/RL-20261121-AB12', '/admin/users']) {
      const res = await t.client().get(page);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves sw.js with no-cache and hashed assets as immutable', async () => {
    const sw = await t.client().get('/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const asset = await t.client().get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('a missing asset is a 404, not index.html', async () => {
    const res = await t.client().get('/assets/missing-123.js');
    expect(res.status).toBe(404);
  });

  it('never falls back to index.html under /api', async () => {
    const res = await t.client().get('/api/unknown/page');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not Found', code: 'NOT_FOUND' });
  });
});

describe('without a built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('says how to build it instead of failing', async () => {
    const res = await t.client().get('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npx -y pnpm@10 run build');
    expect((await t.client().get('/api/health')).status).toBe(200);
  });
});
