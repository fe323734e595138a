// `survey-service import-file`: imports a survey exported by another tool (LimeSurvey .lss/.lsa,
// and the tools registered in src/domain/import/files/converters.ts) into a local account, with
// its responses, through the same importer as `import`. Importing the same file again resumes it
// or copies nothing new. Exit codes: 0 done, 1 refused or failed (the message says why).
import { readFile, stat } from 'node:fs/promises';
import { type Commands, print, withDeps } from './common.js';
import { progressLine } from './import.js';

const domain = async () => ({
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/import/files/import-file.js')),
  ...(await import('../domain/import/files/fetch.js')),
});

interface ImportFileOptions {
  from: string;
  file?: string;
  responses?: string;
  formId?: string;
  token?: string;
  apiUrl?: string;
  owner: string;
  dryRun?: boolean;
  json?: boolean;
}

export const importFileCommands: Commands = (program) => {
  program
    .command('import-file')
    .description(
      "import a survey and its responses from another tool's export file (LimeSurvey .lss or .lsa); run again to resume",
    )
    .requiredOption(
      '--from <tool>',
      'the tool that exported the file: limesurvey, typeform, google-forms or formbricks',
    )
    .option('--file <path>', 'the survey file (LimeSurvey: a survey structure .lss or a survey archive .lsa)')
    .option(
      '--responses <path>',
      'the responses file, for tools that export responses apart (LimeSurvey: .lsr)',
    )
    .option(
      '--form-id <id>',
      'instead of files: fetch this form and its responses from the API (typeform, google-forms, formbricks)',
    )
    .option('--token <token>', 'the API token for --form-id (or SURVEY_IMPORT_TOKEN)')
    .option(
      '--api-url <url>',
      "the API's base URL for --form-id (default: the tool's; a self-hosted Formbricks: its own)",
    )
    .requiredOption('--owner <username>', 'the local account to import into')
    .option('--dry-run', 'print what would be imported and what would not, write nothing')
    .option('--json', 'print one JSON object')
    .action(async (opts: ImportFileOptions) => {
      await withDeps('import-file', async (deps) => {
        const { requireUser, checkFileSize, planFileImport, runFileImport, fetchExport } = await domain();
        const owner = await requireUser(deps, opts.owner);
        let input: { tool: string; file: Buffer; responses?: Buffer };
        if (opts.formId) {
          const token = opts.token ?? process.env.SURVEY_IMPORT_TOKEN;
          if (!token) throw new Error('--form-id needs --token (or SURVEY_IMPORT_TOKEN)');
          input = {
            tool: opts.from,
            ...(await fetchExport({ tool: opts.from, token, formId: opts.formId, apiUrl: opts.apiUrl })),
          };
        } else {
          if (!opts.file) throw new Error('give --file (or --form-id with --token)');
          // Sizes are checked before a byte is read.
          checkFileSize(deps, (await stat(opts.file)).size);
          if (opts.responses) checkFileSize(deps, (await stat(opts.responses)).size, 'responses file');
          input = {
            tool: opts.from,
            file: await readFile(opts.file),
            responses: opts.responses ? await readFile(opts.responses) : undefined,
          };
        }
        const notCarried = (s: Array<{ kind: string; name: string; reason: string }>) =>
          s.length
            ? [`not carried over (${s.length}):`, ...s.map((x) => `  - ${x.kind} "${x.name}": ${x.reason}`)]
            : [];
        if (opts.dryRun) {
          const plan = await planFileImport(deps, input);
          print(
            !!opts.json,
            { dry_run: true, ...plan },
            [
              `would import "${plan.title}": ${plan.pages} pages, ${plan.questions} questions, ${plan.responses} responses`,
              ...notCarried(plan.skipped),
            ].join('\n'),
          );
          return;
        }
        const result = await runFileImport(deps, owner, input, {
          onProgress: (p) =>
            process.stderr.write(`${progressLine(p).split(' | ').slice(0, 3).join(' | ')}\n`),
        });
        print(
          !!opts.json,
          {
            state: result.state,
            job_id: result.jobId,
            survey_id: result.surveyId,
            copied: result.copied,
            copied_total: result.copiedTotal,
            skipped: result.skipped,
            responses_copied: result.responsesCopied,
          },
          [
            `${result.state}: survey ${result.surveyId ?? '(not created)'}; copied by this run: ${
              Object.entries(result.copied)
                .filter(([, n]) => n > 0)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ') || 'nothing new'
            }`,
            ...notCarried(result.skipped),
          ].join('\n'),
        );
        if (result.state !== 'done') process.exitCode = 1;
      });
    });
};
