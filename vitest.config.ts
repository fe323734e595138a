import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000, // CLI tests start processes from TypeScript source: slow on a loaded 2-core machine
    // A file's beforeAll starts up to four test servers, each some CPU seconds (compiling every
    // route's schemas): on a loaded machine two at once took over a minute, and a timed-out
    // beforeAll skips every test of the file.
    hookTimeout: 120_000,
    pool: 'forks',
    // Two test files at a time, one per core: each pass keeps both cores busy (2 to 5% idle under
    // vmstat), so more forks would not shorten it.
    // The forks run the test servers in-process: with serve's young generation (`npm start`'s
    // --max-semi-space-size=64) the HTTP tests took 7% less CPU than with Node's default.
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ['--max-semi-space-size=64'] } },
    // Each fork runs its test files one after another in the same process, loading src/ once rather
    // than once per file (a file's own state is its servers and databases, closed in its afterAll).
    // `npx vitest run --isolate` gives every file a fresh process, to tell whether a failure comes
    // from a file before it.
    isolate: false,
    // The longest files start first (test/durations.json), so the run does not end on one slow file.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    globalSetup: ['test/helpers/browser-setup.ts'], // one Chromium for the run's page tests
    // Password hashes at scrypt N=2^10 rather than production's 2^17 (128 MiB, ~0.3 s each): tests
    // create hundreds of users. Hashes record their cost, so nothing else changes.
    env: { SCRYPT_LOG_N: '10' },
  },
});
