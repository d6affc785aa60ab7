import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sync-protocol',
    // A stray .only would run one test and pass: refused here too, not only under CI.
    allowOnly: false,
    environment: 'node',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
