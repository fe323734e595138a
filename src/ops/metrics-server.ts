// The metrics listener: GET /metrics on its own port (METRICS_PORT, loopback by default), so
// metrics never share the public port.
import { createServer, type Server } from 'node:http';
import { isIP } from 'node:net';
import type { Deps } from '../context.js';
import { isLoopbackHost } from '../platform/hosts.js';

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/**
 * Host values the metrics listener answers, with any port: loopback names, METRICS_HOST itself,
 * the names in METRICS_ALLOWED_HOSTS (a scraper in the same compose network asks for `worker:9464`)
 * and, when it listens on every address, the IP address a scraper dialled. Any other name is one a
 * web page rebound to this machine (DNS rebinding), refused like on the local-only pages.
 */
function knownHost(host: string | undefined, bound: string, allowed: readonly string[]): boolean {
  if (isLoopbackHost(host)) return true;
  const name = (host ?? '')
    .replace(/:\d{1,5}$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (name === bound.toLowerCase() || allowed.includes(name)) return true;
  return WILDCARD_ADDRESSES.has(bound) && isIP(name) !== 0;
}

/** GET /metrics on its own listener; resolves once it listens. */
export async function startMetricsServer(deps: Deps): Promise<Server | null> {
  const { port, host, allowedHosts } = deps.config.metrics;
  if (port === undefined) return null;
  deps.metrics.collectProcessMetrics();
  const server = createServer((req, res) => {
    if (
      req.method !== 'GET' ||
      req.url?.split('?')[0] !== '/metrics' ||
      !knownHost(req.headers.host, host, allowedHosts)
    ) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    deps.metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': deps.metrics.registry.contentType }).end(body),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
