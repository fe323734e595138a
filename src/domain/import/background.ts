// Imports started from the import page run in the background of the server process that took the
// form, through the same openImport/continueImport as the CLI.
//
// The token: it lives only in this process's memory, in the closure of the run, and is never
// written to the database or a log. The run keeps it while the process lives: when the day's
// budget is spent it waits for the budget to renew and goes on by itself. If the process stops
// (a restart, a deploy), the token is gone with it: the job's heartbeat goes stale and the page
// asks the owner for the token again to resume, from the stored cursor. Storing the token
// (encrypted) would let a restart resume alone, but would keep a credential to another service's
// account in our database for days; asking again after a restart is the smaller cost.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import type { Account } from '../accounts/users.js';
import { type ConvertedFile, openFileImport } from './files/import-file.js';
import {
  continueImport,
  type DryRun,
  type ImportResult,
  type OpenedImport,
  openImport,
  planImport,
} from './importer.js';
import { beat, claimJob, HEARTBEAT_HOLD_MS, ownerJob, releaseJob } from './jobs.js';
import { normaliseSourceUrl, RemoteError } from './remote.js';
import type { ImportOptions } from './run-context.js';
import { MalformedSource } from './source.js';

export interface PageImport {
  owner: Account;
  from: string;
  token: string;
  dailyBudget: number;
}

export const MAX_DAILY_BUDGET = 1_000_000;
/** The original's API: what an import starts from. */
export const DEFAULT_SOURCE = 'https://api.surveymonkey.com';
export { DEFAULT_DAILY_BUDGET } from './budget.js';

/** The source URL, if the import page may copy from it (IMPORT_PAGE_SOURCES), else a 400. */
export function pageSource(deps: Deps, from: string): string {
  let url: string;
  try {
    url = normaliseSourceUrl(from.trim());
  } catch {
    throw new ApiError(1002, 'The source must be an http(s) address, such as https://api.surveymonkey.com.');
  }
  const allowed = deps.config.importPageSources.map((o) => normaliseSourceUrl(o));
  if (!allowed.includes(url))
    throw new ApiError(
      1002,
      `This server imports from ${allowed.join(', ')} only; ask its operator to add another source (IMPORT_PAGE_SOURCES).`,
    );
  return url;
}

export function checkBudget(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_DAILY_BUDGET)
    throw new ApiError(1002, `The daily budget must be a whole number from 1 to ${MAX_DAILY_BUDGET}.`);
}

/** A source that refused, answered malformed or could not be reached, as the form's error (no token in it). */
export function sourceRefusal(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof RemoteError)
    return new ApiError(
      1002,
      err.status === 401 || err.status === 403
        ? `The source refused the token (${err.status}): check that it is an access token of the account to copy.`
        : `The source answered ${err.status}: ${err.message}`,
    );
  // Its message names what is wrong and where, never the answer of another host (none is read).
  if (err instanceof MalformedSource)
    return new ApiError(1002, `The source's answer is not what its API documents: ${err.message}.`);
  return new ApiError(1002, 'The source could not be reached: check its address.');
}

/** The import page's dry run: what would be copied and the requests it needs (starts no job). */
export async function planPageImport(deps: Deps, options: Omit<PageImport, 'owner'>): Promise<DryRun> {
  const from = pageSource(deps, options.from);
  checkBudget(options.dailyBudget);
  try {
    return await planImport({ ...options, from });
  } catch (err) {
    throw sourceRefusal(err);
  }
}

/** The process's runner (deps.runners.imports): the import page and the API start imports
 * through the same one, so a job started by either is known to both (and stopped once when the
 * server closes). */
export function importRunner(deps: Deps): ImportRunner {
  // Only this function fills the slot, always with an ImportRunner.
  const runner = deps.runners.imports.get(() => new ImportRunner(deps));
  if (runner instanceof ImportRunner) return runner;
  throw new Error('deps.runners.imports holds something other than an ImportRunner');
}

/** The background imports of one server process. */
export class ImportRunner {
  private readonly runs = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly deps: Deps) {}

  /**
   * Checks the source and the token (one request), then runs the import in the background and
   * answers its job id. A job another process (or this one) runs already is a 409.
   */
  async start(options: PageImport): Promise<string> {
    const from = pageSource(this.deps, options.from);
    checkBudget(options.dailyBudget);
    const abort = new AbortController();
    const run = { ...options, from, signal: abort.signal };
    let opened: OpenedImport;
    try {
      opened = await openImport(this.deps, run);
    } catch (err) {
      throw sourceRefusal(err);
    }
    return this.launch(opened, run, abort, options.owner.id);
  }

  /**
   * Runs the import of a converted file in the background (the file stays in this process's
   * memory while it runs) and answers its job id; importing the same file again while it runs is
   * a 409.
   */
  async startFile(owner: Account, converted: ConvertedFile): Promise<string> {
    const abort = new AbortController();
    const { opened, options } = await openFileImport(this.deps, owner, converted, { signal: abort.signal });
    return this.launch(opened, { ...options, signal: abort.signal }, abort, owner.id);
  }

  /** Claims the job and runs it in the background (started again here: the earlier run stops first). */
  private async launch(
    opened: OpenedImport,
    run: ImportOptions & { signal: AbortSignal },
    abort: AbortController,
    ownerId: string,
  ): Promise<string> {
    const id = opened.job.id;
    // Started again in this process (a new budget, say): the old run stops between two requests
    // (or stops waiting for tomorrow) and this one goes on from the cursor.
    const earlier = this.runs.get(id);
    if (earlier) {
      earlier.abort.abort(new Error('started again'));
      await earlier.done;
      // Its last save is newer than the job openImport read.
      opened.job = (await ownerJob(this.deps, ownerId, id)) ?? opened.job;
    }
    if (this.runs.has(id) || !(await claimJob(this.deps, id)))
      throw new ApiError(1026, 'This import is running already: its page shows the progress.');
    const heartbeat = setInterval(() => void beat(this.deps, id).catch(() => {}), HEARTBEAT_HOLD_MS / 4);
    heartbeat.unref();
    const done = this.loop(opened, run).finally(async () => {
      clearInterval(heartbeat);
      this.runs.delete(id);
      await releaseJob(this.deps, id).catch(() => {});
    });
    this.runs.set(id, { abort, done });
    return id;
  }

  /** Runs until done, failed or stopped, waiting out each spent day with the token in memory. */
  private async loop(opened: OpenedImport, run: ImportOptions & { signal: AbortSignal }): Promise<void> {
    for (;;) {
      let result: ImportResult;
      try {
        result = await continueImport(this.deps, opened, run);
      } catch (err) {
        // Recorded on the job (state failed, last_error) for the page. Messages name the source's
        // answer or what broke, never the token (it only ever goes into a request header).
        this.deps.log.warn(
          { importJob: opened.job.id, error: err instanceof Error ? err.message : String(err) },
          'import from the page failed',
        );
        return;
      }
      if (result.state !== 'paused' || !result.resumeAt) return;
      try {
        await sleep(Math.max(0, Date.parse(result.resumeAt) - Date.now()), undefined, { signal: run.signal });
      } catch {
        return; // stopped while waiting: the job stays paused, its page asks for the token again
      }
    }
  }

  /** Stops every run between two requests (the server is shutting down) and waits for them. */
  async stop(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const r of runs) r.abort.abort(new Error('the server is stopping'));
    await Promise.all(runs.map((r) => r.done));
  }
}
