// Bundles the server and the command-line tools into api/dist with esbuild. Our workspace
// packages (@rescuelog/*, TypeScript source) are bundled in; npm packages stay external and
// load from node_modules at run time (PGlite needs its wasm and data files from its package,
// argon2 its native binary).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(apiDir, 'dist');

const manifest = JSON.parse(await readFile(path.join(apiDir, 'package.json'), 'utf8'));
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);

/** 'pg' -> 'pg', '@scope/name/sub' -> '@scope/name', 'kysely/migration' -> 'kysely'. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Marks every bare import external except our own workspace packages. An external import must
 * be a dependency of @rescuelog/api: with pnpm, a package that only db/ or sync-protocol/
 * depends on cannot be found from api/dist at run time.
 */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@rescuelog/')) return undefined;
      const name = packageName(args.path);
      if (!args.path.startsWith('node:') && !builtins.has(name) && !dependencies.has(name)) {
        return {
          errors: [
            {
              text: `${name} (imported by ${path.relative(apiDir, args.importer)}) must be a dependency of @rescuelog/api`,
            },
          ],
        };
      }
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
console.log(
  `api: bundled server, migrate and create-admin into ${path.relative(process.cwd(), outdir) || outdir}`,
);
