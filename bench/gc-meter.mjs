// GC time of a process, for the bench (bench/launch-day.js loads it with NODE_OPTIONS="--import …"):
// sums the main thread's GC pauses (PerformanceObserver 'gc') and writes {ms, count, by kind} to
// $GC_METER_DIR/gc-<pid>.json every second.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

const dir = process.env.GC_METER_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const totals = { ms: 0, count: 0, kinds: {} };
  const names = { 1: 'scavenge', 2: 'minor_mark_sweep', 4: 'mark_compact', 8: 'incremental', 16: 'weak' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      totals.ms += e.duration;
      totals.count++;
      const kind = names[e.detail?.kind] ?? String(e.detail?.kind);
      totals.kinds[kind] = (totals.kinds[kind] ?? 0) + e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    writeFileSync(
      join(dir, `gc-${process.pid}.json`),
      JSON.stringify({
        argv: process.argv.slice(1).join(' '),
        ...totals,
        ms: Math.round(totals.ms),
        kinds: Object.fromEntries(Object.entries(totals.kinds).map(([k, v]) => [k, Math.round(v)])),
      }),
    );
  }, 1000).unref();
}
