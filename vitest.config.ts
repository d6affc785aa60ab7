import { defineConfig } from 'vitest/config';

// Each package owns its test setup; this file only lists them.
export default defineConfig({
  test: {
    projects: ['sync-protocol', 'db', 'api', 'web'],
  },
});
