#!/usr/bin/env node
// Runs the whole test suite against PostgreSQL: every test file gets its own database on the
// server named by TEST_DATABASE_URL (default: the local trust-auth server CI provides).
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
};
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
