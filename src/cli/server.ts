// Running the service: serve and migrate.
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDeps } from '../context.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { OutboxWorker } from '../outbox/worker.js';
import { type Commands, print } from './common.js';

export const serverCommands: Commands = (program) => {
  program
    .command('serve')
    .description('run the API and pages (migrates the database first) and the outbox worker')
    .option('--no-worker', 'do not run the outbox worker in this process (also OUTBOX_IN_SERVE=false)')
    .action(async (opts: { worker: boolean }) => {
      const config = loadConfig();
      const deps = await createDeps(config);
      const app = await buildApp(deps);
      const worker = opts.worker && config.outbox.inServe ? new OutboxWorker(deps) : null;
      const stop = async () => {
        await worker?.stop();
        await app.close();
        await deps.db.close();
        process.exit(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      await app.listen({ port: config.port, host: config.host });
      worker?.start();
      process.stdout.write(
        `survey-service listening on http://${config.host}:${config.port} (${deps.db.dialect})\n`,
      );
    });

  program
    .command('migrate')
    .description('apply pending schema migrations, then exit')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const db = openDatabase(loadConfig().databaseUrl);
      try {
        const applied = await migrateToLatest(db);
        print(
          !!opts.json,
          { applied },
          applied.length ? `applied: ${applied.join(', ')}` : 'already up to date',
        );
      } finally {
        await db.close();
      }
    });
};
