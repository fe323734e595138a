// Graceful shutdown of a long-running verb (serve, worker): the first SIGTERM or SIGINT stops
// taking new work and waits for work in flight (requests, a delivery round) up to
// SHUTDOWN_TIMEOUT_MS, then exits 0; a second signal, or the time limit, exits 1 at once. Work cut
// off that way is not lost: its rows were never acknowledged or its claim simply expires.
import type { Deps } from '../context.js';

export function exitGracefully(deps: Deps, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      deps.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    const timeoutMs = deps.config.shutdownTimeoutMs;
    deps.log.info({ signal, timeoutMs }, 'shutting down: finishing work in flight');
    setTimeout(() => {
      deps.log.error({ timeoutMs }, 'shutdown timed out: exiting with work unfinished');
      process.exit(1);
    }, timeoutMs).unref();
    stop().then(
      () => {
        deps.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        deps.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
