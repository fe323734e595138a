import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000, // CLI tests start processes from TypeScript source: slow on a loaded 2-core machine
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
