// Fails any test that logs through console.error: errors must be asserted, not printed.
import { afterEach, beforeEach, vi } from 'vitest';

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
    throw new Error(`Unexpected console.error: ${logged.map((a) => a.map(String).join(' ')).join('\n')}`);
  }
});
