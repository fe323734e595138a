// Files uploaded as answers to file-upload questions: received into UPLOAD_DIR/tmp while their
// size, SHA-256 and first bytes are taken; checked (size, extension, signature); kept under a random
// name with a row in `uploads`; served to those who may analyze the survey; removed with their
// response. Durability: a kept file is fsynced in tmp, its row committed, then renamed into place
// (and the directory fsynced), all before the response that refers to it commits. A crash in
// between leaves a row whose response never appeared, or a tmp file: sweepUploads (the worker's
// prune pass) removes both once they are an hour old. Files go before their rows, so a file never
// outlives the row that names it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Deps } from '../../context.js';
import type { Message } from '../../platform/i18n/index.js';
import { kindOf } from './types.js';

/** What this area reads of a response's answers (the responses area's StoredPage): the upload each
 * answer names. */
type AnsweredPages = ReadonlyArray<{
  questions: ReadonlyArray<{ answers: ReadonlyArray<{ upload_id?: string }> }>;
}>;

/** How long an unreferenced upload (or a tmp file) may wait for its response before it is swept. */
const GRACE_MS = 60 * 60 * 1000;
const HEAD_BYTES = 512;

/** A file received from a respondent, not yet kept. */
export interface IncomingFile {
  /** the question it answers */
  questionId: string;
  name: string;
  /** in UPLOAD_DIR/tmp, fsynced; '' when nothing was written (too big) */
  tmpPath: string;
  size: number;
  sha256: string;
  head: Buffer;
  tooBig: boolean;
}

const tmpDir = (deps: Deps) => join(deps.config.uploads.dir, 'tmp');
const pathOf = (deps: Deps, storageKey: string) => join(deps.config.uploads.dir, storageKey);

/** The name a browser gave a file, without any path, control characters or excess length. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return clean.slice(-200) || 'file';
}

/**
 * Reads one file stream into UPLOAD_DIR/tmp (at most UPLOAD_MAX_BYTES; `truncated` is the
 * multipart parser's own flag when it cut the stream at that limit). A file that is too big is
 * not kept even in tmp, nor is one whose stream fails. Call it only once the request is known to be
 * allowed (admission.ts and the form's CSRF token).
 */
export async function receiveFile(
  deps: Deps,
  questionId: string,
  name: string,
  stream: Readable & { truncated?: boolean },
): Promise<IncomingFile> {
  const max = deps.config.uploads.maxBytes;
  await mkdir(tmpDir(deps), { recursive: true });
  const tmpPath = join(tmpDir(deps), `${randomBytes(16).toString('hex')}.part`);
  const hash = createHash('sha256');
  const heads: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const fh = await open(tmpPath, 'wx', 0o600);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) continue; // drained, not written
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      await fh.write(chunk);
    }
    await fh.sync();
  } catch (err) {
    // the client went away mid-file, or the form broke: the part received goes at once
    await fh.close();
    await rm(tmpPath, { force: true });
    throw err;
  }
  await fh.close();
  const tooBig = size > max || stream.truncated === true;
  if (tooBig) await rm(tmpPath, { force: true });
  return {
    questionId,
    name: cleanName(name),
    tmpPath: tooBig ? '' : tmpPath,
    size,
    sha256: hash.digest('hex'),
    head: Buffer.concat(heads),
    tooBig,
  };
}

/** A size in words: 10 MB, 500 KB. */
export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number(mb.toFixed(1))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why a received file cannot be kept (the message shown at its question), or null. */
export function fileProblem(deps: Deps, file: IncomingFile): Message | null {
  const { maxBytes, types } = deps.config.uploads;
  if (file.tooBig) return { key: 'file_too_big', params: { size: sizeText(maxBytes) } };
  const kind = kindOf(file.name, types);
  if (!kind) return { key: 'file_type', params: { types: acceptedTypes(deps) } };
  if (file.size === 0) return { key: 'file_empty' };
  if (!kind.sniff(file.head)) return { key: 'file_mismatch', params: { kind: kind.label } };
  return null;
}

/** The accepted extensions, for messages and the file input's `accept` (`.pdf,.png`). */
export function acceptedTypes(deps: Deps, separator = ', '): string {
  return deps.config.uploads.types.map((t) => `.${t}`).join(separator);
}

export interface UploadPlace {
  ownerId: string;
  surveyId: string;
  collectorId: string;
  /** the response that will refer to it (minted beforehand for a new one) */
  responseId: string;
}

export interface KeptUpload {
  id: string;
  name: string;
  contentType: string;
}

/** Keeps a checked file: its row committed, then the file renamed into place and made durable. */
export async function keepFile(deps: Deps, place: UploadPlace, file: IncomingFile): Promise<KeptUpload> {
  const kind = kindOf(file.name, deps.config.uploads.types)!;
  const [id] = await deps.ids.take(1);
  const storageKey = randomBytes(18).toString('hex');
  await deps.db.kysely
    .insertInto('uploads')
    .values({
      id,
      owner_id: place.ownerId,
      survey_id: place.surveyId,
      collector_id: place.collectorId,
      response_id: place.responseId,
      question_id: file.questionId,
      file_name: file.name,
      content_type: kind.contentType,
      size: file.size,
      sha256: file.sha256,
      storage_key: storageKey,
      created_at: deps.clock.now().toISOString(),
    })
    .execute();
  await rename(file.tmpPath, pathOf(deps, storageKey));
  const dir = await open(deps.config.uploads.dir, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return { id, name: file.name, contentType: kind.contentType };
}

/** Forgets received files that were not kept. */
export async function discardFiles(files: Iterable<IncomingFile>): Promise<void> {
  for (const f of files) if (f.tmpPath) await rm(f.tmpPath, { force: true });
}

/** The upload ids a response's answers refer to. */
export function uploadIdsOf(pages: AnsweredPages): Set<string> {
  const out = new Set<string>();
  for (const p of pages)
    for (const q of p.questions) for (const a of q.answers) if (a.upload_id) out.add(a.upload_id);
  return out;
}

async function removeRows(deps: Deps, rows: Array<{ id: string; storage_key: string }>): Promise<number> {
  if (rows.length === 0) return 0;
  for (const r of rows) await rm(pathOf(deps, r.storage_key), { force: true });
  await deps.db.kysely
    .deleteFrom('uploads')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.length;
}

/** Removes uploads by id, the files of deleted responses, or those of a survey or collector. */
export async function removeUploads(
  deps: Deps,
  of: { uploadIds: string[] } | { responseIds: string[] } | { surveyId: string } | { collectorId: string },
): Promise<number> {
  let q = deps.db.kysely.selectFrom('uploads').select(['id', 'storage_key']);
  if ('uploadIds' in of || 'responseIds' in of) {
    const [column, ids] =
      'uploadIds' in of ? (['id', of.uploadIds] as const) : (['response_id', of.responseIds] as const);
    let n = 0;
    for (let i = 0; i < ids.length; i += 500)
      n += await removeRows(deps, await q.where(column, 'in', ids.slice(i, i + 500)).execute());
    return n;
  }
  q =
    'surveyId' in of ? q.where('survey_id', '=', of.surveyId) : q.where('collector_id', '=', of.collectorId);
  return removeRows(deps, await q.execute());
}

/** After a response changed: removes its uploads its answers no longer refer to (replaced files,
 * pages left off the path taken, answers an API update dropped). */
export async function keepOnlyReferenced(
  deps: Deps,
  responseId: string,
  pages: AnsweredPages,
): Promise<void> {
  const referenced = uploadIdsOf(pages);
  const rows = await deps.db.kysely
    .selectFrom('uploads')
    .select(['id', 'storage_key'])
    .where('response_id', '=', responseId)
    .execute();
  await removeRows(
    deps,
    rows.filter((r) => !referenced.has(r.id)),
  );
}

/**
 * The worker's sweep: uploads whose response does not exist an hour after the upload (a response
 * never committed, or deleted along with its survey, collector or account) and tmp files as old.
 */
export async function sweepUploads(deps: Deps, limit = 500): Promise<number> {
  const now = deps.clock.now().getTime();
  const cutoff = new Date(now - GRACE_MS).toISOString();
  const orphans = await deps.db.kysely
    .selectFrom('uploads as u')
    .leftJoin('responses as r', 'r.id', 'u.response_id')
    .select(['u.id', 'u.storage_key'])
    .where('r.id', 'is', null)
    .where('u.created_at', '<', cutoff)
    .limit(limit)
    .execute();
  let n = await removeRows(deps, orphans);
  const names = await readdir(tmpDir(deps)).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(tmpDir(deps), name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < now - GRACE_MS) {
      await rm(path, { force: true });
      n++;
    }
  }
  return n;
}

export interface Download {
  path: string;
  name: string;
  contentType: string;
  size: number;
}

/**
 * An upload of a survey, for someone already allowed to analyze it: only while its response exists
 * and refers to it, and within the responses their plan may read (`upTo`: plan-limit readableUpTo).
 */
export async function surveyUpload(
  deps: Deps,
  surveyId: string,
  uploadId: string,
  upTo: number | undefined,
): Promise<Download | null> {
  if (!/^\d{1,20}$/.test(uploadId)) return null;
  let q = deps.db.kysely
    .selectFrom('uploads as u')
    .innerJoin('responses as r', 'r.id', 'u.response_id')
    .select(['u.storage_key', 'u.file_name', 'u.content_type', 'u.size', 'r.pages'])
    .where('u.id', '=', uploadId)
    .where('u.survey_id', '=', surveyId)
    .where('r.survey_id', '=', surveyId);
  if (upTo !== undefined) q = q.where('r.ordinal', '<=', upTo);
  const row = await q.executeTakeFirst();
  if (!row || !uploadIdsOf(JSON.parse(row.pages) as AnsweredPages).has(uploadId)) return null;
  return {
    path: pathOf(deps, row.storage_key),
    name: row.file_name,
    contentType: row.content_type,
    size: row.size,
  };
}

/** A survey's kept uploads whose response exists (an account archive copies them), by id. */
export async function uploadsOfSurvey(deps: Deps, surveyId: string) {
  const rows = await deps.db.kysely
    .selectFrom('uploads as u')
    .innerJoin('responses as r', 'r.id', 'u.response_id')
    .select([
      'u.id',
      'u.response_id',
      'u.question_id',
      'u.file_name',
      'u.content_type',
      'u.size',
      'u.sha256',
      'u.storage_key',
    ])
    .where('u.survey_id', '=', surveyId)
    .orderBy('u.id')
    .execute();
  return rows.map(({ storage_key, ...r }) => ({ ...r, path: pathOf(deps, storage_key) }));
}
