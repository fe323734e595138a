// Self-service sign-up, as SIGNUP_MODE allows: `open` (anyone), `invite-only` (the holder of a
// sign-up invitation link, which an operator sends with `survey-service user invite`), or
// `closed`. The account is created by the same function as `user create`, unverified: its
// address is verified by the link emailed in the same transaction (an invitation link already
// proved the address, so that account starts verified). Sign-ups are throttled per client address.
// An address that already has an account is answered as a free one would be (the sign-up page
// does not tell who has an account); nothing is created and the address's owner is told by email.
import type { Deps } from '../../context.js';
import { queueEmail } from '../../db/outbox-queue.js';
import { addressKey } from '../../platform/addresses.js';
import { ApiError } from '../../platform/errors.js';
import { type Policy, type Refusal, reserveAttempt } from '../limits/attempts.js';
import { findLink, issueLink, LINK_TTL_MS, linkUrl, useLink } from './links.js';
import { FORGOT_PATH } from './password-reset.js';
import {
  checkEmail,
  checkNewUser,
  clashOn,
  findUserByEmail,
  findUserByUsername,
  prepareUser,
  refuseLookalike,
  takenError,
  type User,
} from './users.js';
import { queueVerification } from './verification.js';

export const SIGNUP_PATH = '/signup';
/** Sign-ups from one client address within the attempts window (an hour). */
export const SIGNUP_POLICY: Policy = { slowAfter: 5, lockAt: 20 };

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
  /** the token of a sign-up invitation link (required when invite-only) */
  invite?: string;
}

/** Emails to an address's owner about sign-ups with it (more are dropped, not queued). */
const NOTICE_POLICY: Policy = { slowAfter: 3, lockAt: 5 };

export type SignUpResult =
  /** `user` null: the address had an account, whose owner was told; nothing was created */
  | { ok: true; user: User | null }
  | { ok: false; reason: 'closed' | 'invitation' }
  | { ok: false; reason: Refusal['reason']; retryAfterSeconds: number };

/** The address a sign-up invitation token was sent to, or null when it is unknown, used or expired. */
export async function invitedAddress(deps: Deps, token: string): Promise<string | null> {
  return (await findLink(deps, 'signup_invite', token))?.email ?? null;
}

/**
 * Creates an account. Invalid input throws 400/1002; a username in use throws 409/1026 (a unique
 * constraint decides, so concurrent sign-ups cannot both take one). An address in use creates
 * nothing and answers like a new account ({ ok: true, user: null }); with an invitation it throws
 * 409/1026 (the invitation's holder owns the address).
 */
export async function signUp(deps: Deps, input: SignUpInput, ip: string | null): Promise<SignUpResult> {
  const mode = deps.config.signupMode;
  if (mode === 'closed') return { ok: false, reason: 'closed' };
  const invited = input.invite ? await invitedAddress(deps, input.invite) : null;
  if (mode === 'invite-only' && !invited) return { ok: false, reason: 'invitation' };
  // An invitation is for the address it was sent to.
  const email = invited ?? input.email.trim();
  const fields = { username: input.username.trim(), email, password: input.password };
  await refuseLookalike(deps, fields.username);
  checkNewUser(fields);
  if (ip) {
    const refused = await reserveAttempt(deps, [[`signup-ip:${addressKey(ip)}`, SIGNUP_POLICY]]);
    if (refused) return { ok: false, ...refused };
  }
  const user = await prepareUser(
    deps,
    { ...fields, plan: deps.config.defaultPlan },
    { emailVerified: !!invited },
  );
  const emailId = await deps.ids.one();
  let created: boolean;
  try {
    created = await deps.db.kysely.transaction().execute(async (trx) => {
      if (invited && !(await useLink(deps, trx, 'signup_invite', input.invite!))) return false;
      await trx.insertInto('users').values(user).execute();
      if (!invited) await queueVerification(deps, trx, user, emailId);
      return true;
    });
  } catch (err) {
    if (invited || clashOn(err) !== 'email') throw takenError(err, user);
    // The username may be taken as well (the database names one violation): that one is said.
    if (await findUserByUsername(deps, user.username))
      throw new ApiError(1026, `username ${user.username} is taken`);
    await noticeToOwner(deps, email, emailId);
    return { ok: true, user: null };
  }
  // The invitation was used by a concurrent sign-up between the check and the transaction.
  if (!created) return { ok: false, reason: 'invitation' };
  return { ok: true, user };
}

/** Tells an address's owner that someone tried to sign up with it (a few an hour at most). */
async function noticeToOwner(deps: Deps, email: string, emailId: string): Promise<void> {
  const owner = await findUserByEmail(deps, email);
  if (!owner) return;
  if (await reserveAttempt(deps, [[`signup-notice:${owner.id}`, NOTICE_POLICY]])) return;
  await queueEmail(deps, deps.db.kysely, {
    id: emailId,
    ownerId: owner.id,
    to: owner.email,
    subject: 'Someone tried to sign up with your address',
    text: `Hello ${owner.username},

Someone tried to create a Survey Service account with your address, ${owner.email}. It already
belongs to your account, so no account was created.

If it was you: sign in with your username, ${owner.username}. If you forgot your password, ask for
a new one here:

${deps.config.regionUrls.us}${FORGOT_PATH}

If it was not you, you can ignore this email: nothing about your account has changed.
`,
    purpose: 'signup_notice',
    refId: owner.id,
  });
}

/** Emails a sign-up invitation link to `email` and returns the link (the operator's `user invite`). */
export async function inviteToSignUp(deps: Deps, email: string): Promise<string> {
  const address = email.trim();
  checkEmail(address);
  if (deps.config.signupMode === 'closed')
    throw new ApiError(1025, 'sign-up is closed (SIGNUP_MODE=closed): an invitation could not be used');
  const emailId = await deps.ids.one();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const url = linkUrl(deps, SIGNUP_PATH, await issueLink(deps, trx, 'signup_invite', null, address));
    await queueEmail(deps, trx, {
      id: emailId,
      ownerId: null,
      to: address,
      subject: 'You are invited to Survey Service',
      text: `Hello,

You are invited to create an account on Survey Service. Open this link to choose a username
and a password:

${url}

The link works once and for ${LINK_TTL_MS.signup_invite / 86_400_000} days.
`,
      purpose: 'signup_invite',
    });
    return url;
  });
}
