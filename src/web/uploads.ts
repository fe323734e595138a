// Upload forms (multipart) on pages: admitted from the request's headers before any of the body is
// read (domain/uploads/admission.ts: size, free disk, hourly byte caps; the caller has checked
// sign-in and access first), then read part by part, a file part handed over only once the fields
// before it (the form's CSRF token comes first) have proved the post allowed. A refused post drains
// its files unread, so nothing reaches the disk, and whatever was received goes if reading fails.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../context.js';
import { admitUpload, type Reservation, UploadRefused } from '../domain/uploads/admission.js';
import type { PageApp } from './page-area.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What admitUploadRequest counted for this request's upload. */
    uploadReservation?: Reservation;
  }
}

/** A form's fields: one value, or several for a repeated name. */
export type Fields = Record<string, string | string[] | undefined>;

/** The request's declared body size, or undefined when it sent none. */
function declaredLength(request: FastifyRequest): number | undefined {
  const raw = request.headers['content-length'];
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Admits the upload this request carries (call it before reading the body; what it counted is
 * kept as `request.uploadReservation`); a refusal is thrown (the page's error handler shows it),
 * with Retry-After set where waiting helps.
 */
export async function admitUploadRequest(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  maxBytes: number,
): Promise<Reservation> {
  try {
    request.uploadReservation = await admitUpload(deps, {
      accountId,
      ip: request.ip,
      declaredBytes: declaredLength(request),
      maxBytes,
    });
    return request.uploadReservation;
  } catch (err) {
    if (err instanceof UploadRefused && err.retryAfterSeconds)
      reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
}

export interface MultipartReading<T> {
  /** Whether the post is allowed, judged on the fields read before its first file part (or all of
   * them when it has none). */
  allowed(fields: Fields): boolean;
  /** Receives one file part of an allowed post; null when the part is not wanted (drained). */
  receive(part: MultipartFile, fields: Fields): Promise<T | null>;
  /** Forgets what was received, when reading fails part-way. */
  discard(items: T[]): Promise<void>;
}

/**
 * Reads a multipart form. `refused`: the post proved not allowed, and every file part was drained
 * without a byte kept. Items received are the caller's to keep or discard.
 */
export async function readMultipart<T>(
  request: FastifyRequest,
  reading: MultipartReading<T>,
): Promise<{ fields: Fields; items: T[]; refused: boolean }> {
  const fields: Fields = {};
  const items: T[] = [];
  let verdict: boolean | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        const value = String(part.value);
        const had = fields[part.fieldname];
        fields[part.fieldname] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
        continue;
      }
      verdict ??= reading.allowed(fields);
      const item = verdict ? await reading.receive(part, fields) : null;
      if (item !== null) items.push(item);
      // read past what was not taken, keeping nothing
      else for await (const _ of part.file);
    }
  } catch (err) {
    // a broken or over-limit form, or the client gone: nothing it sent is kept
    await reading.discard(items);
    throw err;
  }
  verdict ??= reading.allowed(fields);
  return { fields, items, refused: !verdict };
}

/** The error the CSRF protection gives `token` with this request's cookie, or null when it is
 * valid: the plugin itself is asked, with a reply that only records what it would send. */
export function csrfRefusal(app: PageApp, request: FastifyRequest, token: unknown): Error | null {
  let refusal: Error | null = null;
  let passed = false;
  const saved = request.body;
  request.body = { _csrf: typeof token === 'string' ? token : undefined };
  try {
    const recorder = {
      send: (err: Error) => {
        refusal = err;
      },
    } as unknown as FastifyReply;
    app.csrfProtection(request, recorder, () => {
      passed = true;
    });
  } finally {
    request.body = saved;
  }
  return passed ? null : (refusal ?? new Error('The form could not be verified.'));
}
