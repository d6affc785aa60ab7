import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sync-protocol',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
