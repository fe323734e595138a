// Whether an upload may be received at all, decided from the request's headers before any byte of
// its body is read (the page checks sign-in, access and the form's CSRF token around it): its
// declared size within what the form can hold, the disk keeping UPLOAD_MIN_FREE_MB free, and the
// hourly byte caps of the account the bytes are for and of the sending address. The caps are
// fixed one-hour windows in `upload_byte_windows` (migration 0050); a request's Content-Length is
// reserved against every key in one transaction, each by one conditional upsert, so concurrent
// uploads never pass a cap on either database and a refused request counts against nothing.
import { mkdir, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { type Plan, questionTypes } from '../../platform/plans.js';
import { sizeText } from './uploads.js';

const HOUR = 3_600_000;
/** How long a reading of the disk's free space is trusted (UPLOAD_MIN_FREE_MB leaves the margin). */
const FREE_SPACE_TTL_MS = 5_000;

/** An upload refused before it was read; `retryAfterSeconds` when waiting helps. */
export class UploadRefused extends ApiError {
  constructor(
    code: number,
    detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code, detail);
  }
}

export interface UploadRequest {
  /** whose uploads these bytes count as: the signed-in uploader, or the survey's owner */
  accountId: string;
  /** the client's address */
  ip: string;
  /** the request's Content-Length (undefined when it sent none) */
  declaredBytes: number | undefined;
  /** the largest body the form can need */
  maxBytes: number;
}

/** What was counted for an admitted upload, to give back if the request proves not allowed. */
export interface Reservation {
  keys: string[];
  window: number;
  bytes: number;
}

/** Free bytes on the disks uploads (and a SQLite database) are written to, read at most every few
 * seconds per directory. */
async function freeBytes(deps: Deps): Promise<number> {
  const dirs = [deps.config.uploads.dir];
  const url = deps.config.databaseUrl;
  if (url.startsWith('sqlite:') && !url.endsWith(':memory:')) dirs.push(dirname(url.slice('sqlite:'.length)));
  let least = Number.POSITIVE_INFINITY;
  for (const dir of dirs) {
    const cached = deps.caches.diskFree.get(dir);
    let free = cached && performance.now() - cached.at < FREE_SPACE_TTL_MS ? cached.free : undefined;
    if (free === undefined) {
      await mkdir(dir, { recursive: true });
      const s = await statfs(dir);
      free = s.bavail * s.bsize;
      deps.caches.diskFree.set(dir, { at: performance.now(), free });
    }
    least = Math.min(least, free);
  }
  return least;
}

/** Adds `bytes` to every key's current window, or to none when one would pass its cap. */
async function reserve(deps: Deps, caps: Array<[key: string, cap: number]>, bytes: number, window: number) {
  const sorted = caps.filter(([, cap]) => cap > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.some(([, cap]) => bytes > cap)) return false;
  const over = new Error('over the cap');
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      for (const [key, cap] of sorted) {
        // the sum this window would reach: the same window's count plus these bytes, or a new window
        const next = sql<number>`CASE WHEN upload_byte_windows.window_start >= excluded.window_start THEN upload_byte_windows.bytes + excluded.bytes ELSE excluded.bytes END`;
        const row = await trx
          .insertInto('upload_byte_windows')
          .values({ key, window_start: window, bytes })
          .onConflict((oc) =>
            oc
              .column('key')
              .doUpdateSet({
                bytes: next,
                window_start: sql`CASE WHEN upload_byte_windows.window_start >= excluded.window_start THEN upload_byte_windows.window_start ELSE excluded.window_start END`,
              })
              .where(next, '<=', cap),
          )
          .returning('bytes')
          .executeTakeFirst();
        if (!row) throw over;
      }
    });
    return true;
  } catch (err) {
    if (err === over) return false;
    throw err;
  }
}

/**
 * Admits an upload before its body is read, counting its declared size against the hourly caps;
 * refuses it (UploadRefused) when it declares no size or more than `maxBytes`, when the disk would
 * keep less than UPLOAD_MIN_FREE_MB, or when a cap would be passed.
 */
export async function admitUpload(deps: Deps, req: UploadRequest): Promise<Reservation> {
  const { declaredBytes: bytes, maxBytes } = req;
  if (bytes === undefined) throw new UploadRefused(1004, 'An upload must declare its size (Content-Length).');
  if (bytes > maxBytes)
    throw new UploadRefused(1030, `The upload is too large: this form takes at most ${sizeText(maxBytes)}.`);
  const { minFreeBytes, accountBytesPerHour, addressBytesPerHour } = deps.config.uploads;
  if ((await freeBytes(deps)) - bytes < minFreeBytes)
    throw new UploadRefused(
      1051,
      'Uploads are paused because the server is running out of disk space. Please try again later.',
      600,
    );
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / HOUR);
  const caps: Array<[string, number]> = [
    [`account:${req.accountId}`, accountBytesPerHour],
    [`address:${req.ip}`, addressBytesPerHour],
  ];
  if (!(await reserve(deps, caps, bytes, window)))
    throw new UploadRefused(
      1040,
      'Too much has been uploaded from this account or connection in the last hour. Please try again later.',
      Math.max(1, Math.ceil(((window + 1) * HOUR - now) / 1000)),
    );
  return { keys: caps.filter(([, cap]) => cap > 0).map(([k]) => k), window, bytes };
}

/** Gives back what an admitted upload counted, when the request then proved not allowed (its form
 * token was wrong): nothing of it was kept. */
export async function releaseUpload(deps: Deps, r: Reservation): Promise<void> {
  if (r.keys.length === 0 || r.bytes === 0) return;
  await deps.db.kysely
    .updateTable('upload_byte_windows')
    .set((eb) => ({ bytes: eb('bytes', '-', r.bytes) }))
    .where('key', 'in', r.keys)
    .where('window_start', '=', r.window)
    .where('bytes', '>=', r.bytes)
    .execute();
}

/** Forgets windows that have passed (the worker's prune pass). */
export async function pruneUploadWindows(deps: Deps): Promise<number> {
  const window = Math.floor(deps.clock.now().getTime() / HOUR);
  const r = await deps.db.kysely
    .deleteFrom('upload_byte_windows')
    .where('window_start', '<', window)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Whether a survey owner's plan takes files from respondents (file-upload questions are paid). */
export async function ownerTakesFiles(deps: Deps, ownerId: string): Promise<boolean> {
  const owner = await deps.db.kysely
    .selectFrom('users')
    .select('account_type')
    .where('id', '=', ownerId)
    .executeTakeFirst();
  return owner ? questionTypes(owner.account_type as Plan).file_upload_question_type : false;
}
