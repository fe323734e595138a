#!/usr/bin/env -S node --max-semi-space-size=64
// --max-semi-space-size=64 (MB; V8's default is at most 16): a request's objects (the parsed
// request, the headers string, the reply) live a few milliseconds, but with the default young
// generation a scavenge comes every ~30 ms under load, and at 20,000 requests/s a stall of one
// scavenge keeps enough of them alive to be promoted; old-space collections then stretch the next
// requests and the process settles at ~50 µs of CPU per users/me instead of ~30 (README,
// "Young generation"). The same flag is in package.json's start script and the Dockerfile, which
// run this file with node (test/unit/node-flags.test.ts keeps the three alike); it costs ~80 MB of
// resident memory per process.
// The package's command: runs the compiled CLI. A packed package ships dist/; in a checkout
// `npm install` builds it (the prepare script), and `npm run build` rebuilds it after a change.
try {
  await import('../dist/main.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('/dist/main.js')) throw err;
  console.error('survey-service: dist/main.js is missing: run `npm run build` (npm install does it) first.');
  process.exit(1);
}
