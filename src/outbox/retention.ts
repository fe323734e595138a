// Data retention: the worker prunes rows (and emails' .eml files) past their RETAIN_<KIND>_DAYS in
// small batches (one short statement each, so a prune never holds SQLite's writer or PostgreSQL row
// locks for long).
// Finished exports carry their own expiry (EXPORT_RETENTION_HOURS) and go in the same pass, with
// their files (domain/exports pruneExports), as do expired account links (domain/accounts/links.ts)
// and uploads whose response never committed or is gone (domain/uploads sweepUploads), and
// "Finish later" links RESUME_DAYS after they expired (domain/responses/resume.ts).
import { sql } from 'kysely';
import { RETAINED_KINDS, type RetainedKind } from '../config.js';
import type { Deps } from '../context.js';
import { pruneAudit } from '../domain/audit/log.js';
import { pruneExports } from '../domain/exports/exports.js';
import { pruneResumeLinks } from '../domain/responses/resume.js';
import { pruneUploadWindows } from '../domain/uploads/admission.js';
import { sweepUploads } from '../domain/uploads/uploads.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/rules.js';
import { removeMailFiles } from '../platform/mail-files.js';
import { fannedOutBefore } from './fanout.js';

/** Deletes up to `limit` rows of one kind older than `cutoff` (ISO); returns how many. */
type Pruner = (deps: Deps, cutoff: string, limit: number) => Promise<number>;

/** Deletes up to `limit` rows of `table` matching `where`, oldest first by primary key choice. */
async function deleteSome(
  deps: Deps,
  table: string,
  key: string,
  where: ReturnType<typeof sql>,
  limit: number,
) {
  const r = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)} IN (
      SELECT ${sql.ref(key)} FROM ${sql.table(table)} WHERE ${where} LIMIT ${limit})`.execute(deps.db.kysely);
  return Number(r.numAffectedRows ?? 0);
}

export const PRUNERS: Partial<Record<RetainedKind, Pruner>> = {
  // The audit log, by the time of each row (RETAIN_AUDIT_DAYS, a year by default).
  audit: pruneAudit,
  // Finished deliveries and emails (their attempts cascade); pending ones are never pruned.
  deliveries: (deps, cutoff, limit) =>
    deleteSome(deps, 'webhook_deliveries', 'id', sql`status <> 'pending' AND created_at < ${cutoff}`, limit),
  // An email's .eml file (the local outbox) goes first, so a pass cut short leaves a row whose file
  // is gone (the next pass finishes it) rather than a file no row names.
  emails: async (deps, cutoff, limit) => {
    const k = deps.db.kysely;
    const ids = (
      await k
        .selectFrom('emails')
        .select('id')
        .where('status', '<>', 'pending')
        .where('created_at', '<', cutoff)
        .limit(limit)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    removeMailFiles(deps.config.mail.dir, ids);
    const r = await k.deleteFrom('emails').where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  // A lock that still holds is kept (a refused device token is locked for its token's life).
  sign_in_failures: (deps, cutoff, limit) =>
    deleteSome(
      deps,
      'sign_in_failures',
      'key',
      sql`last_failure_at < ${cutoff} AND (locked_until IS NULL OR locked_until < ${cutoff})`,
      limit,
    ),
  // Sessions count from their expiry: a live session is never pruned.
  sessions: (deps, cutoff, limit) =>
    deleteSome(deps, 'sessions', 'session_hash', sql`expires_at < ${cutoff}`, limit),
  // Group activity is written with its event, so the webhook fan-out is the only reader: an event
  // of a webhook type goes once it is behind the fan-out's watermark (never scanned again).
  events: async (deps, cutoff, limit) => {
    const read = await fannedOutBefore(deps);
    return deleteSome(
      deps,
      'events',
      'id',
      sql`created_at < ${cutoff} AND (type NOT IN (${sql.join(WEBHOOK_EVENT_TYPES)}) OR created_at < ${read})`,
      limit,
    );
  },
};

/** One pass: for each kind with a retention, up to `batches` batches of `batchSize` rows. */
export async function pruneOnce(
  deps: Deps,
  options: { batchSize?: number; batches?: number } = {},
): Promise<Partial<Record<RetainedKind | 'exports' | 'account_links' | 'uploads' | 'resume_links', number>>> {
  const { batchSize = 500, batches = 10 } = options;
  const now = deps.clock.now().getTime();
  const pruned: Partial<
    Record<RetainedKind | 'exports' | 'account_links' | 'uploads' | 'resume_links', number>
  > = {};
  for (const kind of RETAINED_KINDS) {
    const prune = PRUNERS[kind];
    const days = deps.config.retention[kind];
    if (!prune || !days) continue;
    const cutoff = new Date(now - days * 86_400_000).toISOString();
    let total = 0;
    for (let i = 0; i < batches; i++) {
      const n = await prune(deps, cutoff, batchSize);
      total += n;
      if (n < batchSize) break;
    }
    pruned[kind] = total;
  }
  pruned.exports = await pruneExports(deps, deps.clock.now(), batchSize);
  // Emailed account links (verification, reset, invitation) that expired unused: useless at once.
  pruned.account_links = await deleteSome(
    deps,
    'account_tokens',
    'token_hash',
    sql`expires_at < ${deps.clock.now().toISOString()}`,
    batchSize,
  );
  pruned.resume_links = await pruneResumeLinks(deps, batchSize);
  // Uploaded files no committed response refers to (an interrupted upload, a deleted survey).
  pruned.uploads = await sweepUploads(deps, batchSize);
  await pruneUploadWindows(deps);
  return pruned;
}
