// Connection tracer for the bench's service (docs/performance.md, "The tail"). Load it into a run:
//   NODE_OPTIONS="--import ./bench/trace-accepts.mjs" node bench/run.js --only respondent_page
// In the `serve` process only, it writes to $TRACE_DIR (default the OS temp dir)/accepts-<pid>.log,
// each line starting with milliseconds since start: `conn N` when connection N is accepted, and for
// each answered request `req sock=N n=K handler=MS` (the K-th request on connection N, read at that
// moment, its handler's time from the 'request' event to the response's 'finish').
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.argv.includes('serve')) {
  const file = join(process.env.TRACE_DIR ?? tmpdir(), `accepts-${process.pid}.log`);
  const t0 = performance.now();
  const at = () => (performance.now() - t0).toFixed(1);
  const ids = new WeakMap();
  let sockets = 0;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'connection') {
      ids.set(args[0], { id: ++sockets, n: 0 });
      appendFileSync(file, `${at()} conn ${sockets}\n`);
    }
    if (event === 'request') {
      const [req, res] = args;
      const s = ids.get(req.socket) ?? { id: 0, n: 0 };
      const n = ++s.n;
      const read = at();
      const start = performance.now();
      res.once('finish', () =>
        appendFileSync(
          file,
          `${read} req sock=${s.id} n=${n} handler=${(performance.now() - start).toFixed(1)}\n`,
        ),
      );
    }
    return emit.call(this, event, ...args);
  };
}
