import { defineConfig } from 'vitest/config';

// With DATABASE_URL set, every test database is created on that PostgreSQL server
// (see src/testing.ts); without it, in-memory PGlite.
export default defineConfig({
  test: {
    name: 'db',
    // A stray .only would run one test and pass: refused here too, not only under CI.
    allowOnly: false,
    environment: 'node',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
