// Where an import stands, read from its job row alone (what any page of any instance shows).
import type { Deps } from '../../context.js';
import { notFound } from '../../platform/errors.js';
import type { Skipped } from './design.js';
import { type Cursor, emptyCursor, type ImportJob, isLive, ownerJob, ownerJobs } from './jobs.js';
import { PHASES, type Progress, progressOf } from './progress.js';

export interface ImportStatus {
  id: string;
  sourceUrl: string;
  state: string;
  /** A server process runs it, or waits for the budget to renew to resume it. */
  live: boolean;
  progress: Progress;
  skipped: Skipped[];
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

async function statusOf(deps: Deps, job: ImportJob): Promise<ImportStatus> {
  const now = deps.clock.now();
  const cursor: Cursor = { ...emptyCursor(), ...JSON.parse(job.cursor) };
  const totals = { surveys: 0, responses: 0, contacts: 0, ...JSON.parse(job.totals) };
  const here = await deps.db.kysely
    .selectFrom('import_ids')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .where('kind', '=', 'response')
    .where('source_stamp', '<>', '')
    .executeTakeFirstOrThrow();
  const phase = job.state === 'done' ? 'done' : (PHASES.find((p) => !cursor.done.includes(p)) ?? 'done');
  return {
    id: job.id,
    sourceUrl: job.source_url,
    state: job.state,
    live: isLive(job, now),
    progress: progressOf(job, phase, JSON.parse(job.counts), totals, Number(here.n), 0, now),
    skipped: JSON.parse(job.skipped),
    lastError: job.last_error,
    createdAt: job.created_at,
    updatedAt: job.updated_at,
  };
}

/** The owner's imports, newest first. */
export async function listImports(deps: Deps, ownerId: string): Promise<ImportStatus[]> {
  return Promise.all((await ownerJobs(deps, ownerId)).map((j) => statusOf(deps, j)));
}

/** One of the owner's imports (another account's is not found). */
export async function importStatus(deps: Deps, ownerId: string, jobId: string): Promise<ImportStatus> {
  const job = await ownerJob(deps, ownerId, jobId);
  if (!job) throw notFound('Import');
  return statusOf(deps, job);
}
