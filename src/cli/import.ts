// `survey-service import`: moves an account in from SurveyMonkey (or another instance of this
// service) through the source's public API, within a daily request budget. Running the same
// command again resumes a paused import, and after a finished one copies only what is new or
// changed. Exit codes: 0 done, 75 (EX_TEMPFAIL) paused until the budget renews, 1 failed.
import { DEFAULT_DAILY_BUDGET } from '../domain/import/budget.js';
import type { ImportResult, Progress } from '../domain/import/importer.js';
import { type Commands, print, wholeNumber, withDeps } from './common.js';

/** The domain the import verb calls, loaded when it runs. */
const domain = async () => ({
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/import/importer.js')),
});

/** Exit code of a run that stopped because the day's budget is spent (sysexits EX_TEMPFAIL). */
export const PAUSED_EXIT = 75;

interface ImportCliOptions {
  from: string;
  token?: string;
  owner: string;
  dailyBudget: number;
  dryRun?: boolean;
  json?: boolean;
}

const duration = (s: number) => {
  if (s <= 0) return 'today';
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.ceil((s % 3600) / 60);
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
};

function bar(done: number, total: number, width = 20): string {
  const f = total > 0 ? Math.min(1, done / total) : 1;
  const n = Math.round(f * width);
  return `[${'#'.repeat(n)}${'.'.repeat(width - n)}] ${Math.floor(f * 100)}%`;
}

export function progressLine(p: Progress): string {
  const c = p.copied;
  return [
    `import ${p.phase} ${bar(p.responsesHere, p.totals.responses)}`,
    `responses ${p.responsesHere}/${p.totals.responses}`,
    `surveys ${c.surveys ?? 0}/${p.totals.surveys}`,
    `contacts ${c.contacts ?? 0}/${p.totals.contacts}`,
    `requests ${p.requestsToday}/${p.dailyBudget} today`,
    `ETA ${duration(p.etaSeconds)} at ${p.dailyBudget}/day`,
  ].join(' | ');
}

function reportText(r: ImportResult): string {
  const lines = [
    r.state === 'paused'
      ? `paused: the daily budget is spent; run the same command again after ${r.resumeAt} to continue`
      : 'done: the import is complete; running it again copies only what is new or changed',
    `copied by this run: ${
      Object.entries(r.copied)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'nothing new'
    }`,
    `requests: ${r.requestsTotal} in all, ${r.responsesCopied} responses here, ${
      r.requestsPerResponse === null ? 'n/a' : r.requestsPerResponse.toFixed(3)
    } requests per response copied`,
  ];
  if (r.skipped.length) {
    lines.push(`not copied (${r.skipped.length}):`);
    for (const s of r.skipped) lines.push(`  - ${s.kind} "${s.name}": ${s.reason}`);
  }
  return lines.join('\n');
}

export const importCommands: Commands = (program) => {
  program
    .command('import')
    .description(
      'copy an account from SurveyMonkey (or another Survey Service) through its API; run again to resume (exit 75 = paused until the daily budget renews)',
    )
    .requiredOption('--from <url>', 'the source API, e.g. https://api.surveymonkey.com')
    .option('--token <token>', 'an access token of the source account (or set SURVEY_IMPORT_TOKEN)')
    .requiredOption('--owner <username>', 'the local account to copy into')
    .option(
      '--daily-budget <n>',
      `requests a day to spend on the source (its draft apps get ${DEFAULT_DAILY_BUDGET})`,
      wholeNumber,
      DEFAULT_DAILY_BUDGET,
    )
    .option('--dry-run', 'print what would be copied and the requests it needs, copy nothing')
    .option('--json', 'print one JSON object')
    .action(async (opts: ImportCliOptions) => {
      // The token is read from the environment when not given, so it need not appear in `ps`.
      const token = opts.token ?? process.env.SURVEY_IMPORT_TOKEN;
      if (!token) throw new Error('give --token or set SURVEY_IMPORT_TOKEN');
      if (opts.dailyBudget < 1) throw new Error('--daily-budget must be at least 1');
      await withDeps('import', async (deps) => {
        const { requireUser, planImport, runImport } = await domain();
        const owner = await requireUser(deps, opts.owner);
        const base = { owner, from: opts.from, token, dailyBudget: opts.dailyBudget };
        if (opts.dryRun) {
          const plan = await planImport(base);
          const { days } = plan;
          print(
            !!opts.json,
            { dry_run: true, ...plan },
            [
              `would copy: ${plan.surveys} surveys, ${plan.responses} responses, ${plan.folders} folders, ${plan.contacts} contacts, ${plan.contactLists} contact lists`,
              `requests needed: about ${plan.requests} (${days} day(s) at ${opts.dailyBudget}/day); this dry run made ${plan.requestsMade}`,
            ].join('\n'),
          );
          return;
        }
        const tty = process.stderr.isTTY;
        let last = 0;
        const result = await runImport(deps, {
          ...base,
          onProgress: (p) => {
            const now = Date.now();
            if (now - last < 250) return;
            last = now;
            process.stderr.write(tty ? `\r\x1b[2K${progressLine(p)}` : `${progressLine(p)}\n`);
          },
        });
        process.stderr.write(`${tty ? '\r\x1b[2K' : ''}${progressLine(result.progress)}\n`);
        print(
          !!opts.json,
          {
            state: result.state,
            resume_at: result.resumeAt ?? null,
            job_id: result.jobId,
            copied: result.copied,
            copied_total: result.copiedTotal,
            skipped: result.skipped,
            requests_total: result.requestsTotal,
            responses_copied: result.responsesCopied,
            requests_per_response: result.requestsPerResponse,
          },
          reportText(result),
        );
        if (result.state === 'paused') process.exitCode = PAUSED_EXIT;
      });
    });
};
