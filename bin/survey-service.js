#!/usr/bin/env node
// The package's command: runs the compiled CLI. A packed package ships dist/; in a checkout
// `npm install` builds it (the prepare script), and `npm run build` rebuilds it after a change.
try {
  await import('../dist/main.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('/dist/main.js')) throw err;
  console.error('survey-service: dist/main.js is missing: run `npm run build` (npm install does it) first.');
  process.exit(1);
}
