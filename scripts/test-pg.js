#!/usr/bin/env node
// Runs the whole test suite against PostgreSQL: every test file gets its own database on the
// server named by TEST_DATABASE_URL (default: the local trust-auth server CI provides).
// --scale-out (npm run test:scale): every test server is two app instances, each with its own
// pool and caches, on one database behind a round-robin proxy (test/helpers/server.ts).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const scaleOut = args.includes('--scale-out');
const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  ...(scaleOut ? { TEST_SCALE_OUT: '1' } : {}),
};
const vitestArgs = args.filter((a) => a !== '--scale-out');
const result = spawnSync('npx', ['vitest', 'run', ...vitestArgs], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
