// Starts the API (and the built web app) on PORT/HOST. Configuration errors and failed
// migrations stop the process with a message saying what to fix.
import { EnvError, parseEnv } from '@rescuelog/sync-protocol/server/env';
import { buildApp } from './app';
import { resolveConfig } from './config';
import { MigrationError } from './plugins/external/database';

async function main(): Promise<void> {
  let config;
  let env;
  try {
    env = parseEnv(process.env);
    config = resolveConfig(env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let app;
  try {
    app = await buildApp({ config, logger: { level: env.logLevel }, rateLimits: env.rateLimits });
  } catch (error) {
    if (error instanceof MigrationError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`,
      publicOrigin: config.publicOrigin,
    },
    'RescueLog is running',
  );
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
