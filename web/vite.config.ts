import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type PluginOption, type Rollup } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// ---- PWA plugin slot (owned by the PWA helper) ---------------------------------------
// The PWA helper adds vite-plugin-pwa here; keep the rest of this file app-only.
// Installable PWA: the web manifest and the service worker in sw/src/sw.ts (injectManifest,
// so the worker is our TypeScript, with the app shell's precache list injected at build).
// The page registers it itself (src/lib/pwa-register.ts) with registerType 'prompt': a new
// version waits for the user's "Update" instead of reloading under them.
const pwaPlugins: PluginOption[] = [
  VitePWA({
    strategies: 'injectManifest',
    srcDir: '../sw/src',
    filename: 'sw.ts',
    registerType: 'prompt',
    injectRegister: false,
    includeAssets: ['icons/apple-touch-icon-180.png'],
    manifest: {
      id: '/',
      name: 'RescueLog — Rescue & Emergency Medical Records',
      short_name: 'RescueLog',
      description:
        'Patient case records, CPR logs, incident reports and mass-casualty command for a volunteer rescue and emergency medical service. Works offline.',
      lang: 'en-GB',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      // Keep in sync with THEME_RGB in scripts/generate-pwa-icons.ts.
      theme_color: '#b91c1c',
      background_color: '#ffffff',
      categories: ['medical', 'productivity'],
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        {
          src: '/icons/icon-maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
    },
    injectManifest: {
      // The app shell only: never source maps, never anything the API serves. The web
      // manifest, its icons and includeAssets are added to the precache by the plugin.
      // ttf: the report fonts (lib/pdf/fonts, about 106 KiB each), so a PDF can be made
      // offline; the app's own screens use no font files.
      globPatterns: ['**/*.{js,css,html,svg,ico,woff2,ttf}'],
      globIgnores: ['**/*.map', 'api/**'],
      sourcemap: false,
    },
    devOptions: { enabled: false },
  }),
];
// ---- end PWA plugin slot ---------------------------------------------------------------

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Writes `.br` and `.gz` beside every text asset (and the report fonts, which halve too) so the server can send them as they are
 * (@fastify/static `preCompressed`): phones on a weak signal download a third of the bytes
 * and the server spends no CPU compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'rescuelog:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const names = Object.keys(bundle).filter((name) => /\.(js|css|html|svg|ttf)$/.test(name));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(dir, name);
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotliAsync(data, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 11,
                [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzipAsync(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/** What main.tsx loads on every page once the shell is painted (it holds React and the app). */
const APP_MODULE = 'src/app/boot.tsx';

/** The pages most visits start on, and the route module each one renders first. */
const FIRST_PAGES: Record<string, string> = {
  '/auth': 'src/app/routes/auth.tsx',
  '/': 'src/app/routes/dashboard.tsx',
};

/**
 * Starts downloading the app (app/boot) and the current page's lazily loaded route code
 * together with the entry, instead of one after the other as each import runs: a small
 * script (async, so it never holds up the first paint; a file, because the server's CSP
 * forbids inline scripts) adds `modulepreload` links for those chunks and the chunks they
 * import, the route's chosen by the address the page was opened at.
 */
function preloadFirstRoute(): Plugin {
  let script: { fileName: string; source: string } | null = null;
  const chunkFiles = (bundle: Rollup.OutputBundle, moduleSuffix: string): string[] => {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
    const entry = chunks.find((c) => c.isEntry);
    const route = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(moduleSuffix)));
    if (!route) throw new Error(`preloadFirstRoute: no chunk holds ${moduleSuffix}`);
    const files = new Set<string>();
    const visit = (fileName: string) => {
      if (files.has(fileName) || fileName === entry?.fileName) return;
      files.add(fileName);
      const chunk = bundle[fileName];
      if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
    };
    visit(route.fileName);
    return [...files].map((file) => `/${file}`);
  };
  return {
    name: 'rescuelog:preload-first-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const bundle = ctx.bundle;
        const app = chunkFiles(bundle, APP_MODULE);
        const map = Object.fromEntries(
          Object.entries(FIRST_PAGES).map(([page, mod]) => [
            page,
            chunkFiles(bundle, mod).filter((f) => !app.includes(f)),
          ]),
        );
        const source = `(function(){var a=${JSON.stringify(app)},m=${JSON.stringify(map)}[location.pathname]||[];a.concat(m).forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)})})();\n`;
        const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
        script = { fileName: `assets/preload-first-route-${hash}.js`, source };
        return [
          {
            tag: 'script',
            attrs: { async: true, src: `/${script.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
    // Written with the bundle, so vite-plugin-pwa (closeBundle) precaches it with the shell.
    async writeBundle(options) {
      if (!script) return;
      await writeFile(path.join(options.dir ?? 'dist', script.fileName), script.source);
    },
  };
}

export default defineConfig({
  plugins: [react(), ...pwaPlugins, precompress(), preloadFirstRoute()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
