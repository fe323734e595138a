// What every phase of an import run shares: the deps, the source's API (within the job's budget),
// the job row and its cursor, the counts and the report of what was not copied, the id map
// lookups, and the progress reporter that writes the job as the run goes.
import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import type { Deps } from '../../context.js';
import { parseApiDate } from '../../platform/dates.js';
import { type Plan, planOf } from '../../platform/plans.js';
import type { Account } from '../accounts/users.js';
import type { SurveyRow } from '../surveys/access.js';
import type { Skipped } from './design.js';
import {
  type Cursor,
  emptyCursor,
  type ImportJob,
  jobBudget,
  type Kind,
  mapped,
  record,
  saveJob,
} from './jobs.js';
import { type Progress, progressOf } from './progress.js';
import { RemoteApi } from './remote.js';
import { problem } from './source.js';
import type { SourceApi } from './source-api.js';

export interface ImportOptions {
  owner: Account;
  from: string;
  token: string;
  dailyBudget: number;
  /** Waits on 429 and exhausted minutes (tests make them instant). */
  sleep?: (ms: number) => Promise<void>;
  onProgress?: (p: Progress) => void;
  /** Stops the run between two requests (its server is shutting down): state `stopped`. */
  signal?: AbortSignal;
  /** Where the run reads (a converted file); the source's API at `from` with `token` by default. */
  source?: SourceApi;
  /** What was not carried over before the run (a converter's report), added to the job's. */
  notCarried?: Skipped[];
}

/** Progress is written to the job at least this often, so any page shows it. */
const SAVE_EVERY_MS = 2000;

/** A source item's id for the report ("?" when it has none). */
export const idOf = (item: unknown): string => {
  const id = item && typeof item === 'object' && 'id' in item ? item.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '?';
};

/** The source's dates (with or without offset) as this service's ISO instants. */
export const iso = (v: string | null | undefined): string | undefined =>
  v ? (parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1')) ?? undefined) : undefined;

export class RunContext {
  readonly api: SourceApi;
  readonly cursor: Cursor;
  /** Copied over every run of the job, and by this run. */
  readonly copied: Record<string, number>;
  readonly copiedNow: Record<string, number> = {};
  readonly skipped: Skipped[];
  readonly plan: Plan;
  readonly totals: Progress['totals'];
  responsesHere = 0;
  /** Requests still needed for what is listed but not yet read (refined as the run goes). */
  pendingRequests = 0;
  phase = 'starting';
  savedAt = 0;

  constructor(
    readonly deps: Deps,
    readonly job: ImportJob,
    readonly options: ImportOptions,
    sourceUrl: string,
  ) {
    this.api =
      options.source ??
      new RemoteApi(sourceUrl, options.token, {
        budget: jobBudget(deps, job),
        sleep: options.sleep,
        signal: options.signal,
      });
    this.cursor = { ...emptyCursor(), ...JSON.parse(job.cursor) };
    this.copied = JSON.parse(job.counts);
    this.skipped = JSON.parse(job.skipped);
    this.totals = { surveys: 0, responses: 0, contacts: 0, ...JSON.parse(job.totals) };
    this.plan = planOf(options.owner.account_type);
    for (const s of options.notCarried ?? []) this.skip(s);
  }

  get owner() {
    return this.options.owner;
  }

  /** The owner as the actor of the survey and collector writes. */
  get actor() {
    return { user: { id: this.owner.id }, plan: this.plan, ip: null };
  }

  count(kind: string, n = 1) {
    this.copied[kind] = (this.copied[kind] ?? 0) + n;
    this.copiedNow[kind] = (this.copiedNow[kind] ?? 0) + n;
  }

  skip(s: Skipped) {
    if (!this.skipped.some((x) => x.kind === s.kind && x.name === s.name && x.reason === s.reason))
      this.skipped.push(s);
  }

  /** Reports a malformed item of a listing as not copied (the listing goes on). */
  badItem(kind: string) {
    return (item: unknown, p: string) =>
      this.skip({ kind, name: idOf(item), reason: `malformed at the source: ${p}` });
  }

  /** One item read by its own request, or undefined (reported as not copied) when malformed. */
  async readItem<T extends TSchema>(
    schema: T,
    path: string,
    kind: string,
    name: string,
  ): Promise<Static<T> | undefined> {
    const body = await this.api.get(path);
    if (Value.Check(schema, body)) return body;
    this.skip({ kind, name, reason: `malformed at the source: ${problem(schema, body)}` });
    return undefined;
  }

  async save(state: ImportJob['state'] = 'running', lastError: string | null = null) {
    this.savedAt = Date.now();
    await saveJob(this.deps, this.job, {
      state,
      cursor: JSON.stringify(this.cursor),
      counts: JSON.stringify(this.copied),
      skipped: JSON.stringify(this.skipped),
      totals: JSON.stringify(this.totals),
      last_error: lastError,
    });
  }

  progress(): Progress {
    return progressOf(
      this.job,
      this.phase,
      this.copied,
      this.totals,
      this.responsesHere,
      this.pendingRequests,
      this.deps.clock.now(),
    );
  }

  async report() {
    this.options.onProgress?.(this.progress());
    if (Date.now() - this.savedAt >= SAVE_EVERY_MS) await this.save();
  }

  async phaseDone(name: string) {
    this.cursor.done.push(name);
    await this.save();
  }

  // ---- the id map and the local rows it points to ----

  /** Records source -> local, replacing a mapping to something deleted here. */
  async remember(kind: Kind, source: string, local: string) {
    await this.deps.db.kysely
      .deleteFrom('import_ids')
      .where('job_id', '=', this.job.id)
      .where('kind', '=', kind)
      .where('source_id', '=', source)
      .execute();
    await record(this.deps, this.job.id, kind, [{ source, local }]);
  }

  async localOf(kind: Kind, sourceId: string): Promise<string | undefined> {
    return (await mapped(this.deps, this.job.id, kind, [sourceId])).get(sourceId)?.local_id;
  }

  async localSurvey(id: string): Promise<SurveyRow | undefined> {
    return this.deps.db.kysely.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Source -> local ids of every page, question and answer option copied. */
  async designMap(): Promise<Map<string, string>> {
    const rows = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select(['source_id', 'local_id'])
      .where('job_id', '=', this.job.id)
      .where('kind', 'in', ['page', 'question', 'answer'])
      .execute();
    return new Map(rows.map((r) => [r.source_id, r.local_id]));
  }

  async responsesCopied(): Promise<number> {
    const row = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('job_id', '=', this.job.id)
      .where('kind', '=', 'response')
      .where('source_stamp', '<>', '')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The source's creation and modification dates on a copied row (a copy keeps its history). */
  async keepDates(
    table: 'surveys' | 'collectors',
    id: string,
    created?: string | null,
    modified?: string | null,
  ) {
    const c = iso(created);
    const m = iso(modified);
    if (!c && !m) return;
    await this.deps.db.kysely
      .updateTable(table)
      .set({ ...(c ? { date_created: c } : {}), ...(m ? { date_modified: m } : {}) })
      .where('id', '=', id)
      .execute();
  }
}
