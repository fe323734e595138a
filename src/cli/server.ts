// Running the service: serve, migrate and config.
import { buildApp } from '../app.js';
import { createDeps } from '../compose.js';
import { describeConfig, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest, migrationStatus } from '../db/migrate.js';
import { startMetricsServer } from '../ops/metrics-server.js';
import { exitGracefully, gracefulClose } from '../ops/shutdown.js';
import { OutboxWorker } from '../outbox/worker.js';
import { announce, logProcessEvents } from '../telemetry/logger.js';
import { type Commands, print } from './common.js';

export const serverCommands: Commands = (program) => {
  program
    .command('serve')
    .description('run the API and pages (migrates the database first) and the outbox worker')
    .option('--no-worker', 'do not run the outbox worker in this process (also OUTBOX_IN_SERVE=false)')
    .action(async (opts: { worker: boolean }) => {
      const config = loadConfig();
      const deps = await createDeps(config);
      logProcessEvents(deps.log);
      const app = await buildApp(deps);
      const worker = opts.worker && config.outbox.inServe ? new OutboxWorker(deps) : null;
      const closeApp = gracefulClose(app.server);
      let closeMetrics = gracefulClose(null);
      // Stop taking requests and deliveries together; each finishes what it holds.
      exitGracefully(deps, async () => {
        await Promise.all([closeApp(() => app.close()), worker?.stop(), closeMetrics()]);
        await deps.db.close();
      });
      await app.listen({ port: config.port, host: config.host });
      closeMetrics = gracefulClose(await startMetricsServer(deps));
      worker?.start();
      announce(
        deps.log,
        { url: `http://${config.host}:${config.port}`, dialect: deps.db.dialect },
        'listening',
      );
    });

  program
    .command('migrate')
    .description('apply pending schema migrations, then exit; --status only lists them')
    .option('--status', 'list applied and pending migrations without applying any')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean; status?: boolean }) => {
      const db = openDatabase(loadConfig().databaseUrl);
      try {
        if (opts.status) {
          const status = await migrationStatus(db);
          print(
            !!opts.json,
            { ...status },
            [
              ...status.applied.map((m) => `applied  ${m.name}  ${m.applied_at}`),
              ...status.pending.map((name) => `pending  ${name}`),
            ].join('\n'),
          );
          return;
        }
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

  program
    .command('config')
    .description('print the effective configuration (secrets masked), after checking every variable')
    .option('--json', 'print one JSON object')
    .action((opts: { json?: boolean }) => {
      const vars = describeConfig();
      print(
        !!opts.json,
        Object.fromEntries(vars.map((v) => [v.name, v.value])),
        vars
          .map((v) => `${v.name}=${v.value ?? ''}${v.source === 'default' ? '  (default)' : ''}`)
          .join('\n'),
      );
    });
};
