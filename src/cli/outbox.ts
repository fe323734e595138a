// The outbox worker on its own: `survey-service worker` (webhook deliveries and emails).
// It imports what it runs when it runs, the configuration first.
import { type Commands, print } from './common.js';

export const outboxCommands: Commands = (program) => {
  program
    .command('worker')
    .description('run the outbox worker alone (webhook deliveries and emails), for scale-out')
    .option('--once', 'deliver what is due now and prune past retention, then exit')
    .option('--json', 'with --once: print one JSON object')
    .action(async (opts: { once?: boolean; json?: boolean }) => {
      const config = (await import('../config.js')).loadConfig();
      const [
        { createDeps },
        { startMetricsServer },
        shutdown,
        { pruneOnce },
        { OutboxWorker },
        logger,
        { startCheckpoints },
      ] = await Promise.all([
        import('../compose.js'),
        import('../ops/metrics-server.js'),
        import('../ops/shutdown.js'),
        import('../outbox/retention.js'),
        import('../outbox/worker.js'),
        import('../telemetry/logger.js'),
        import('../db/checkpoints.js'),
      ]);
      const { exitGracefully, gracefulClose } = shutdown;
      const { announce, logProcessEvents } = logger;
      const deps = await createDeps(config);
      const worker = new OutboxWorker(deps);
      if (opts.once) {
        try {
          const done = await worker.drain();
          const pruned = await pruneOnce(deps);
          print(
            !!opts.json,
            { ...done, pruned },
            `fanned out ${done.events} event(s), attempted ${done.deliveries} delivery(ies), ${done.emails} email(s); pruned ${JSON.stringify(pruned)}`,
          );
        } finally {
          await worker.stop();
          await deps.db.close();
        }
        return;
      }
      logProcessEvents(deps.log);
      deps.runners.checkpoints.value = startCheckpoints(deps.db.sqlite, deps.log);
      let closeMetrics = gracefulClose(null);
      exitGracefully(deps, async () => {
        await Promise.all([worker.stop(), closeMetrics()]);
        await deps.runners.checkpoints.value?.stop();
        await deps.db.close();
      });
      closeMetrics = gracefulClose(await startMetricsServer(deps));
      worker.start();
      announce(deps.log, { dialect: deps.db.dialect }, 'worker running');
    });
};
