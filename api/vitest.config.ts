import { defineConfig } from 'vitest/config';

// Integration tests start the real app on 127.0.0.1 and talk HTTP to it. With DATABASE_URL
// set, each test file's database is created on that PostgreSQL server; otherwise PGlite.
export default defineConfig({
  test: {
    name: 'api',
    // A stray .only would run one test and pass: refused here too, not only under CI.
    allowOnly: false,
    environment: 'node',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
