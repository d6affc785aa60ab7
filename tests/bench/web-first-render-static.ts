// Benchmark without a browser (issue 12): the JavaScript the built app asks for before its
// first render, read from the build itself: the entry script in index.html, plus the chunks
// the preload script (web/vite.config.ts preloadFirstRoute) starts for the app and for the
// page opened. That is everything requested up front, an upper bound of what the render waits
// for (web-first-render.ts measures the lower one in Chromium). Also says whether zod is in
// the first chunk (the entry and app/boot) and in anything requested up front.
//   tsx bench/web-first-render-static.ts [dist ...]   (default: web/dist; several = side by side)
// Not a test: it reports, it never fails.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { round, table, writeResult } from './support';

const JS_TARGET_KIB = 150;
const PAGES = ['/auth', '/'] as const;
/** Strings zod's code keeps after minification: a script holding them holds zod. */
const ZOD_MARKER = /\$ZodType|ZodError/;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const preloadSchema = z.object({
  app: z.array(z.string()),
  pages: z.record(z.string(), z.array(z.string())),
});

function readPreloads(dist: string): z.infer<typeof preloadSchema> {
  const file = readdirSync(path.join(dist, 'assets')).find((f) =>
    /^preload-first-route-.*\.js$/.test(f),
  );
  if (!file) throw new Error(`${dist}: no preload-first-route script`);
  const source = readFileSync(path.join(dist, 'assets', file), 'utf8');
  const app = /var a=(\[[^\]]*\])/.exec(source)?.[1];
  const pages = /,m=(\{.*?\})\[location\.pathname\]/.exec(source)?.[1];
  if (!app || !pages) throw new Error(`${dist}: unreadable preload script`);
  return preloadSchema.parse({ app: JSON.parse(app), pages: JSON.parse(pages) });
}

interface PageResult {
  dist: string;
  page: string;
  firstRenderJsGzipKiB: number;
  firstChunkGzipKiB: number;
  zodInFirstChunk: boolean;
  zodRequestedUpFront: boolean;
  scripts: Array<{ url: string; gzipKiB: number; zod: boolean }>;
}

function measure(dist: string): PageResult[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map(
    (m) => m[1] ?? '',
  );
  const { app, pages } = readPreloads(dist);
  return PAGES.map((page) => {
    const urls = [...new Set([...entries, ...app, ...(pages[page] ?? [])])];
    const scripts = urls.map((url) => {
      const bytes = readFileSync(path.join(dist, url));
      return {
        url,
        gzipKiB: round(gzipSync(bytes, { level: 9 }).length / 1024),
        zod: ZOD_MARKER.test(bytes.toString('utf8')),
      };
    });
    const first = scripts.filter((s) => entries.includes(s.url) || app.includes(s.url));
    return {
      dist,
      page,
      firstRenderJsGzipKiB: round(scripts.reduce((sum, s) => sum + s.gzipKiB, 0)),
      firstChunkGzipKiB: round(first.reduce((sum, s) => sum + s.gzipKiB, 0)),
      zodInFirstChunk: first.some((s) => s.zod),
      zodRequestedUpFront: scripts.some((s) => s.zod),
      scripts,
    };
  });
}

export function runWebStaticBench(dists: string[]): PageResult[] {
  const results = dists.flatMap((dist) => measure(path.resolve(REPO_ROOT, dist)));
  console.log(
    '\nWeb: JavaScript requested before the first render, from the build (no browser needed)',
  );
  table(
    results.map((r) => ({
      build: path.relative(REPO_ROOT, r.dist) || r.dist,
      page: r.page,
      'requested up front (KiB gz)': r.firstRenderJsGzipKiB,
      [`<= ${String(JS_TARGET_KIB)}`]: r.firstRenderJsGzipKiB <= JS_TARGET_KIB ? 'yes' : 'NO',
      'entry + app (KiB gz)': r.firstChunkGzipKiB,
      'zod in first chunk': r.zodInFirstChunk ? 'YES' : 'no',
      'zod requested up front': r.zodRequestedUpFront ? 'yes' : 'no',
    })),
  );
  console.log(
    `Saved ${writeResult('web-first-render-static', { targetKiB: JS_TARGET_KIB, results })}`,
  );
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dists = process.argv.slice(2);
  runWebStaticBench(dists.length > 0 ? dists : ['web/dist']);
}
