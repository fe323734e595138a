// Stall tracer for the bench's service (docs/performance.md, "The tail"). Load it into the run:
//   NODE_OPTIONS="--import ./bench/trace-stalls.mjs" npm run bench -- --only surveys_list
// In the `serve` process only, it writes to $TRACE_DIR (default the OS temp dir)/stalls-<pid>.log,
// each line starting with milliseconds since start:
// - `req`: each second, the in-process latency of the requests answered (from the 'request' event
//   to the response's 'finish'): count, mean, p50, p99, max;
// - `gap`: the event loop did not turn for more than 25 ms, with the CPU time the process (all its
//   threads) and its main thread used meanwhile: CPU near the gap is work in the process, CPU near
//   zero is time it was not running;
// - `gc`: main-thread GC pauses over 2 ms (kind 1 scavenge, 4 mark-compact, 8 incremental);
// - `threads`: each second, CPU per thread (V8's helper threads share the pinned core).
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram, PerformanceObserver, performance } from 'node:perf_hooks';

if (process.argv.includes('serve')) {
  const file = join(process.env.TRACE_DIR ?? tmpdir(), `stalls-${process.pid}.log`);
  const t0 = performance.now();
  const log = (s) => appendFileSync(file, `${(performance.now() - t0).toFixed(1)} ${s}\n`);
  const ticks = (task) => {
    const f = readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  const threads = () => {
    const out = {};
    for (const t of readdirSync('/proc/self/task'))
      try {
        out[t] = ticks(t);
      } catch {}
    return out;
  };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let lastMain = ticks(process.pid);
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const main = ticks(process.pid);
    if (now - last > 30)
      log(
        `gap ${(now - last - 5).toFixed(1)}ms cpu ${((cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000).toFixed(1)}ms main ${main - lastMain}ms`,
      );
    last = now;
    lastCpu = cpu;
    lastMain = main;
  }, 5).unref();
  let lastThreads = threads();
  const lat = createHistogram();
  setInterval(() => {
    const now = threads();
    const used = Object.entries(now)
      .map(([t, v]) => `${t}=${v - (lastThreads[t] ?? 0)}ms`)
      .join(' ');
    lastThreads = now;
    log(`threads ${used}`);
    if (lat.count > 0)
      log(
        `req n=${lat.count} mean=${(lat.mean / 1e6).toFixed(2)} p50=${(lat.percentile(50) / 1e6).toFixed(2)} p99=${(lat.percentile(99) / 1e6).toFixed(2)} max=${(lat.max / 1e6).toFixed(1)}`,
      );
    lat.reset();
  }, 1000).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 2) log(`gc kind=${e.detail?.kind} ${e.duration.toFixed(1)}ms`);
  }).observe({ entryTypes: ['gc'] });
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const res = args[1];
      const start = process.hrtime.bigint();
      res.once('finish', () => lat.record(Number(process.hrtime.bigint() - start) || 1));
    }
    return emit.call(this, event, ...args);
  };
}
