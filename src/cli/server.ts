// Running the service: serve, migrate and config.
// Each verb imports what it runs when it runs, the configuration first: a wrong variable is reported
// before the application's modules load.
import { type Commands, print } from './common.js';

export const serverCommands: Commands = (program) => {
  program
    .command('serve')
    .description('run the API and pages (migrates the database first) and the outbox worker')
    .option('--no-worker', 'do not run the outbox worker in this process (also OUTBOX_IN_SERVE=false)')
    .action(async (opts: { worker: boolean }) => {
      const config = (await import('../config.js')).loadConfig();
      const [
        { buildApp },
        { createDeps },
        { startMetricsServer },
        shutdown,
        { OutboxWorker },
        logger,
        { startCheckpoints },
      ] = await Promise.all([
        import('../app.js'),
        import('../compose.js'),
        import('../ops/metrics-server.js'),
        import('../ops/shutdown.js'),
        import('../outbox/worker.js'),
        import('../telemetry/logger.js'),
        import('../db/checkpoints.js'),
      ]);
      const { exitGracefully, gracefulClose } = shutdown;
      const { announce, logProcessEvents } = logger;
      const deps = await createDeps(config);
      logProcessEvents(deps.log);
      const app = await buildApp(deps);
      const worker = opts.worker && config.outbox.inServe ? new OutboxWorker(deps) : null;
      deps.runners.checkpoints.value = startCheckpoints(deps.db.sqlite, deps.log);
      const closeApp = gracefulClose(app.server);
      let closeMetrics = gracefulClose(null);
      // Stop taking requests and deliveries together; each finishes what it holds.
      exitGracefully(deps, async () => {
        await Promise.all([closeApp(() => app.close()), worker?.stop(), closeMetrics()]);
        await deps.runners.checkpoints.value?.stop();
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
      const { loadConfig } = await import('../config.js');
      const databaseUrl = loadConfig().databaseUrl;
      const { openDatabase } = await import('../db/database.js');
      const { migrateToLatest, migrationStatus } = await import('../db/migrate.js');
      const { VERSION } = await import('../platform/version.js');
      const db = openDatabase(databaseUrl);
      try {
        if (opts.status) {
          const status = await migrationStatus(db);
          print(
            !!opts.json,
            { ...status, version: VERSION },
            [
              `this program: ${VERSION}; database last migrated by: ${status.migrated_by ?? 'a release before 0.5.0, or none'}`,
              ...status.applied.map((m) => `applied  ${m.name}  ${m.applied_at}`),
              ...status.pending_kinds.map((m) => `pending  ${m.name}  ${m.kind}`),
              ...status.unknown.map(
                (m) => `unknown  ${m.name}  ${m.applied_at}  (applied by a newer release)`,
              ),
            ].join('\n'),
          );
          return;
        }
        const applied = await migrateToLatest(db, VERSION);
        // Accounts whose name or address is another's in look-alike spelling: said on every run
        // until they are told apart (the upgrade itself is done; they sign in as before).
        const { fillAccountKeys, describeClash } = await import('../db/account-keys.js');
        const clashes = await fillAccountKeys(db.kysely);
        print(
          !!opts.json,
          { applied, ...(clashes.length ? { account_clashes: clashes } : {}) },
          [
            applied.length ? `applied: ${applied.join(', ')}` : 'already up to date',
            ...(clashes.length
              ? [
                  `${clashes.length} account(s) share a username or address with another in a look-alike spelling:`,
                  ...clashes.map((c) => `  ${describeClash(c)}`),
                  'Rename one account of each pair (survey-service user rename), or change one address, then run survey-service migrate again.',
                ]
              : []),
          ].join('\n'),
        );
      } finally {
        await db.close();
      }
    });

  program
    .command('version')
    .description('print the version and exit (as --version; reads no configuration)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const { VERSION } = await import('../platform/version.js');
      print(!!opts.json, { version: VERSION }, VERSION);
    });

  program
    .command('config')
    .description('print the effective configuration (secrets masked), after checking every variable')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const vars = (await import('../config.js')).describeConfig();
      print(
        !!opts.json,
        Object.fromEntries(vars.map((v) => [v.name, v.value])),
        vars
          .map((v) => `${v.name}=${v.value ?? ''}${v.source === 'default' ? '  (default)' : ''}`)
          .join('\n'),
      );
    });
};
