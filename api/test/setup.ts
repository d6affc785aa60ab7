// Fails any test that logs through console.error: errors must be asserted, not printed.
// Under CI, property tests replay one fixed seed (locally they draw new ones to explore).
import fc from 'fast-check';
import { afterEach, beforeEach, vi } from 'vitest';

if (process.env.CI) fc.configureGlobal({ seed: 20261121 });

const logged: unknown[][] = [];

beforeEach(() => {
  logged.length = 0;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (logged.length > 0) {
    throw new Error(
      `Unexpected console.error: ${logged.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
