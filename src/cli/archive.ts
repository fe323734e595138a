// `survey-service account export|import|schema`: a whole account as one zip archive (the format is
// docs/account-archive.md), written and read by the domain's archive area.
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type Commands, print, verbGroup, withDeps } from './common.js';

const domain = async () => ({
  ...(await import('../domain/archive/export.js')),
  ...(await import('../domain/archive/import.js')),
  ...(await import('../domain/accounts/users.js')),
});

export const archiveCommands: Commands = (program) => {
  const account = verbGroup(
    program,
    'account',
    "a whole account's archive (surveys, responses, files, contacts)",
  );
  account
    .command('export')
    .description('write everything of an account to a zip archive (docs/account-archive.md)')
    .requiredOption('--owner <username>', 'the account')
    .requiredOption('--to <file>', 'the zip file to write')
    .option('--json', 'print one JSON object')
    .action(async (opts: { owner: string; to: string; json?: boolean }) =>
      withDeps('account export', async (deps) => {
        const { exportAccount, requireUser } = await domain();
        const user = await requireUser(deps, opts.owner);
        const { stream, done } = await exportAccount(deps, user.id);
        try {
          await Promise.all([pipeline(stream, createWriteStream(opts.to)), done]);
        } catch (err) {
          await rm(opts.to, { force: true });
          throw err;
        }
        const manifest = await done;
        const c = manifest.counts;
        print(
          !!opts.json,
          { file: opts.to, ...c },
          `wrote ${opts.to}: ${c.surveys} surveys, ${c.responses} responses, ${c.files} files, ${c.contacts} contacts, ${c.contact_lists} lists, ${c.webhooks} webhooks, ${c.folders} folders`,
        );
      }),
    );
  account
    .command('import')
    .description('copy an account archive into an account (new ids; the archive is checked whole first)')
    .requiredOption('--owner <username>', 'the account that receives it (empty or not)')
    .requiredOption('--from <file>', 'the zip file to read')
    .option('--json', 'print one JSON object')
    .action(async (opts: { owner: string; from: string; json?: boolean }) =>
      withDeps('account import', async (deps) => {
        const { importAccount, requireUser } = await domain();
        const user = await requireUser(deps, opts.owner);
        const report = await importAccount(deps, user.id, opts.from);
        const c = report.counts;
        const lines = report.skipped.map((s) => `  not copied: ${s.kind} ${s.name}: ${s.reason}`);
        print(
          !!opts.json,
          { ...report },
          [
            `imported ${opts.from}: ${c.surveys} surveys, ${c.responses} responses, ${c.files} files, ${c.contacts} contacts, ${c.contact_lists} lists, ${c.webhooks} webhooks, ${c.folders} folders`,
            ...lines,
          ].join('\n'),
        );
      }),
    );
  account
    .command('schema')
    .description("write the archive format's JSON Schemas (one per kind of file) to a folder")
    .option('--to <dir>', 'the folder', 'docs/archive')
    .action(async (opts: { to: string }) => {
      const { FILE_KINDS, jsonSchemaOf, schemaFile } = await import('../domain/archive/format.js');
      await mkdir(opts.to, { recursive: true });
      for (const kind of FILE_KINDS)
        await writeFile(join(opts.to, schemaFile(kind)), `${JSON.stringify(jsonSchemaOf(kind), null, 2)}\n`);
      process.stdout.write(`wrote ${FILE_KINDS.length} schemas to ${opts.to}\n`);
    });
};
