// Single-use emailed links (verify an address, reset a password, accept a sign-up invitation).
// The link carries a random token; the database keeps only its SHA-256, so a leaked database
// cannot be replayed as links. Using a link deletes its row in one statement (DELETE ... RETURNING),
// so of two concurrent uses exactly one succeeds. Issuing a link voids the earlier unused links of
// the same purpose for the same account (or invited address): only the latest email works.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import type { AccountTokensTable } from '../../db/tables/platform.js';
import { randomToken, sha256 } from '../../platform/secrets.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type LinkPurpose = 'verify_email' | 'reset_password' | 'signup_invite';
export type Link = AccountTokensTable;

/** How long each kind of link works after it was sent. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  verify_email: 3 * 86_400_000,
  reset_password: 3_600_000,
  signup_invite: 14 * 86_400_000,
};

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** Issues a link for `userId` (null: an invitation to `email`) and returns its token. */
export async function issueLink(
  deps: Deps,
  executor: Executor,
  purpose: LinkPurpose,
  userId: string | null,
  email: string,
): Promise<string> {
  const token = randomToken(32);
  const now = deps.clock.now();
  let earlier = executor.deleteFrom('account_tokens').where('purpose', '=', purpose);
  earlier = userId ? earlier.where('user_id', '=', userId) : earlier.where('email', '=', email.toLowerCase());
  await earlier.execute();
  await executor
    .insertInto('account_tokens')
    .values({
      token_hash: sha256(token),
      purpose,
      user_id: userId,
      email: userId ? email : email.toLowerCase(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_TTL_MS[purpose]).toISOString(),
    })
    .execute();
  return token;
}

/** The unexpired link of this token, without using it (to show the form a link leads to). */
export async function findLink(deps: Deps, purpose: LinkPurpose, token: string): Promise<Link | null> {
  if (!TOKEN.test(token)) return null;
  const row = await deps.db.kysely
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('expires_at', '>', deps.clock.now().toISOString())
    .executeTakeFirst();
  return row ?? null;
}

/** Uses a link: its row, deleted, or null when the token is unknown, used or expired. */
export async function useLink(
  deps: Deps,
  executor: Executor,
  purpose: LinkPurpose,
  token: string,
): Promise<Link | null> {
  if (!TOKEN.test(token)) return null;
  const row = await executor
    .deleteFrom('account_tokens')
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .returningAll()
    .executeTakeFirst();
  return row && row.expires_at > deps.clock.now().toISOString() ? row : null;
}

/** The link as the email shows it, on the service's public URL. */
export function linkUrl(deps: Deps, path: string, token: string): string {
  return `${deps.config.regionUrls.us}${path}?token=${encodeURIComponent(token)}`;
}
