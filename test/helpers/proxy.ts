// A small round-robin HTTP reverse proxy, as a load balancer in front of several server processes.
// It forwards the Host header unchanged (so links, regions and cookies behave as without it) and
// records which upstream served each request, so a test can prove every process took traffic.
// With `healthPath` (the service's /readyz) it polls every upstream, as a load balancer's health
// check does, and sends traffic only to those that answered 200 last time.
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestProxy {
  url: string;
  /** For each request in arrival order, the index of the upstream it was sent to. */
  served: number[];
  /** How many requests each upstream served. */
  counts(): number[];
  /** Which upstreams are in rotation (all, without health checks). */
  healthy(): boolean[];
  close(): Promise<void>;
}

// Hop-by-hop headers belong to one connection and are not forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
}

export interface ProxyOptions {
  port?: number;
  /** Poll this path on every upstream; only those answering 200 take traffic. */
  healthPath?: string;
  healthIntervalMs?: number;
}

export async function startProxy(upstreams: string[], options: ProxyOptions = {}): Promise<TestProxy> {
  const { port = 0, healthPath, healthIntervalMs = 200 } = options;
  const targets = upstreams.map((u) => ({
    url: new URL(u),
    agent: new Agent({ keepAlive: true, timeout: 60_000 }),
    healthy: true,
  }));
  const served: number[] = [];
  let next = 0;
  /** The next upstream in rotation (the next one at all when none is healthy). */
  const pick = () => {
    for (let tried = 0; tried < targets.length; tried++) {
      const index = (next + tried) % targets.length;
      if (targets[index].healthy) {
        next = (index + 1) % targets.length;
        return index;
      }
    }
    const index = next;
    next = (next + 1) % targets.length;
    return index;
  };
  const check = async () => {
    await Promise.all(
      targets.map(async (t) => {
        try {
          const res = await fetch(new URL(healthPath!, t.url), { signal: AbortSignal.timeout(2000) });
          await res.arrayBuffer();
          t.healthy = res.status === 200;
        } catch {
          t.healthy = false;
        }
      }),
    );
  };
  let timer: NodeJS.Timeout | undefined;
  if (healthPath) {
    await check();
    const loop = () => {
      timer = setTimeout(() => void check().finally(() => timer && loop()), healthIntervalMs);
    };
    loop();
  }
  const server = createServer((req, res) => {
    const index = pick();
    served.push(index);
    const { url, agent } = targets[index];
    const upstream = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.headers),
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, endToEnd(up.headers));
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      // The upstream died or refused: answer as a gateway would, unless the answer had begun.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    // A client that goes away mid-request takes the upstream request with it, as a load balancer's does.
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  });
  // Idle client connections outlive the clients' own keep-alive (5 s in Node), as Fastify's do, so
  // a client never reuses a connection the proxy is closing; upstream ones close before Fastify's 72 s.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    counts: () => targets.map((_, i) => served.filter((s) => s === i).length),
    healthy: () => targets.map((t) => t.healthy),
    close: async () => {
      clearTimeout(timer);
      timer = undefined;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const t of targets) t.agent.destroy();
    },
  };
}
