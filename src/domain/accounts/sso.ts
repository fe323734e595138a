// Single sign-on's account rules, the same for OpenID Connect (oidc.ts) and SAML (saml.ts): which
// account a person the provider vouches for becomes, and the state a sign-in keeps between its
// start and the provider's answer. The protocol modules verify the answer with their libraries and
// hand over a VerifiedIdentity; nothing here trusts anything the provider did not sign.
//
// - A known identity (protocol, issuer, subject) signs in to its account.
// - Otherwise an account whose address is the identity's is linked only when the provider says the
//   address is verified AND the account's own address is confirmed; else the sign-in is refused
//   (an unverified claim never takes an account over).
// - Otherwise a new account is made just in time from the verified address and name.
// - OIDC_ALLOWED_DOMAINS limits every one of these to addresses of those domains.
import type { Deps } from '../../context.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { isUniqueViolation } from '../core/unique.js';
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  prepareUser,
  USERNAME,
  type User,
} from './users.js';

export type SsoProtocol = 'oidc' | 'saml';

/** What a provider's verified answer says about a person. */
export interface VerifiedIdentity {
  protocol: SsoProtocol;
  /** the OIDC issuer or the SAML IdP's entity id */
  issuer: string;
  subject: string;
  email: string | null;
  /** OIDC: the `email_verified` claim is true; SAML: the IdP asserted the address (see docs). */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

export type SsoReason =
  | 'not_configured'
  | 'invalid_response'
  | 'expired'
  | 'replayed'
  | 'no_email'
  | 'domain'
  | 'unverified'
  | 'unconfirmed'
  | 'inactive'
  | 'provider_unavailable';

/** A refused single sign-on: the page shows `message` and nothing was changed. */
export class SsoError extends Error {
  constructor(
    readonly reason: SsoReason,
    message: string,
  ) {
    super(message);
  }
}

/** How long a started sign-in may take at the provider. */
export const PENDING_MINUTES = 15;

const MAX_ATTEMPTS = 3;

/** Whether OIDC_ALLOWED_DOMAINS admits this address (any, when it is empty). */
export function domainAllowed(deps: Deps, email: string | null): boolean {
  const allowed = deps.config.sso.allowedDomains;
  if (allowed.length === 0) return true;
  const domain = email?.split('@').pop()?.toLowerCase();
  return !!domain && email!.includes('@') && allowed.includes(domain);
}

/**
 * The account a verified identity signs in to, linked or made as the rules above say. Throws an
 * SsoError (and changes nothing) when the rules refuse it. Concurrent first sign-ins of one person
 * end in one account: the identity's key and the address are unique, and the loser reads the
 * winner's rows.
 */
export async function accountForIdentity(deps: Deps, identity: VerifiedIdentity): Promise<User> {
  const email = identity.email?.trim() || null;
  if (!domainAllowed(deps, email))
    throw new SsoError(
      'domain',
      email
        ? `The address ${email} is not of a domain allowed to sign in here.`
        : 'The provider gave no email address, and only addresses of some domains may sign in here.',
    );
  for (let attempt = 1; ; attempt++) {
    try {
      return await resolve(deps, identity, email);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}

async function resolve(deps: Deps, identity: VerifiedIdentity, email: string | null): Promise<User> {
  const now = deps.clock.now().toISOString();
  const key = { protocol: identity.protocol, issuer: identity.issuer, subject: identity.subject };
  const known = await deps.db.kysely
    .selectFrom('user_identities')
    .select('user_id')
    .where('protocol', '=', key.protocol)
    .where('issuer', '=', key.issuer)
    .where('subject', '=', key.subject)
    .executeTakeFirst();
  if (known) {
    const user = await findUserById(deps, known.user_id);
    if (user?.status !== 'active')
      throw new SsoError('inactive', 'The account of this identity is suspended or deleted.');
    await deps.db.kysely
      .updateTable('user_identities')
      .set({ last_used_at: now, email })
      .where('protocol', '=', key.protocol)
      .where('issuer', '=', key.issuer)
      .where('subject', '=', key.subject)
      .execute();
    return user;
  }
  if (!email) throw new SsoError('no_email', 'The provider gave no email address for this person.');
  const identityRow = { ...key, email, created_at: now, last_used_at: now };
  const existing = await findUserByEmail(deps, email);
  if (existing) {
    if (!identity.emailVerified)
      throw new SsoError(
        'unverified',
        `An account with the address ${email} exists, but the provider does not say this address is verified, so it is not linked.`,
      );
    if (existing.email_verified !== 1)
      throw new SsoError(
        'unconfirmed',
        `An account with the address ${email} exists, but its address is not confirmed. Confirm it from the account's email first, then sign in again.`,
      );
    if (existing.status !== 'active')
      throw new SsoError('inactive', 'The account with this address is suspended or deleted.');
    await deps.db.kysely
      .insertInto('user_identities')
      .values({ ...identityRow, user_id: existing.id })
      .execute();
    return existing;
  }
  if (!identity.emailVerified)
    throw new SsoError('unverified', `The provider does not say the address ${email} is verified.`);
  // Just in time: a new account from the verified address and name. Its password is random and
  // told to no one (a password can be set through "Forgot password?", unless SSO_REQUIRED).
  const user = await prepareUser(
    deps,
    {
      username: await freeUsername(deps, email),
      email,
      password: randomToken(24),
      plan: deps.config.defaultPlan,
      firstName: identity.firstName?.slice(0, 100) || null,
      lastName: identity.lastName?.slice(0, 100) || null,
    },
    { emailVerified: true },
  );
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(user).execute();
    await trx
      .insertInto('user_identities')
      .values({ ...identityRow, user_id: user.id })
      .execute();
  });
  return user;
}

/** The address as username when it is a valid one and free; else its local part, numbered. */
async function freeUsername(deps: Deps, email: string): Promise<string> {
  const local =
    email
      .split('@')[0]
      .replace(/[^A-Za-z0-9_.+-]/g, '')
      .slice(0, 50) || 'user';
  const candidates = [email, local, `${local}-${randomToken(3).replace(/[^A-Za-z0-9]/g, '')}`];
  for (const name of candidates) {
    if (!USERNAME.test(name)) continue;
    if (!(await findUserByUsername(deps, name))) return name;
  }
  return `${local}-${randomToken(6).replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64);
}

/** What a sign-in keeps until the provider answers. */
export interface Pending {
  nonce: string | null;
  codeVerifier: string | null;
  next: string;
}

/** Records a started sign-in under `id` (OIDC: its state; SAML: the AuthnRequest ID). */
export async function savePending(
  deps: Deps,
  protocol: SsoProtocol,
  id: string,
  browser: string | null,
  pending: Pending,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.kysely.deleteFrom('sso_pending').where('expires_at', '<=', now.toISOString()).execute();
  await deps.db.kysely
    .insertInto('sso_pending')
    .values({
      id: pendingKey(protocol, id),
      protocol,
      browser_hash: browser ? sha256(browser) : null,
      nonce: pending.nonce,
      code_verifier: pending.codeVerifier,
      next: pending.next,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PENDING_MINUTES * 60_000).toISOString(),
    })
    .execute();
}

/** Whether a started sign-in `id` is waiting (SAML's InResponseTo check before the library's). */
export async function pendingCreatedAt(
  deps: Deps,
  protocol: SsoProtocol,
  id: string,
): Promise<string | null> {
  const row = await deps.db.kysely
    .selectFrom('sso_pending')
    .select(['created_at', 'expires_at'])
    .where('id', '=', pendingKey(protocol, id))
    .executeTakeFirst();
  return row && row.expires_at > deps.clock.now().toISOString() ? row.created_at : null;
}

/**
 * Takes a started sign-in, once: one atomic delete, so of two callbacks with the same state only
 * one gets it, on any process. `browser` must be the cookie that started it when one was saved.
 */
export async function takePending(
  deps: Deps,
  protocol: SsoProtocol,
  id: string,
  browser: string | null,
): Promise<Pending> {
  const row = await deps.db.kysely
    .deleteFrom('sso_pending')
    .where('id', '=', pendingKey(protocol, id))
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= deps.clock.now().toISOString())
    throw new SsoError(
      'expired',
      'This sign-in is unknown, was already used or took too long. Start again from the sign-in page.',
    );
  if (row.browser_hash && (!browser || sha256(browser) !== row.browser_hash))
    throw new SsoError(
      'invalid_response',
      'This sign-in was started in another browser. Start again from the sign-in page.',
    );
  return { nonce: row.nonce, codeVerifier: row.code_verifier, next: row.next };
}

function pendingKey(protocol: SsoProtocol, id: string): string {
  return `${protocol}:${sha256(id)}`;
}

/**
 * Marks a SAML assertion used until it expires: a unique key, so a second use, by any process,
 * concurrently or later, is refused.
 */
export async function useOnce(deps: Deps, issuer: string, assertionId: string, until: Date): Promise<void> {
  const now = deps.clock.now();
  await deps.db.kysely.deleteFrom('sso_replays').where('expires_at', '<=', now.toISOString()).execute();
  // Kept at least as long as a pending sign-in, whatever the assertion says.
  const floor = new Date(now.getTime() + PENDING_MINUTES * 60_000);
  try {
    await deps.db.kysely
      .insertInto('sso_replays')
      .values({
        id: sha256(`${issuer}\n${assertionId}`),
        expires_at: (until > floor ? until : floor).toISOString(),
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err))
      throw new SsoError(
        'replayed',
        'This sign-in response was already used. Start again from the sign-in page.',
      );
    throw err;
  }
}
