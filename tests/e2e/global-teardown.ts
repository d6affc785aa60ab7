// Stops the run's server (whichever process last started it) and removes its temp folder.
import { rmSync } from 'node:fs';
import { RUN_DIR_ENV, readServerState, stopServer } from './support/server';

export default async function globalTeardown(): Promise<void> {
  const runDir = process.env[RUN_DIR_ENV];
  if (!runDir) return;
  await stopServer(readServerState(runDir));
  if (process.env.RESCUELOG_E2E_KEEP_DATA !== '1') rmSync(runDir, { recursive: true, force: true });
}
