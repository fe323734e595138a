// The outbox worker on its own: `survey-service worker` (webhook deliveries and emails).
import { loadConfig } from '../config.js';
import { createDeps } from '../context.js';
import { OutboxWorker } from '../outbox/worker.js';
import { type Commands, print } from './common.js';

export const outboxCommands: Commands = (program) => {
  program
    .command('worker')
    .description('run the outbox worker alone (webhook deliveries and emails), for scale-out')
    .option('--once', 'deliver what is due now, then exit')
    .option('--json', 'with --once: print one JSON object')
    .action(async (opts: { once?: boolean; json?: boolean }) => {
      const deps = await createDeps(loadConfig());
      const worker = new OutboxWorker(deps);
      if (opts.once) {
        try {
          const done = await worker.drain();
          print(
            !!opts.json,
            { ...done },
            `fanned out ${done.events} event(s), attempted ${done.deliveries} delivery(ies), ${done.emails} email(s)`,
          );
        } finally {
          await worker.stop();
          await deps.db.close();
        }
        return;
      }
      const stop = async () => {
        await worker.stop();
        await deps.db.close();
        process.exit(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      worker.start();
      process.stdout.write(`survey-service worker running (${deps.db.dialect})\n`);
    });
};
