#!/usr/bin/env node
// Rewrites test/durations.json (seconds per test file, which test/helpers/sequencer.ts starts
// longest first) from Vitest JSON reports: `npx vitest run --reporter=json --outputFile=r.json`,
// then `node scripts/test-durations.js r.json [more.json ...]`. A file in several reports keeps
// its longest time; files in no report keep their old entry, and files that are gone are dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const out = new URL('../test/durations.json', import.meta.url);
const old = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
const measured = {};
for (const report of process.argv.slice(2)) {
  for (const t of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    // the path from the checkout's test/ on (a report may come from another checkout)
    const file = t.name.slice(t.name.lastIndexOf('/test/') + 1);
    const seconds = Math.round((t.endTime - t.startTime) / 100) / 10;
    measured[file] = Math.max(measured[file] ?? 0, seconds);
  }
}
const merged = { ...old, ...measured };
const kept = Object.entries(merged)
  .filter(([file]) => existsSync(new URL(`../${file}`, import.meta.url)))
  .sort(([, a], [, b]) => b - a);
writeFileSync(out, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
console.log(`test/durations.json: ${kept.length} files`);
