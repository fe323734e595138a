#!/usr/bin/env node
// Is this machine steady enough to decide a ratio target? Runs a fixed piece of JavaScript (JSON out
// and back, a Map: the kind of work a request does) on the bench's server core for a while, in
// blocks of 1.5 s, and prints how many rounds each block did and the spread. The bench's ratios
// hold the machine's speed constant only as far as the floor and the service slow down alike; on a
// host whose speed moves within seconds (a shared virtual machine) the service moved more than the
// floor (docs/performance.md). On a quiet machine the blocks differ by a few per cent.
// Usage: node bench/steady.js [--seconds 30]  (BENCH_SERVER_CPUS as bench/run.js; needs taskset)
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '30' }, child: { type: 'boolean', default: false } },
});
const seconds = Number(args.seconds);

if (!args.child) {
  const cpu = process.env.BENCH_SERVER_CPUS ?? '0';
  const self = new URL(import.meta.url).pathname;
  const r = spawnSync(
    'taskset',
    ['-c', cpu, process.execPath, self, '--child', '--seconds', String(seconds)],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`steady: ${r.stderr}`);
  const blocks = r.stdout.trim().split(' ').map(Number);
  const min = Math.min(...blocks);
  const max = Math.max(...blocks);
  process.stdout.write(
    `rounds per 1.5 s on CPU ${cpu}: ${blocks.join(' ')}\nspread (max ÷ min): ${(max / min).toFixed(2)}\n`,
  );
} else {
  const questions = Array.from({ length: 2000 }, (_, i) => ({
    id: String(i),
    title: `Question ${i}`,
    choices: Array.from({ length: 5 }, (_, j) => ({ id: `${i}-${j}`, text: `choice text ${j}` })),
  }));
  const blocks = [];
  // (one block more than asked: the first, while V8 compiles the loop, is left out)
  const end = Date.now() + seconds * 1000 + 1500;
  while (Date.now() < end) {
    const start = process.hrtime.bigint();
    let rounds = 0;
    while (process.hrtime.bigint() - start < 1_500_000_000n) {
      const byId = new Map(JSON.parse(JSON.stringify(questions)).map((q) => [q.id, q]));
      if (byId.size === questions.length) rounds++;
    }
    blocks.push(rounds);
  }
  process.stdout.write(blocks.slice(1).join(' '));
}
