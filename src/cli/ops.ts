// Operating the service: backup, restore and erasure on request.
import { type Commands, print, withDeps } from './common.js';

/** The domain the erase verb calls, loaded when it runs. */
const domain = async () => ({
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/privacy/erase.js')),
});

export const opsCommands: Commands = (program) => {
  program
    .command('backup')
    .description(
      'copy the database to FILE while the service runs (SQLite: VACUUM INTO; PostgreSQL: pg_dump); exits non-zero when it cannot',
    )
    .requiredOption('--to <file>', 'the new backup file')
    .option('--json', 'print one JSON object')
    .action(async (opts: { to: string; json?: boolean }) => {
      const { loadConfig } = await import('../config.js');
      const { backup } = await import('../ops/backup.js');
      const r = backup(loadConfig().databaseUrl, opts.to);
      print(!!opts.json, { ...r }, `backed up to ${r.file} (${r.bytes} bytes)`);
    });
  program
    .command('restore')
    .description('restore a backup FILE into the configured database, which must be empty')
    .requiredOption('--from <file>', 'a file made by backup')
    .option('--json', 'print one JSON object')
    .action(async (opts: { from: string; json?: boolean }) => {
      const { loadConfig } = await import('../config.js');
      const { restore } = await import('../ops/backup.js');
      const r = await restore(loadConfig().databaseUrl, opts.from);
      print(!!opts.json, { ...r }, `restored ${r.file}; start the service (it applies any newer migrations)`);
    });
  program
    .command('vacuum')
    .description(
      'give the space of deleted rows back (SQLite: VACUUM, with the service stopped; --into FILE: a compact copy while it runs; PostgreSQL: VACUUM (ANALYZE))',
    )
    .option('--into <file>', 'SQLite: write a compact copy to FILE (VACUUM INTO) instead')
    .option('--json', 'print one JSON object')
    .action(async (opts: { into?: string; json?: boolean }) => {
      const { loadConfig } = await import('../config.js');
      const { vacuum } = await import('../ops/backup.js');
      const r = await vacuum(loadConfig().databaseUrl, opts.into);
      print(
        !!opts.json,
        { ...r },
        `${r.file ? `${r.file}: ` : ''}${r.bytes_before} bytes before, ${r.bytes_after} bytes after`,
      );
    });
  program
    .command('erase')
    .description(
      "erase a person: contacts, recipients, responses and emails of ADDRESS (one owner's, or everyone's)",
    )
    .requiredOption('--email <address>')
    .option('--owner <username>', "only this account's records")
    .option('--dry-run', 'report what would be erased (counts and ids) and erase nothing')
    .option('--json', 'print one JSON object')
    .action(async (opts: { email: string; owner?: string; dryRun?: boolean; json?: boolean }) =>
      withDeps('erase', async (deps) => {
        const { requireUser, erasePerson } = await domain();
        const owner = opts.owner ? await requireUser(deps, opts.owner) : undefined;
        const r = await erasePerson(deps, opts.email, owner?.id, { dryRun: opts.dryRun });
        const what = `${r.contacts} contact(s), ${r.recipients} recipient(s), ${r.responses} response(s) in ${r.surveys} survey(s) (${r.responses_by_answer} found by an answer), ${r.emails} email(s)`;
        const human = r.dry_run
          ? `would erase ${r.email}: ${what}\nresponses: ${r.ids.responses.join(' ') || '-'}`
          : `erased ${r.email}: ${what}`;
        print(!!opts.json, { ...r }, human);
      }),
    );
};
