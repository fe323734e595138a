// The per-request observers: a log line and the request metrics for every answered request.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../telemetry/metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Probes (/healthz, /readyz): neither logged nor counted in the request metrics. */
    operational?: boolean;
  }
}

/** Per answered request but probes: an `info` line (request id, client address, method, route, status, duration) when info is
 * enabled, and the request metrics when they are on. With neither, no hook is installed. */
export function installRequestObservers(app: FastifyInstance, log: Logger, metrics: Metrics | null): void {
  const logRequests = log.isLevelEnabled('info');
  if (!logRequests && !metrics) return;
  app.addHook('onResponse', (request, reply, done) => {
    // Probes every few seconds from each load balancer would drown the traffic they sit beside.
    if (request.routeOptions.config?.operational) return done();
    const route = request.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics?.observeRequest(request.method, route, reply.statusCode, ms / 1000);
    if (logRequests)
      log.info(
        {
          reqId: request.id,
          // The client's address (the proxy's X-Forwarded-For when TRUST_PROXY is set).
          ip: request.ip,
          method: request.method,
          route,
          status: reply.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    done();
  });
}
