// `pnpm migrate`: applies pending migrations to the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR) and exits; non-zero with the failing migration's name on error.
import { createDatabase } from '@rescuelog/db/connect';
import { EnvError, parseEnv } from '@rescuelog/sync-protocol/server/env';
import { resolveDataDir } from '../config';

async function main(): Promise<number> {
  const env = parseEnv(process.env);
  const dataDir = resolveDataDir(env);
  // Migrated while opening (on the embedded database, in a short-lived process).
  const handle = await createDatabase({ databaseUrl: env.databaseUrl, dataDir, migrate: true });
  try {
    const applied = handle.migrated;
    const where = env.databaseUrl
      ? 'PostgreSQL (DATABASE_URL)'
      : `the embedded database in ${dataDir}`;
    console.log(
      applied.length === 0
        ? `Nothing to apply: ${where} is up to date.`
        : `Applied to ${where}:\n${applied.map((name) => `  ${name}`).join('\n')}`,
    );
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof EnvError
        ? error.message
        : `Migration failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
