// Starts one real server for the whole e2e run (see support/server.ts) and hands its
// address to the test workers through the environment.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ORIGIN_ENV, RUN_DIR_ENV, startServer } from './support/server';

export default async function globalSetup(): Promise<void> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-e2e-'));
  const state = await startServer({ runDir });
  process.env[RUN_DIR_ENV] = runDir;
  process.env[ORIGIN_ENV] = state.origin;
}
