#!/usr/bin/env node
// A closed-loop load client like wrk (N keep-alive connections, each sending its next request when
// the last one's answer has arrived), which keeps every request's start time and latency, so a
// run's tail can be placed in time: the first requests of the run against the rest, the p99 of
// each second, the slowest requests and when they started.
//   node bench/timeline.js --url http://127.0.0.1:PORT/path [--connections 50] [--duration 10]
//     [--header 'cookie: …'] [--token T] [--pages N] [--warmup 0] [--first 100]
// --method and --body-file send a JSON body (the bench's POST and PATCH scenarios). --forms FILE
// posts each request as another respondent, from the lines bench/post-form-pool.lua reads (where it
// stopped onwards). --pages N walks `&page=1..N` as bench/walk-pages.lua does; --warmup S runs S
// seconds first (on the same connections) and keeps nothing of them. Prints one JSON object.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '0' },
    first: { type: 'string', default: '100' },
    header: { type: 'string', multiple: true, default: [] },
    token: { type: 'string' },
    pages: { type: 'string' },
    method: { type: 'string', default: 'GET' },
    'body-file': { type: 'string' },
    forms: { type: 'string' },
  },
});

const url = new URL(args.url);
const connections = Number(args.connections);
const headers = Object.fromEntries(
  args.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]),
);
if (args.token) headers.authorization = `bearer ${args.token}`;
const body = args['body-file'] ? readFileSync(args['body-file']) : undefined;
if (body) {
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(body.length);
}
// The respondent forms: "<cookie>\t<form body>" per line, each posted once.
const forms = args.forms
  ? readFileSync(args.forms, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
  : [];
const formsAt = `${args.forms}.at`;
let form = args.forms && existsSync(formsAt) ? Number(readFileSync(formsAt, 'utf8')) + 100 : 0;
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const pages = args.pages ? Number(args.pages) : 0;
let page = 0;

function once() {
  const path = pages
    ? `${url.pathname}${url.search}&page=${(page++ % pages) + 1}`
    : url.pathname + url.search;
  const [cookie, posted] = forms.length ? forms[form++ % forms.length] : [];
  const sent = posted === undefined ? body : Buffer.from(posted);
  const own =
    posted === undefined
      ? headers
      : {
          ...headers,
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(sent.length),
        };
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: forms.length ? 'POST' : args.method,
        headers: own,
        agent,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0));
    req.end(sent);
  });
}

async function run(seconds, keep) {
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const status = await once();
      keep?.push({ at: start - t0, ms: performance.now() - start, status });
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const r1 = (n) => Math.round(n * 10) / 10;
function stats(list) {
  const ms = list.map((r) => r.ms).sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length);
  return {
    n: ms.length,
    mean: r1(mean),
    p50: r1(pct(ms, 50)),
    p99: r1(pct(ms, 99)),
    max: r1(ms.at(-1) ?? NaN),
  };
}

if (Number(args.warmup) > 0) await run(Number(args.warmup));
const rows = [];
await run(Number(args.duration), rows);
agent.destroy();
if (args.forms) writeFileSync(formsAt, String(form));
rows.sort((a, b) => a.at - b.at);
const first = Number(args.first);
const perSecond = [];
for (let s = 0; s < Number(args.duration); s++) {
  const inSecond = rows.filter((r) => r.at >= s * 1000 && r.at < (s + 1) * 1000);
  if (inSecond.length) perSecond.push({ second: s, ...stats(inSecond) });
}
const all = stats(rows);
console.log(
  JSON.stringify({
    all: { ...all, p99_over_mean: r1(all.p99 / all.mean) },
    first_ms: r1(rows[0]?.ms ?? NaN),
    first: stats(rows.slice(0, first)),
    rest: stats(rows.slice(first)),
    non_2xx: rows.filter((r) => r.status < 200 || r.status >= 400).length,
    per_second: perSecond,
    slowest: [...rows]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10)
      .map((r) => ({ at: r1(r.at), ms: r1(r.ms) })),
  }),
);
