// Runs pnpm through npx so that a fresh machine needs nothing but Node 20+.
// (corepack is not used: its signature check fails on some machines.)
import { spawnSync } from 'node:child_process';

export const PNPM = ['-y', 'pnpm@10'];

export function pnpm(args, options = {}) {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, [...PNPM, ...args], { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
}
