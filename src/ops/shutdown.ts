// Graceful shutdown of a long-running verb (serve, worker): the first SIGTERM or SIGINT stops
// taking new work and waits for work in flight (requests, a delivery round) up to
// SHUTDOWN_TIMEOUT_MS, then exits 0; a second signal, or the time limit, exits 1 at once. Work cut
// off that way is not lost: its rows were never acknowledged or its claim simply expires.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

/** While a listener closes, how often connections that went idle are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * Watches a listener's connections from now on and returns how to stop it: `stopAccepting` (the
 * server's own close by default) refuses new connections, and every connection without a request
 * in flight is closed at once (an idle keep-alive one, or one a browser opened ahead and never
 * used), each busy one as soon as its answer is written, so a client holding a connection never
 * holds the exit until its keep-alive or header timeout.
 */
export function gracefulClose(server: Server | null) {
  const inFlight = new Map<Socket, number>();
  server?.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server?.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
  });
  const closeIdle = () => {
    for (const [socket, requests] of inFlight)
      if (requests === 0 && !socket.writableEnded) socket.end(() => socket.destroy());
  };
  return async (
    stopAccepting = () => new Promise<void>((resolve) => server?.close(() => resolve())),
  ): Promise<void> => {
    if (!server) return;
    const sweep = setInterval(closeIdle, IDLE_SWEEP_MS);
    try {
      const closed = stopAccepting();
      closeIdle();
      await closed;
    } finally {
      clearInterval(sweep);
    }
  };
}
