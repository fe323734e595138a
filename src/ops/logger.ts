// One log format for every process (serve, worker, CLI verbs that log): pino's JSON lines on
// stdout, with the service name, an ISO time and the level as a word. Nothing logs a URL, a body
// or a header: request lines carry the route pattern (URLs can hold tokens, codes and answers).
import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import type { Config } from '../config.js';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Probes and scrapes (/healthz, /readyz): not logged per request. */
    operational?: boolean;
  }
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'survey-service', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Belt and braces: should an error object carry request parts, these never print.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'password',
        '*.password',
      ],
      censor: '[redacted]',
    },
  });
}

/** Per answered request: an `info` line (request id, method, route, status, duration) when info is
 * enabled, and the request metrics when they are on. With neither, no hook is installed. */
export function installRequestObservers(app: FastifyInstance, log: Logger, metrics: Metrics | null): void {
  const logRequests = log.isLevelEnabled('info');
  if (!logRequests && !metrics) return;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics?.observeRequest(request.method, route, reply.statusCode, ms / 1000);
    if (logRequests && !request.routeOptions.config?.operational)
      log.info(
        {
          reqId: request.id,
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
