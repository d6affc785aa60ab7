// Bundles the server and the command-line tools into api/dist with esbuild. Our workspace
// packages (@rescuelog/*, TypeScript source) are bundled in; npm packages stay external and
// load from node_modules at run time (PGlite needs its wasm and data files from its package,
// argon2 its native binary).
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(apiDir, 'dist');

/** Marks every bare import external except our own workspace packages. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@rescuelog/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: apiDir,
  entryPoints: {
    server: 'src/server.ts',
    migrate: 'src/cli/migrate.ts',
    'create-admin': 'src/cli/create-admin.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalNpmPackages],
});
console.log(`api: bundled server, migrate and create-admin into ${path.relative(process.cwd(), outdir) || outdir}`);
