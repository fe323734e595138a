// The daily send cap: how many recipients one account may mail in 24 hours through invitations,
// reminders, thank-you messages and test sends. An open sign-up must not make the server an open
// relay, so every account is capped by default (SEND_LIMIT_NEW_ACCOUNT_PER_DAY in its first
// SEND_LIMIT_NEW_ACCOUNT_DAYS days, SEND_LIMIT_PER_DAY after), beside its plan's SEND_LIMIT_<PLAN>;
// an operator may set one account's cap, which replaces both. A send that would pass the cap is
// refused whole (nothing of it is queued), and the operators hear of it once per account a day.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import { queueEmail } from '../../db/outbox-queue.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { isPlan } from '../../platform/plans.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The emails counted against the cap: those an account's own text reaches strangers with. */
export const COUNTED_PURPOSES = ['invite', 'reminder', 'thank_you', 'test'] as const;

const DAY_MS = 86_400_000;
const ALERT_PURPOSE = 'send_cap_alert';

export interface SendCap {
  /** recipients in 24 hours */
  perDay: number;
  /** where it comes from, in words */
  source: string;
}

/** A send refused by the cap (403/1017, the quota error). */
export class SendCapError extends ApiError {
  constructor(
    readonly ownerId: string,
    readonly cap: SendCap,
    readonly used: number,
    readonly attempted: number,
  ) {
    super(
      1017,
      `This send would pass the account's daily send cap of ${cap.perDay} recipients (${cap.source}): ${used} were mailed in the last 24 hours and this send has ${attempted}. Nothing was sent. Ask the operator of this server to raise the cap.`,
    );
  }
}

/** The operator's cap for the account (0 = no cap), or null when the server's caps apply. */
export async function sendLimitOf(deps: Deps, userId: string, executor: Executor = deps.db.kysely) {
  const row = await executor
    .selectFrom('send_limits')
    .select('per_day')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? row.per_day : null;
}

/** Sets (a whole number, 0 = no cap) or clears (null: the server's caps) an account's cap. */
export async function setSendLimit(deps: Deps, userId: string, perDay: number | null, executor?: Executor) {
  const k = executor ?? deps.db.kysely;
  if (perDay !== null && !(Number.isInteger(perDay) && perDay >= 0 && perDay <= 1_000_000_000))
    throw new ApiError(1002, 'A daily send cap is a whole number of recipients (0 = no cap).');
  if (perDay === null) {
    await k.deleteFrom('send_limits').where('user_id', '=', userId).execute();
    return;
  }
  const set_at = deps.clock.now().toISOString();
  await k
    .insertInto('send_limits')
    .values({ user_id: userId, per_day: perDay, set_at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ per_day: perDay, set_at }))
    .execute();
}

/** The cap that holds for the account now (the lowest of those that apply), or null: no cap. */
export async function dailySendCap(
  deps: Deps,
  account: { id: string; account_type: string; date_created: string },
  executor: Executor = deps.db.kysely,
): Promise<SendCap | null> {
  const set = await sendLimitOf(deps, account.id, executor);
  if (set !== null) return set === 0 ? null : { perDay: set, source: 'set for this account by the operator' };
  const caps: SendCap[] = [];
  const plan = account.account_type;
  const planCap = isPlan(plan) ? deps.config.invitationLimits.dailySends[plan] : 0;
  if (planCap > 0) caps.push({ perDay: planCap, source: `the ${plan} plan's cap` });
  const limits = deps.config.sendLimits;
  const age = deps.clock.now().getTime() - Date.parse(account.date_created);
  const isNew = limits.newAccountDays > 0 && age < limits.newAccountDays * DAY_MS;
  const ageCap = isNew ? limits.newAccountPerDay : limits.perDay;
  if (ageCap > 0)
    caps.push({
      perDay: ageCap,
      source: isNew
        ? `the cap of an account in its first ${limits.newAccountDays} days`
        : "this server's cap",
    });
  return caps.length ? caps.reduce((a, b) => (b.perDay < a.perDay ? b : a)) : null;
}

/** Recipients the account mailed in the 24 hours before now (counted emails). */
export async function sentToday(deps: Deps, ownerId: string, executor: Executor = deps.db.kysely) {
  const since = new Date(deps.clock.now().getTime() - DAY_MS).toISOString();
  const { n } = await executor
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('purpose', 'in', [...COUNTED_PURPOSES])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Inside the transaction that queues `count` counted emails for `ownerId`: holds the account's row
 * (so concurrent sends of the account count one after another until this one commits) and throws
 * SendCapError when they would pass the cap.
 */
export async function reserveSends(deps: Deps, trx: Transaction<Database>, ownerId: string, count: number) {
  await lockRow(deps.db, trx, 'users', ownerId);
  const account = await trx
    .selectFrom('users')
    .select(['id', 'account_type', 'date_created'])
    .where('id', '=', ownerId)
    .executeTakeFirst();
  if (!account) throw new ApiError(1020, 'The account does not exist.');
  const cap = await dailySendCap(deps, account, trx);
  if (cap === null) return;
  const used = await sentToday(deps, ownerId, trx);
  if (used + count > cap.perDay) throw new SendCapError(ownerId, cap, used, count);
}

/**
 * After a send was refused by the cap: a warning in the log and the metric, and, once per account
 * in 24 hours, an email to every operator through the outbox (a spike is what an abused account
 * looks like; the operator decides whether to raise its cap or suspend it).
 */
export async function reportRefusedSend(deps: Deps, err: SendCapError): Promise<void> {
  deps.metrics.sendsRefused.inc();
  deps.log.warn(
    { account: err.ownerId, cap: err.cap.perDay, used: err.used, attempted: err.attempted },
    'send refused: it would pass the account daily send cap',
  );
  const k = deps.db.kysely;
  const operators = await k
    .selectFrom('operators as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select('u.email')
    .where('u.status', '=', 'active')
    .execute();
  const account = await k
    .selectFrom('users')
    .select(['username', 'email', 'date_created'])
    .where('id', '=', err.ownerId)
    .executeTakeFirst();
  if (operators.length === 0 || !account) return;
  const ids = await deps.ids.take(operators.length);
  const now = deps.clock.now();
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  // Printable text only: a username may hold anything USERNAME allows, and it goes in a subject.
  const who = account.username.replace(/[^\x20-\x7e]/g, '?');
  const page = `${deps.config.regionUrls.us}/operator/accounts?q=${encodeURIComponent(account.username)}`;
  await k.transaction().execute(async (trx) => {
    await lockRow(deps.db, trx, 'users', err.ownerId);
    const already = await trx
      .selectFrom('emails')
      .select('id')
      .where('purpose', '=', ALERT_PURPOSE)
      .where('ref_id', '=', err.ownerId)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    if (already) return;
    for (const [i, o] of operators.entries())
      await queueEmail(deps, trx, {
        id: ids[i],
        ownerId: null,
        to: o.email,
        subject: `Send cap reached by account ${who}`,
        text: `The account ${who} (id ${err.ownerId}, ${account.email}, created ${account.date_created.slice(0, 10)}) tried to mail ${err.attempted} recipient(s) with ${err.used} already mailed in the last 24 hours, past its daily send cap of ${err.cap.perDay} (${err.cap.source}). The send was refused whole; nothing of it was queued.

If this is a team's real use, raise the account's cap on ${page}
(or: survey-service user update --username ${who} --send-limit N).
If it is not, suspend the account there.

You get this email once per account a day; later refusals are counted in survey_mail_sends_refused_total.
`,
        purpose: ALERT_PURPOSE,
        refId: err.ownerId,
      });
  });
}
