// Passkeys (WebAuthn) as a second factor, through `@simplewebauthn/server`. No challenge is kept on
// a server: each is a random value signed with its purpose, the account (and, at sign-in, the
// pending password step) and the instant it was issued, checked by signature and age. At sign-in
// the challenge's issue time is claimed by one conditional UPDATE (`passkey_last_challenge_at`
// must be older), so an assertion is accepted once, on any server, even posted concurrently.
//
// The relying party is the host of the datacenter the page was served on (PUBLIC_URL, _EU, _CA):
// an assertion whose origin is another host, or another scheme, is refused. The port is not
// compared: a passkey is scoped by the browser to the host (the RP ID) already.
import type * as WebAuthn from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Deps } from '../../context.js';
import { ApiError, errorMessage } from '../../platform/errors.js';
import { parseAs, StringList } from '../../platform/json.js';
import { randomToken } from '../../platform/secrets.js';
import { endOtherSessions } from './sessions.js';
import { type Pending, type SecondFactor, turnOnWith, twoFactorRow } from './two-factor.js';
import type { User } from './users.js';

const REGISTER = 'passkey-register';
const SIGN_IN = 'passkey-sign-in';
/** How long a challenge is honoured. */
const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'Survey Service';
/** The library loads on the first passkey step: importing it took 0.6 s of CPU, most of what
 * `serve` spent loading libraries before its first answer. */
const webauthn = (): Promise<typeof WebAuthn> => import('@simplewebauthn/server');
export const MAX_PASSKEYS = 10;

export interface RelyingParty {
  /** The RP ID: the host name of the datacenter the page was served on. */
  id: string;
  /** Its scheme, `https:` (or `http:` for a local server). */
  protocol: string;
}

/** The relying party for a request sent to `host` (a Host header): the datacenter whose public
 * URL has that host name, else the default one. */
export function relyingParty(deps: Deps, host: string | undefined): RelyingParty {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  const urls = Object.values(deps.config.regionUrls).map((u) => new URL(u));
  const url = urls.find((u) => u.hostname === name) ?? new URL(deps.config.regionUrls.us);
  return { id: url.hostname, protocol: url.protocol };
}

/** The origin the browser reported in the response, when it is the relying party's host. */
function checkedOrigin(rp: RelyingParty, clientDataJSON: string): string {
  let origin: string;
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    origin = typeof data === 'object' && data && 'origin' in data ? String(data.origin) : '';
    const url = new URL(origin);
    if (url.hostname === rp.id && url.protocol === rp.protocol) return origin;
  } catch {
    // refused below
  }
  throw new ApiError(1002, 'The passkey answered for another site.');
}

function challenge(deps: Deps, purpose: string, bound: string): string {
  const r = randomToken(18);
  return `${r}~${deps.secrets.signAt(purpose, `${bound}:${r}`, deps.clock.now().getTime())}`;
}

/** The issue time of a challenge this server signed for `purpose` and `bound`, or null. */
function challengeIssued(deps: Deps, purpose: string, bound: string, encoded: string): number | null {
  const text = Buffer.from(encoded, 'base64url').toString('utf8');
  const [r, proof] = text.split('~');
  if (!r || !proof) return null;
  const ok = deps.secrets.verifyAt(purpose, `${bound}:${r}`, proof, deps.clock.now().getTime(), CHALLENGE_MS);
  return ok ? Number.parseInt(proof.split('.')[0], 36) : null;
}

async function passkeysOf(deps: Deps, userId: string) {
  return deps.db.kysely.selectFrom('passkeys').selectAll().where('user_id', '=', userId).execute();
}

const transportsOf = (json: string): string[] => parseAs(StringList, json);

/** The options for `navigator.credentials.create` (the browser library's startRegistration). */
export async function passkeyRegistrationOptions(deps: Deps, user: User, rp: RelyingParty) {
  const existing = await passkeysOf(deps, user.id);
  return (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.username,
    userID: new TextEncoder().encode(user.id),
    challenge: challenge(deps, REGISTER, user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/**
 * Registers the passkey the browser created (its JSON answer to the options above). Returns the
 * new recovery codes when this turned two-factor sign-in on (and then ends the account's other
 * sessions), else null.
 */
export async function addPasskey(
  deps: Deps,
  user: User,
  rp: RelyingParty,
  responseJson: string,
  name: string,
  keepSessionId: string | null,
): Promise<string[] | null> {
  const response = parseResponse<RegistrationResponseJSON>(responseJson);
  const label = name.trim().slice(0, 100) || 'Passkey';
  const existing = await passkeysOf(deps, user.id);
  if (existing.length >= MAX_PASSKEYS)
    throw new ApiError(1025, `An account can have ${MAX_PASSKEYS} passkeys at most.`);
  let verified: Awaited<ReturnType<typeof WebAuthn.verifyRegistrationResponse>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: (c) => challengeIssued(deps, REGISTER, user.id, c) !== null,
      expectedOrigin: checkedOrigin(rp, response.response.clientDataJSON),
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(1002, `The passkey could not be registered: ${errorMessage(err)}`);
  }
  if (!verified.verified) throw new ApiError(1002, 'The passkey could not be registered.');
  const { credential } = verified.registrationInfo;
  const now = deps.clock.now().toISOString();
  const hadFactor =
    existing.length > 0 ||
    !!(await deps.db.kysely
      .selectFrom('user_two_factor')
      .select('user_id')
      .where('user_id', '=', user.id)
      .where('totp_secret', 'is not', null)
      .executeTakeFirst());
  let codes: string[] | null = null;
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('user_two_factor')
        .values(twoFactorRow(user.id, now))
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      await trx
        .insertInto('passkeys')
        .values({
          id: credential.id,
          user_id: user.id,
          name: label,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: JSON.stringify(credential.transports ?? []),
          created_at: now,
          last_used_at: null,
        })
        .execute();
      if (!hadFactor) codes = await turnOnWith(deps, trx, user.id);
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (/unique|duplicate/i.test(errorMessage(err)))
      throw new ApiError(1026, 'This passkey is registered already.');
    throw err;
  }
  if (codes) await endOtherSessions(deps, user.id, keepSessionId);
  return codes;
}

/** The options for `navigator.credentials.get` at the second-factor step of `pending`. */
export async function passkeySignInOptions(deps: Deps, pending: Pending, rp: RelyingParty) {
  const keys = await passkeysOf(deps, pending.user.id);
  return (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    challenge: challenge(deps, SIGN_IN, `${pending.user.id}:${pending.nonce}`),
    userVerification: 'preferred',
  });
}

/** Checks a passkey's answer at the second-factor step: a passkey of the account, signed over a
 * challenge of this pending step that was not used before. */
export async function verifyPasskeySignIn(
  deps: Deps,
  pending: Pending,
  rp: RelyingParty,
  responseJson: string,
): Promise<SecondFactor | null> {
  let response: AuthenticationResponseJSON;
  try {
    response = parseResponse<AuthenticationResponseJSON>(responseJson);
  } catch {
    return null;
  }
  const bound = `${pending.user.id}:${pending.nonce}`;
  const key = await deps.db.kysely
    .selectFrom('passkeys')
    .selectAll()
    .where('id', '=', response.id)
    .where('user_id', '=', pending.user.id)
    .executeTakeFirst();
  if (!key) return null;
  let issued: number | null = null;
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: (c) => {
        issued = challengeIssued(deps, SIGN_IN, bound, c);
        return issued !== null;
      },
      expectedOrigin: checkedOrigin(rp, response.response.clientDataJSON),
      expectedRPID: rp.id,
      credential: {
        id: key.id,
        publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
        counter: Number(key.counter),
        transports: transportsOf(key.transports),
      },
      requireUserVerification: false,
    });
    if (!result.verified || issued === null) return null;
    const at = new Date(issued).toISOString();
    const k = deps.db.kysely;
    const claimed = await k
      .updateTable('user_two_factor')
      .set({ passkey_last_challenge_at: at })
      .where('user_id', '=', pending.user.id)
      .where((eb) =>
        eb.or([eb('passkey_last_challenge_at', 'is', null), eb('passkey_last_challenge_at', '<', at)]),
      )
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) return null;
    await k
      .updateTable('passkeys')
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: deps.clock.now().toISOString() })
      .where('id', '=', key.id)
      .execute();
    return 'passkey';
  } catch {
    return null;
  }
}

/** A browser library's JSON answer, shaped enough to hand to the verifier (which checks the rest). */
function parseResponse<T extends { id: string; response: { clientDataJSON: string } }>(json: string): T {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ApiError(1002, 'The passkey answer is not valid.');
  }
  const ok =
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'response' in value &&
    typeof value.response === 'object' &&
    value.response !== null &&
    'clientDataJSON' in value.response &&
    typeof value.response.clientDataJSON === 'string';
  if (!ok) throw new ApiError(1002, 'The passkey answer is not valid.');
  return value as T;
}
