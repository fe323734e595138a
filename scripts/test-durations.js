#!/usr/bin/env node
// Rewrites test/durations.json (seconds per test file in each pass: sqlite, postgres, scale, which
// test/helpers/sequencer.ts starts longest first) from Vitest JSON reports:
// `npx vitest run --reporter=json --outputFile=r.json`, then
// `node scripts/test-durations.js sqlite=r.json [postgres=p.json scale=s.json]`. A file in several
// reports of a pass keeps its longest time; files in no report keep their old entry, and files that
// are gone are dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const PASSES = ['sqlite', 'postgres', 'scale'];
const out = new URL('../test/durations.json', import.meta.url);
const old = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
const measured = {};
for (const arg of process.argv.slice(2)) {
  const [pass, report] = arg.split('=');
  if (!PASSES.includes(pass) || !report) {
    console.error(`usage: test-durations.js <${PASSES.join('|')}>=<vitest json report> ...`);
    process.exit(2);
  }
  measured[pass] ??= {};
  for (const t of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    // the path from the checkout's test/ on (a report may come from another checkout)
    const file = t.name.slice(t.name.lastIndexOf('/test/') + 1);
    const seconds = Math.round((t.endTime - t.startTime) / 100) / 10;
    measured[pass][file] = Math.max(measured[pass][file] ?? 0, seconds);
  }
}
const durations = {};
for (const pass of PASSES) {
  const kept = Object.entries({ ...old[pass], ...measured[pass] })
    .filter(([file]) => existsSync(new URL(`../${file}`, import.meta.url)))
    .sort(([, a], [, b]) => b - a);
  durations[pass] = Object.fromEntries(kept);
  console.log(`test/durations.json: ${pass}, ${kept.length} files`);
}
writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
