// Import jobs and their id map. A job is found again by (owner, source URL, source account), so
// running the same command again resumes it; the map (job, kind, source id) -> local id is what
// makes every run idempotent: an id is reserved and recorded BEFORE the local copy is written with
// it, so a run killed between the two finds the record and writes the copy under the same id.
import type { Deps } from '../../context.js';
import type { ImportJobsTable } from '../../db/tables/imports.js';
import { BudgetSpent, type RequestBudget } from './remote.js';

export type ImportJob = ImportJobsTable;
export type Kind =
  | 'folder'
  | 'survey'
  | 'page'
  | 'question'
  | 'answer'
  | 'collector'
  | 'response'
  | 'list'
  | 'contact';

/** Where a run stands: the phases done in this pass and the responses pass of each survey. */
export interface Cursor {
  done: string[];
  /** Source survey id -> the bulk page to read next in this pass. */
  responsePage: Record<string, number>;
  /** Source survey id -> the date_modified the next pass reads from. */
  responsesSince: Record<string, string>;
  /** Local collector id -> its settings while it is reopened to take imported responses. */
  reopened: Record<
    string,
    { status: string; close_date: string | null; response_limit: number | null; date_modified: string }
  >;
}

export const emptyCursor = (): Cursor => ({ done: [], responsePage: {}, responsesSince: {}, reopened: {} });

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);
export const nextUtcMidnight = (d: Date) =>
  new Date(`${utcDay(new Date(d.getTime() + 86_400_000))}T00:00:00Z`);

export async function openJob(
  deps: Deps,
  ownerId: string,
  sourceUrl: string,
  sourceUserId: string,
  dailyBudget: number,
): Promise<ImportJob> {
  const now = deps.clock.now();
  const k = deps.db.kysely;
  await k
    .insertInto('import_jobs')
    .values({
      id: await deps.ids.one(),
      owner_id: ownerId,
      source_url: sourceUrl,
      source_user_id: sourceUserId,
      state: 'running',
      cursor: JSON.stringify(emptyCursor()),
      counts: '{}',
      skipped: '[]',
      totals: '{}',
      requests_total: 0,
      budget_day: utcDay(now),
      budget_used: 0,
      daily_budget: dailyBudget,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['owner_id', 'source_url', 'source_user_id']).doNothing())
    .execute();
  // The budget given on this run applies from now on (an operator may raise or lower it).
  await k
    .updateTable('import_jobs')
    .set({ daily_budget: dailyBudget, state: 'running', last_error: null, updated_at: now.toISOString() })
    .where('owner_id', '=', ownerId)
    .where('source_url', '=', sourceUrl)
    .where('source_user_id', '=', sourceUserId)
    .execute();
  return k
    .selectFrom('import_jobs')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('source_url', '=', sourceUrl)
    .where('source_user_id', '=', sourceUserId)
    .executeTakeFirstOrThrow();
}

/** The requests this job may still make today (0 when spent). */
export function remainingToday(
  job: Pick<ImportJob, 'budget_day' | 'budget_used' | 'daily_budget'>,
  now: Date,
) {
  const used = job.budget_day === utcDay(now) ? job.budget_used : 0;
  return Math.max(0, job.daily_budget - used);
}

/**
 * The job's budget: one atomic UPDATE per request that both rolls the day over and refuses past
 * the limit, so two runs of one job at once cannot overspend it.
 */
export function jobBudget(deps: Deps, job: ImportJob): RequestBudget {
  return {
    spend: async () => {
      const now = deps.clock.now();
      const today = utcDay(now);
      const res = await deps.db.kysely
        .updateTable('import_jobs')
        .set((eb) => ({
          budget_used: eb
            .case()
            .when('budget_day', '=', today)
            .then(eb('budget_used', '+', 1))
            .else(1)
            .end(),
          budget_day: today,
          requests_total: eb('requests_total', '+', 1),
        }))
        .where('id', '=', job.id)
        .where((eb) => eb.or([eb('budget_day', '<>', today), eb('budget_used', '<', eb.ref('daily_budget'))]))
        .returning(['budget_used', 'budget_day', 'requests_total'])
        .executeTakeFirst();
      if (!res) throw new BudgetSpent(nextUtcMidnight(now));
      job.budget_used = Number(res.budget_used);
      job.budget_day = res.budget_day;
      job.requests_total = Number(res.requests_total);
    },
  };
}

export async function saveJob(
  deps: Deps,
  job: ImportJob,
  changes: Partial<Pick<ImportJob, 'state' | 'cursor' | 'counts' | 'skipped' | 'totals' | 'last_error'>>,
): Promise<void> {
  Object.assign(job, changes);
  await deps.db.kysely
    .updateTable('import_jobs')
    .set({ ...changes, updated_at: deps.clock.now().toISOString() })
    .where('id', '=', job.id)
    .execute();
}

export interface Mapped {
  local_id: string;
  source_stamp: string;
}

/** The local ids (and the stamps copied) of these source ids of one kind. */
export async function mapped(
  deps: Deps,
  jobId: string,
  kind: Kind,
  sourceIds: string[],
): Promise<Map<string, Mapped>> {
  const out = new Map<string, Mapped>();
  for (let i = 0; i < sourceIds.length; i += 500) {
    const rows = await deps.db.kysely
      .selectFrom('import_ids')
      .select(['source_id', 'local_id', 'source_stamp'])
      .where('job_id', '=', jobId)
      .where('kind', '=', kind)
      .where('source_id', 'in', sourceIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.source_id, { local_id: r.local_id, source_stamp: r.source_stamp });
  }
  return out;
}

/** Every mapping of one kind, source id -> local id. */
export async function allMapped(deps: Deps, jobId: string, kind: Kind): Promise<Map<string, string>> {
  const rows = await deps.db.kysely
    .selectFrom('import_ids')
    .select(['source_id', 'local_id'])
    .where('job_id', '=', jobId)
    .where('kind', '=', kind)
    .execute();
  return new Map(rows.map((r) => [r.source_id, r.local_id]));
}

/**
 * Records source -> local for each pair not yet recorded (the unique key makes a second recording a
 * no-op) and answers the local id each source id is recorded with.
 */
export async function record(
  deps: Deps,
  jobId: string,
  kind: Kind,
  pairs: Array<{ source: string; local: string; stamp?: string }>,
): Promise<Map<string, string>> {
  for (let i = 0; i < pairs.length; i += 200)
    await deps.db.kysely
      .insertInto('import_ids')
      .values(
        pairs.slice(i, i + 200).map((p) => ({
          job_id: jobId,
          kind,
          source_id: p.source,
          local_id: p.local,
          source_stamp: p.stamp ?? '',
        })),
      )
      .onConflict((oc) => oc.columns(['job_id', 'kind', 'source_id']).doNothing())
      .execute();
  const now = await mapped(
    deps,
    jobId,
    kind,
    pairs.map((p) => p.source),
  );
  return new Map([...now].map(([s, m]) => [s, m.local_id]));
}

/** The local id of a source id: recorded before, or reserved and recorded now. */
export async function reserve(deps: Deps, jobId: string, kind: Kind, sourceId: string): Promise<string> {
  const found = await mapped(deps, jobId, kind, [sourceId]);
  if (found.has(sourceId)) return found.get(sourceId)!.local_id;
  const local = await deps.ids.one();
  return (await record(deps, jobId, kind, [{ source: sourceId, local }])).get(sourceId)!;
}

export async function stamp(
  deps: Deps,
  jobId: string,
  kind: Kind,
  sourceId: string,
  value: string,
): Promise<void> {
  await deps.db.kysely
    .updateTable('import_ids')
    .set({ source_stamp: value })
    .where('job_id', '=', jobId)
    .where('kind', '=', kind)
    .where('source_id', '=', sourceId)
    .execute();
}

/** How long a heartbeat holds: a job whose process stopped beating is free to run again. */
export const HEARTBEAT_HOLD_MS = 60_000;

/**
 * Claims the job for this process (one atomic UPDATE: at most one process runs a job at a time,
 * across every instance): false when another process holds a fresh heartbeat.
 */
export async function claimJob(deps: Deps, jobId: string): Promise<boolean> {
  const now = deps.clock.now();
  const stale = new Date(now.getTime() - HEARTBEAT_HOLD_MS).toISOString();
  const res = await deps.db.kysely
    .updateTable('import_jobs')
    .set({ heartbeat_at: now.toISOString() })
    .where('id', '=', jobId)
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', stale)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function beat(deps: Deps, jobId: string): Promise<void> {
  await deps.db.kysely
    .updateTable('import_jobs')
    .set({ heartbeat_at: deps.clock.now().toISOString() })
    .where('id', '=', jobId)
    .execute();
}

export async function releaseJob(deps: Deps, jobId: string): Promise<void> {
  await deps.db.kysely
    .updateTable('import_jobs')
    .set({ heartbeat_at: null })
    .where('id', '=', jobId)
    .execute();
}

/** Whether a process holds the job now (runs it, or waits to resume it). */
export const isLive = (job: Pick<ImportJob, 'heartbeat_at'>, now: Date) =>
  !!job.heartbeat_at && Date.parse(job.heartbeat_at) > now.getTime() - HEARTBEAT_HOLD_MS;

/** The owner's jobs, newest first. */
export async function ownerJobs(deps: Deps, ownerId: string): Promise<ImportJob[]> {
  return deps.db.kysely
    .selectFrom('import_jobs')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** One of the owner's jobs; someone else's is not found, as if it did not exist. */
export async function ownerJob(deps: Deps, ownerId: string, jobId: string): Promise<ImportJob | undefined> {
  return deps.db.kysely
    .selectFrom('import_jobs')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', jobId)
    .executeTakeFirst();
}
