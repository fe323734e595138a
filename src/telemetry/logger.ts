// One log format for every process (serve, worker, CLI verbs that log): pino's JSON lines on
// stdout, with the service name, an ISO time and the level as a word. Nothing logs a URL, a body
// or a header: request lines (http/observe.ts) carry the route pattern (URLs can hold tokens,
// codes and answers).
import { type Logger, pino } from 'pino';
import type { Config } from '../config.js';

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

/**
 * A long-running verb's start line (`listening`, `worker running`): written at any LOG_LEVEL, as
 * supervisors and scripts wait for it, and as JSON like every other line.
 */
export function announce(log: Logger, fields: Record<string, unknown>, msg: string): void {
  (log.isLevelEnabled('info') ? log : log.child({}, { level: 'info' })).info(fields, msg);
}

/**
 * For serve and worker: what Node itself would print as plain text goes through the logger
 * instead, so every line of the stream is JSON: process warnings (Fastify's and other libraries'
 * deprecation notices among them), and the error that ends the process.
 */
export function logProcessEvents(log: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (w) =>
    log.warn(
      { warning: { name: w.name, code: 'code' in w ? w.code : undefined, message: w.message } },
      'process warning',
    ),
  );
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught error: exiting');
    process.exit(1);
  });
}
