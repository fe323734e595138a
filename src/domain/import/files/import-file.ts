// Importing a survey from another tool's export file: the tool's converter reads the file (and the
// optional responses file) into a ConvertedSurvey, checked before anything is written; then the
// same importer that copies a SurveyMonkey account runs over a FileSource serving it, so the
// copy, its report of what was not carried over and its resumability are the API import's. The
// job is keyed by the tool and the file's SHA-256: importing the same file again resumes or
// finds it done, and a later responses file for the same survey adds what is new.
import { createHash } from 'node:crypto';
import type { Deps } from '../../../context.js';
import type { Account } from '../../accounts/users.js';
import { DEFAULT_DAILY_BUDGET } from '../budget.js';
import type { Skipped } from '../design.js';
import { continueImport, type ImportResult, type OpenedImport } from '../importer.js';
import { allMapped, openJob } from '../jobs.js';
import type { ImportOptions } from '../run-context.js';
import { problem, read, SourceResponse, SurveyDetails } from '../source.js';
import { BadImportFile, type ConvertedSurvey, type FileTool } from './converted.js';
import { converterFor } from './converters.js';
import { FileSource } from './file-source.js';

export interface FileImportInput {
  tool: string;
  /** The survey (definition) file, or the tool's archive. */
  file: Buffer;
  /** The responses file, for tools that export responses apart. */
  responses?: Buffer;
}

export interface ConvertedFile {
  tool: FileTool;
  survey: ConvertedSurvey;
  /** The job's source: file:<tool>:<SHA-256 of the file>. */
  sourceUrl: string;
}

const mb = (n: number) => `${Math.floor(n / 1024 / 1024)} MB`;

/** Refuses a file (or responses file) larger than IMPORT_FILE_MAX_MB, before it is read. */
export function checkFileSize(deps: Deps, bytes: number, what = 'file'): void {
  const max = deps.config.importFileMaxBytes;
  if (bytes > max)
    throw new BadImportFile(
      `The ${what} is larger than ${mb(max)}, the most this server takes (IMPORT_FILE_MAX_MB).`,
    );
}

/** The file converted and checked (BadImportFile for anything that is not the tool's export). */
export async function convertFile(deps: Deps, input: FileImportInput): Promise<ConvertedFile> {
  const converter = converterFor(input.tool);
  checkFileSize(deps, input.file.length);
  if (input.responses) checkFileSize(deps, input.responses.length, 'responses file');
  if (input.file.length === 0) throw new BadImportFile('The file is empty.');
  const survey = await converter.convert({ file: input.file, responses: input.responses });
  // A converter's answer is checked as the importer will read it: a fault shows here, before any
  // job is opened or anything written.
  const p = problem(SurveyDetails, { ...asObject(survey.details), id: survey.id });
  if (p) throw new BadImportFile(`The survey in the file could not be read: ${p}.`);
  for (const r of survey.responses) {
    const rp = problem(SourceResponse, { date_modified: '-', ...asObject(r), collector_id: '-' });
    if (rp) throw new BadImportFile(`A response in the file could not be read: ${rp}.`);
  }
  const sha = createHash('sha256').update(input.file).digest('hex');
  return { tool: converter.tool, survey, sourceUrl: `file:${converter.tool}:${sha}` };
}

const asObject = (v: unknown): object => (v && typeof v === 'object' ? v : {});

/** A converted file's job opened (or found again), with the options that run it over the file. */
export async function openFileImport(
  deps: Deps,
  owner: Account,
  converted: ConvertedFile,
  extra: Pick<ImportOptions, 'onProgress' | 'signal'> = {},
): Promise<{ opened: OpenedImport; options: ImportOptions }> {
  const job = await openJob(deps, owner.id, converted.sourceUrl, 'file', DEFAULT_DAILY_BUDGET);
  const source = new FileSource(converted.tool, converted.survey, job.created_at);
  return {
    opened: { job, spent: 0 },
    options: {
      owner,
      from: converted.sourceUrl,
      token: '',
      dailyBudget: DEFAULT_DAILY_BUDGET,
      source,
      notCarried: converted.survey.skipped,
      ...extra,
    },
  };
}

/** Imports (or resumes importing) a tool's export file into `owner`'s account. */
export async function runFileImport(
  deps: Deps,
  owner: Account,
  input: FileImportInput,
  extra: Pick<ImportOptions, 'onProgress' | 'signal'> = {},
): Promise<ImportResult & { surveyId: string | null }> {
  const converted = await convertFile(deps, input);
  const { opened, options } = await openFileImport(deps, owner, converted, extra);
  const result = await continueImport(deps, opened, options);
  return { ...result, surveyId: await importedSurvey(deps, opened.job.id) };
}

/** The local survey a file's import created (null while its design is not copied). */
export async function importedSurvey(deps: Deps, jobId: string): Promise<string | null> {
  const [id] = (await allMapped(deps, jobId, 'survey')).values();
  return id ?? null;
}

/** What importing a file would create (nothing is written). */
export interface FileDryRun {
  tool: FileTool;
  title: string;
  pages: number;
  questions: number;
  responses: number;
  /** What would not be carried over, with the reason. */
  skipped: Skipped[];
}

export async function planFileImport(deps: Deps, input: FileImportInput): Promise<FileDryRun> {
  const { tool, survey } = await convertFile(deps, input);
  const d = read(SurveyDetails, { ...asObject(survey.details), id: survey.id }, 'survey');
  const pages = d.pages ?? [];
  return {
    tool,
    title: d.title,
    pages: pages.length,
    questions: pages.reduce((n, p) => n + (p.questions?.length ?? 0), 0),
    responses: survey.responses.length,
    skipped: survey.skipped,
  };
}
