// Moving in from SurveyMonkey (or another instance of this service): copies an account's contact
// fields, contact lists, contacts, folders, surveys with their design, collectors and responses
// through the source's public API into a local account. Every write goes through the same domain
// functions the local API uses, so counts and rollups come out as if the data had been entered
// here; copied responses are history, though, and raise no events (no webhook, alert or activity). A run stops cleanly when the day's request budget is spent (BudgetSpent); the
// next run picks up from the cursor and the id map, and a run after a finished one copies only
// what is new or changed.
//
// This file opens a job and runs its phases in order over one RunContext (run-context.ts): the
// contacts phases (contacts.ts), folders and surveys (surveys.ts, with resync.ts and
// collectors.ts), responses (responses.ts). Status (status.ts) and the dry run (plan.ts) read
// without running.
import type { Deps } from '../../context.js';
import { restoreCollectors } from './collectors.js';
import { copyContacts, copyFields, copyLists } from './contacts.js';
import type { Skipped } from './design.js';
import { type ImportJob, jobBudget, openJob } from './jobs.js';
import { PHASES, type Progress } from './progress.js';
import { BudgetSpent, normaliseSourceUrl, RemoteApi } from './remote.js';
import { copyResponses } from './responses.js';
import { type ImportOptions, RunContext } from './run-context.js';
import { SourceUser } from './source.js';
import { copyFolders, copySurveys, sourceSurveys } from './surveys.js';

export { type DryRun, planImport } from './plan.js';
export type { Progress } from './progress.js';
export { type ImportStatus, importStatus, listImports } from './status.js';

export interface ImportResult {
  state: 'done' | 'paused' | 'stopped';
  resumeAt?: string;
  jobId: string;
  /** Created or updated by this run, per kind. */
  copied: Record<string, number>;
  /** The same over every run of the job. */
  copiedTotal: Record<string, number>;
  skipped: Skipped[];
  requestsTotal: number;
  responsesCopied: number;
  /** requests_total / responses copied (over every run of the job). */
  requestsPerResponse: number | null;
  progress: Progress;
}

/** The source account behind a token (its id keys the job). */
async function sourceAccount(api: RemoteApi): Promise<{ id: string; username: string }> {
  const me = await api.read(SourceUser, '/users/me', 'account (users/me)');
  return { id: String(me.id), username: me.username };
}

/** An import whose source account is known and whose job is open, ready to run. */
export interface OpenedImport {
  job: ImportJob;
  /** Requests made before the job was known (the probe), charged to it when the run starts. */
  spent: number;
}

/**
 * Asks the source whose token this is (one request) and opens that account's job: a wrong URL or
 * token fails here, before anything runs.
 */
export async function openImport(deps: Deps, options: ImportOptions): Promise<OpenedImport> {
  const sourceUrl = normaliseSourceUrl(options.from);
  let spent = 0;
  const probe = new RemoteApi(sourceUrl, options.token, {
    budget: { spend: async () => void spent++ },
    sleep: options.sleep,
    signal: options.signal,
  });
  const source = await sourceAccount(probe);
  const job = await openJob(deps, options.owner.id, sourceUrl, source.id, options.dailyBudget);
  return { job, spent };
}

/** The phases of the pass not done yet, in order (the surveys' listing first: both last phases use it). */
async function runPhases(run: RunContext): Promise<void> {
  await restoreCollectors(run);
  const list = await sourceSurveys(run);
  run.responsesHere = await run.responsesCopied();
  for (const phase of PHASES) {
    if (run.cursor.done.includes(phase)) continue;
    run.phase = phase;
    await run.report();
    if (phase === 'fields') await copyFields(run);
    else if (phase === 'lists') await copyLists(run);
    else if (phase === 'contacts') await copyContacts(run);
    else if (phase === 'folders') await copyFolders(run);
    else if (phase === 'surveys') await copySurveys(run, list);
    else await copyResponses(run, list);
    await run.phaseDone(phase);
  }
}

/** Runs an opened import until it is done, the day's budget is spent, or it is stopped. */
export async function continueImport(
  deps: Deps,
  opened: OpenedImport,
  options: ImportOptions,
): Promise<ImportResult> {
  const { job } = opened;
  const run = new RunContext(deps, job, options, job.source_url);
  try {
    for (let i = 0; i < opened.spent; i++) await jobBudget(deps, job).spend();
    opened.spent = 0;
    await runPhases(run);
  } catch (err) {
    if (options.signal?.aborted) {
      await run.save('stopped');
      return result(run, 'stopped');
    }
    if (!(err instanceof BudgetSpent)) {
      // The message names the source's answer or what broke, never the token (only in a header).
      await run.save('failed', err instanceof Error ? err.message.slice(0, 500) : String(err));
      throw err;
    }
    await run.save('paused');
    return result(run, 'paused', err.resumeAt.toISOString());
  }
  // A finished pass: the next run starts a new one (reading only what changed since).
  run.cursor.done = [];
  run.cursor.responsePage = {};
  run.responsesHere = await run.responsesCopied();
  run.phase = 'done';
  await run.save('done');
  return result(run, 'done');
}

/** Imports (or resumes importing) the token's account into `owner`. */
export async function runImport(deps: Deps, options: ImportOptions): Promise<ImportResult> {
  return continueImport(deps, await openImport(deps, options), options);
}

function result(run: RunContext, state: ImportResult['state'], resumeAt?: string): ImportResult {
  const responses = run.responsesHere;
  return {
    state,
    resumeAt,
    jobId: run.job.id,
    copied: { ...run.copiedNow },
    copiedTotal: { ...run.copied },
    skipped: [...run.skipped],
    requestsTotal: run.job.requests_total,
    responsesCopied: responses,
    requestsPerResponse: responses ? run.job.requests_total / responses : null,
    progress: run.progress(),
  };
}
