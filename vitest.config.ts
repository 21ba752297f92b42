import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // One PostgreSQL server for the store and engine tests (see the file).
    globalSetup: ['test/helpers/postgres-server.ts'],
  },
});
