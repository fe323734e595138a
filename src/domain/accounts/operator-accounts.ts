// The operator's view of the accounts (/operator/accounts): a searchable, paged list, and changes of
// an account's plan, state and operator flag. Each change is an `account_updated` event (the
// activity of the account's team, else the operator's). Rules: an operator cannot change their own
// state (they would lock themselves out), and no change leaves no active operator (a suspended
// operator cannot sign in, so suspending the last other one counts as removing them).

import { type SqlBool, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { isPlan, PLANS } from '../../platform/plans.js';
import { recordEvent } from '../core/events.js';
import { setSendLimit } from '../limits/send-limit.js';
import { keepAnActiveOperator, lockActiveOperators, type User } from './users.js';

/** The states an operator sets here; `deleted` (closing for good) stays with the command line. */
export const OPERATOR_STATES = ['active', 'soft_deleted'] as const;

export interface AccountListItem {
  id: string;
  username: string;
  email: string;
  account_type: string;
  status: string;
  date_created: string;
  operator: boolean;
  /** the operator's daily send cap for the account (0 = no cap); null: the server's caps */
  send_limit: number | null;
}

export const ACCOUNTS_PER_PAGE = 25;

/** Accounts whose username or email contains `search` (any case), newest first, one page. */
export async function listAccounts(
  deps: Deps,
  search: string,
  page: number,
): Promise<{ total: number; items: AccountListItem[] }> {
  // LIKE's wildcards (and its escape character) in the search are matched as themselves.
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let base = deps.db.kysely.selectFrom('users as u');
  if (search !== '')
    base = base.where(
      sql<SqlBool>`(lower(u.username) like ${pattern} escape '\\' or lower(u.email) like ${pattern} escape '\\')`,
    );
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('operators as o', 'o.user_id', 'u.id')
    .leftJoin('send_limits as l', 'l.user_id', 'u.id')
    .select([
      'u.id',
      'u.username',
      'u.email',
      'u.account_type',
      'u.status',
      'u.date_created',
      'o.user_id as op',
      'l.per_day as send_limit',
    ])
    .orderBy('u.date_created', 'desc')
    .orderBy('u.id', 'desc')
    .limit(ACCOUNTS_PER_PAGE)
    .offset((page - 1) * ACCOUNTS_PER_PAGE)
    .execute();
  return {
    total: Number(total),
    items: rows.map(({ op, send_limit, ...r }) => ({
      ...r,
      operator: op !== null,
      send_limit: send_limit === null ? null : Number(send_limit),
    })),
  };
}

export interface AccountChange {
  plan?: string;
  state?: string;
  operator?: boolean;
  /** the account's daily send cap: a whole number (0 = no cap), or null for the server's caps */
  sendLimit?: number | null;
}

/** Applies `change` to the account `targetId` as `actor` (an operator); returns what changed. */
export async function changeAccount(
  deps: Deps,
  actor: Pick<User, 'id'>,
  targetId: string,
  change: AccountChange,
  ip: string | null,
): Promise<string[]> {
  if (change.plan !== undefined && !isPlan(change.plan))
    throw new ApiError(1002, `"${change.plan}" is not a plan: choose one of ${PLANS.join(', ')}.`);
  if (change.state !== undefined && !(OPERATOR_STATES as readonly string[]).includes(change.state))
    throw new ApiError(
      1002,
      `"${change.state}" is not a state: choose one of ${OPERATOR_STATES.join(', ')}.`,
    );
  const eventIds = await deps.ids.take(4); // one per field, reserved before the transaction
  return deps.db.kysely.transaction().execute(async (trx) => {
    // The lock first: what is read below is what the other changes of operators left.
    const active = await lockActiveOperators(deps, trx);
    if (!active.includes(actor.id)) throw new ApiError(1016, 'You are no longer an active operator.');
    const user = await trx.selectFrom('users').selectAll().where('id', '=', targetId).executeTakeFirst();
    if (!user) throw new ApiError(1020, `There is no account ${targetId}.`);
    const wasOperator = !!(await trx
      .selectFrom('operators')
      .select('user_id')
      .where('user_id', '=', targetId)
      .executeTakeFirst());
    const diffs: Array<[field: string, old: string, next: string]> = [];
    if (change.plan !== undefined && change.plan !== user.account_type) {
      await trx.updateTable('users').set({ account_type: change.plan }).where('id', '=', targetId).execute();
      diffs.push(['plan', user.account_type, change.plan]);
    }
    if (change.state !== undefined && change.state !== user.status) {
      if (targetId === actor.id) throw new ApiError(1002, 'You cannot change the state of your own account.');
      await trx.updateTable('users').set({ status: change.state }).where('id', '=', targetId).execute();
      diffs.push(['state', user.status, change.state]);
    }
    if (change.operator !== undefined && change.operator !== wasOperator) {
      if (change.operator)
        await trx
          .insertInto('operators')
          .values({ user_id: targetId, created_at: deps.clock.now().toISOString() })
          .execute();
      else await trx.deleteFrom('operators').where('user_id', '=', targetId).execute();
      diffs.push(['operator flag', wasOperator ? 'yes' : 'no', change.operator ? 'yes' : 'no']);
    }
    if (change.sendLimit !== undefined) {
      const old = await trx
        .selectFrom('send_limits')
        .select('per_day')
        .where('user_id', '=', targetId)
        .executeTakeFirst();
      const was = old ? Number(old.per_day) : null;
      if (was !== change.sendLimit) {
        await setSendLimit(deps, targetId, change.sendLimit, trx);
        const words = (v: number | null) => (v === null ? 'server default' : v === 0 ? 'no cap' : String(v));
        diffs.push(['daily send cap', words(was), words(change.sendLimit)]);
      }
    }
    await keepAnActiveOperator(trx, active, user);
    const team = await trx
      .selectFrom('team_members')
      .select('team_id')
      .where('user_id', '=', targetId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    for (const [i, [field, old, next]] of diffs.entries())
      await recordEvent(deps, trx, eventIds[i], {
        type: 'account_updated',
        ownerId: targetId,
        actorId: actor.id,
        resourceType: 'user',
        resourceId: targetId,
        ip,
        groupId: team?.team_id,
        data: { member: user.username, field, old, new: next },
      });
    return diffs.map(([field, , next]) => `${field} ${next}`);
  });
}
