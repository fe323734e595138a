// Exports of a survey's responses: started by the API, the analyze page or the CLI. A small export
// (at most EXPORT_SYNC_MAX_RESPONSES matching responses) is written at once; a larger one is a row
// in `exports` that the outbox worker claims with a lease (so a worker that dies hands it to the
// next), writes under EXPORT_DIR and keeps for EXPORT_RETENTION_HOURS. The basic plan's limit is
// the response-detail rule (responses/plan-limit.ts), applied to the responses selected.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import type { AnswerCondition } from '../../db/stores/answer-filter.js';
import type { ExportsTable } from '../../db/tables/exports.js';
import { ApiError } from '../../platform/errors.js';
import { isPaid, planOf } from '../../platform/plans.js';
import { requireUser } from '../accounts/users.js';
import { designIndex } from '../responses/design-index.js';
import { assertResponsesReadable } from '../responses/plan-limit.js';
import { countMatching, type ResponseFilters } from '../responses/responses.js';
import { requireSurvey, type SurveyRow } from '../surveys/access.js';
import { exportFormatOf, isCompared, isReport, isSummary } from './formats.js';
import { buildLayout, type ValuesMode } from './layout.js';
import { reportModel } from './report.js';
import { renderPdf } from './report-pdf.js';
import { renderPptx } from './report-pptx.js';
import { compareQuestion, summaryLines, writeSummaryCsv, writeSummaryXlsx } from './summary.js';
import {
  type ExportFormat,
  FILE_TYPES,
  type Progress,
  writeResponsesCsv,
  writeResponsesXlsx,
  writeSpssSyntax,
} from './writers.js';

export type ExportRow = Selectable<ExportsTable>;

/** What the owner asks for: the file, and the same filters as the analyze/responses pages. */
export interface ExportSpec {
  format: ExportFormat;
  values: ValuesMode;
  bom: boolean;
  collectorIds?: string[];
  status?: string[];
  /** ISO dates (inclusive). */
  startCreated?: string;
  endCreated?: string;
  /** Answers every exported response has (domain/analysis/filters.ts). */
  answers?: AnswerCondition[];
  /** The summary and report formats: a single or multiple choice question splitting each line by its answers. */
  compare?: string;
}

interface StoredOptions extends ExportSpec {
  /** Only responses up to this ordinal: those that existed when the export was asked for. */
  upTo: number;
}

/** A job's options, as startExport stored them. */
export function exportOptions(row: Pick<ExportRow, 'options'>): StoredOptions {
  return JSON.parse(row.options);
}

/** Failed attempts after which a job is given up. */
const MAX_ATTEMPTS = 3;

function filtersOf(surveyId: string, spec: ExportSpec): ResponseFilters {
  return {
    surveyId,
    collectorIds: spec.collectorIds,
    status: spec.status,
    startCreated: spec.startCreated,
    endCreated: spec.endCreated,
    answers: spec.answers,
  };
}

/** The responses `spec` selects, refused with 402/1005 when the basic plan may not read them all. */
async function selection(deps: Deps, paid: boolean, survey: SurveyRow, spec: ExportSpec) {
  if (spec.compare !== undefined) {
    if (!isCompared(spec.format))
      throw new ApiError(
        1002,
        `'compare_question_id' applies to the summary and report formats (summary, summary_xlsx, pdf, pptx) only.`,
      );
    compareQuestion(await designIndex(deps, survey), spec.compare);
  }
  const { total, maxOrdinal } = await countMatching(deps, filtersOf(survey.id, spec));
  assertResponsesReadable(paid, [{ ordinal: maxOrdinal }]);
  return { total, upTo: maxOrdinal };
}

/** A file name for downloads: the survey's title, made safe, with the format's extension. */
export function downloadName(survey: Pick<SurveyRow, 'title' | 'id'>, format: ExportFormat): string {
  const base =
    survey.title
      .normalize('NFKD')
      .replace(/[^\w .-]+/g, '')
      .trim()
      .replace(/\s+/g, '_')
      .slice(0, 80) || `survey_${survey.id}`;
  const suffix = isSummary(format) ? '_summary' : isReport(format) ? '_report' : '';
  return `${base}${suffix}.${FILE_TYPES[format].ext}`;
}

/** Writes the export `spec` of `survey` to `out` (responses up to `upTo`). */
async function writeExport(
  deps: Deps,
  survey: SurveyRow,
  spec: ExportSpec,
  upTo: number,
  out: Writable,
  progress?: Progress,
): Promise<void> {
  const index = await designIndex(deps, survey);
  const layout = buildLayout(index, Object.keys(JSON.parse(survey.custom_variables || '{}')));
  const filters = filtersOf(survey.id, spec);
  switch (spec.format) {
    case 'csv':
      return writeResponsesCsv(deps, layout, { filters, upTo }, spec, out, progress);
    case 'xlsx':
      return writeResponsesXlsx(deps, layout, { filters, upTo }, spec, out, progress);
    case 'summary':
    case 'summary_xlsx': {
      const by = spec.compare ? compareQuestion(index, spec.compare) : undefined;
      const lines = await summaryLines(deps, index, filters, by);
      return spec.format === 'summary' ? writeSummaryCsv(lines, spec.bom, out) : writeSummaryXlsx(lines, out);
    }
    case 'spss':
      return writeSpssSyntax(layout, out);
    case 'pdf':
    case 'pptx': {
      const model = await reportModel(deps, survey, {
        filters: { ...filters, maxOrdinal: upTo },
        compare: spec.compare,
      });
      return spec.format === 'pdf'
        ? renderPdf(model, deps.config.exports.reportFontsDir, out)
        : renderPptx(model, out);
    }
  }
}

/** What a PDF report shows: the analyze page's filter fields (ExportSpec's) and compare question. */
export type ReportOptions = Pick<
  ExportSpec,
  'collectorIds' | 'status' | 'startCreated' | 'endCreated' | 'answers' | 'compare'
>;

/**
 * The PDF report of a survey's results (the analyze page under `options`' filter and compare) written
 * to `out`, as its owner's plan may read them (402/1005 when a basic plan's survey has more than it
 * reads; 404/1020 for no such survey; 400/1002 for a compare question that cannot split it).
 */
export async function writePdfReport(
  deps: Deps,
  surveyId: string,
  options: ReportOptions,
  out: Writable,
): Promise<void> {
  const { survey, paid } = await surveyForCli(deps, surveyId);
  const spec: ExportSpec = { ...options, format: 'pdf', values: 'text', bom: false };
  const { upTo } = await selection(deps, paid, survey, spec);
  await writeExport(deps, survey, spec, upTo, out);
}

/** Checks the plan rule before a direct download starts (so a refusal is an error, not a cut
 * file); returns the ordinal ceiling to pass to writeExportTo. */
export async function checkExportAllowed(
  deps: Deps,
  paid: boolean,
  survey: SurveyRow,
  spec: ExportSpec,
): Promise<number> {
  return (await selection(deps, paid, survey, spec)).upTo;
}

/** Streams an export straight to `out` (the page download and the CLI): no job row, no file kept. */
export async function writeExportTo(
  deps: Deps,
  survey: SurveyRow,
  spec: ExportSpec,
  upTo: number,
  out: Writable,
): Promise<void> {
  await writeExport(deps, survey, spec, upTo, out);
}

/**
 * The survey an operator's command-line export names, and whether the acting user's plan is paid:
 * `username` must have analyze access to it; without one, its owner acts.
 */
export async function surveyForCli(
  deps: Deps,
  surveyId: string,
  username?: string,
): Promise<{ survey: SurveyRow; paid: boolean }> {
  if (username) {
    const user = await requireUser(deps, username);
    const survey = await requireSurvey(deps, { user }, surveyId, 'analyze', 'read');
    return { survey, paid: isPaid(planOf(user.account_type)) };
  }
  const row = await deps.db.kysely
    .selectFrom('surveys')
    .innerJoin('users', 'users.id', 'surveys.owner_id')
    .selectAll('surveys')
    .select('users.account_type')
    .where('surveys.id', '=', surveyId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Survey not found.');
  const { account_type, ...survey } = row;
  return { survey, paid: isPaid(planOf(account_type)) };
}

const fileOf = (deps: Deps, id: string, format: string) =>
  join(deps.config.exports.dir, `${id}.${FILE_TYPES[exportFormatOf(format)].ext}`);

/**
 * Starts an export job; a small one is written before this returns (status completed), a larger
 * one is left to the worker (status pending).
 */
export async function startExport(
  deps: Deps,
  caller: { userId: string; paid: boolean },
  survey: SurveyRow,
  spec: ExportSpec,
): Promise<ExportRow> {
  const { total, upTo } = await selection(deps, caller.paid, survey, spec);
  const [id] = await deps.ids.take(1);
  const now = deps.clock.now();
  const inline = total <= deps.config.exports.syncMaxResponses;
  const token = randomUUID();
  const options: StoredOptions = { ...spec, upTo };
  await deps.db.kysely
    .insertInto('exports')
    .values({
      id,
      owner_id: survey.owner_id,
      survey_id: survey.id,
      user_id: caller.userId,
      format: spec.format,
      options: JSON.stringify(options),
      status: 'pending',
      total,
      done: 0,
      attempts: 0,
      next_attempt_at: now.toISOString(),
      // an inline export holds its own claim, so no worker takes it meanwhile
      claimed_until: inline ? leaseEnd(deps, now) : null,
      claim_token: inline ? token : null,
      file_name: null,
      size: null,
      error: null,
      created_at: now.toISOString(),
      completed_at: null,
      expires_at: retentionEnd(deps, now),
    })
    .execute();
  if (inline) await runExport(deps, id, token, () => deps.clock.now());
  return getExportRow(deps, survey.id, id);
}

const leaseEnd = (deps: Deps, now: Date) =>
  new Date(now.getTime() + deps.config.outbox.leaseSeconds * 1000).toISOString();
const retentionEnd = (deps: Deps, now: Date) =>
  new Date(now.getTime() + deps.config.exports.retentionHours * 3_600_000).toISOString();

/** Runs a claimed job: writes its file beside its final name, then renames it into place. */
export async function runExport(deps: Deps, id: string, token: string, now: () => Date): Promise<void> {
  const k = deps.db.kysely;
  const job = await k
    .selectFrom('exports')
    .selectAll()
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  if (!job) return;
  const survey = await k.selectFrom('surveys').selectAll().where('id', '=', job.survey_id).executeTakeFirst();
  const target = fileOf(deps, id, job.format);
  const part = `${target}.part`;
  try {
    if (!survey) throw new Error('survey deleted');
    const options = exportOptions(job);
    await mkdir(deps.config.exports.dir, { recursive: true });
    const progress: Progress = async (done) => {
      // progress renews the lease; a lost claim (another worker took over) stops this run
      const r = await k
        .updateTable('exports')
        .set({ done, claimed_until: leaseEnd(deps, now()) })
        .where('id', '=', id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw new Error('export claim lost');
    };
    await writeExport(deps, survey, options, options.upTo, createWriteStream(part), progress);
    await rename(part, target);
    const { size } = await stat(target);
    const doneAt = now();
    await k
      .updateTable('exports')
      .set((eb) => ({
        status: 'completed',
        done: job.format === 'csv' || job.format === 'xlsx' ? eb.ref('done') : job.total,
        file_name: target,
        size,
        completed_at: doneAt.toISOString(),
        expires_at: retentionEnd(deps, doneAt),
        claimed_until: null,
        claim_token: null,
      }))
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  } catch (err) {
    await rm(part, { force: true });
    const attempts = job.attempts + 1;
    const failed = attempts >= MAX_ATTEMPTS || !survey;
    await k
      .updateTable('exports')
      .set({
        attempts,
        status: failed ? 'failed' : 'pending',
        error: failed ? String(err instanceof Error ? err.message : err).slice(0, 500) : null,
        next_attempt_at: new Date(now().getTime() + 30_000 * attempts).toISOString(),
        claimed_until: null,
        claim_token: null,
      })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }
}

export async function getExportRow(deps: Deps, surveyId: string, id: string): Promise<ExportRow> {
  const row = await deps.db.kysely
    .selectFrom('exports')
    .selectAll()
    .where('id', '=', id)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Export not found.');
  return row;
}

export type ExportStatus = 'pending' | 'running' | 'completed' | 'failed';

/** pending is shown as running while a worker holds it. */
export function exportStatus(row: ExportRow, now: Date): ExportStatus {
  if (row.status === 'pending' && row.claimed_until && row.claimed_until > now.toISOString())
    return 'running';
  return row.status;
}

/** The finished file of a job, or 409/1025 while it is not ready (404/1020 once gone). */
export function exportFile(row: ExportRow): { stream: Readable; mime: string; size: number } {
  if (row.status !== 'completed' || !row.file_name)
    throw new ApiError(1025, `The export is ${row.status}; fetch its file once its status is completed.`);
  // a file removed from EXPORT_DIR by hand is as gone as a pruned one
  if (!existsSync(row.file_name)) throw new ApiError(1020, 'The export file is no longer kept.');
  const stream = createReadStream(row.file_name);
  return { stream, mime: FILE_TYPES[exportFormatOf(row.format)].mime, size: row.size ?? 0 };
}

/** Deletes expired exports, their files first (the worker calls this every round). */
export async function pruneExports(deps: Deps, now: Date, limit = 100): Promise<number> {
  const k = deps.db.kysely;
  const nowIso = now.toISOString();
  const expired = await k
    .selectFrom('exports')
    .select(['id', 'file_name'])
    .where('expires_at', '<', nowIso)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
    .limit(limit)
    .execute();
  for (const e of expired) if (e.file_name) await rm(e.file_name, { force: true });
  if (expired.length > 0)
    await k
      .deleteFrom('exports')
      .where(
        'id',
        'in',
        expired.map((e) => e.id),
      )
      .execute();
  return expired.length;
}
