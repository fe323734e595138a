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
