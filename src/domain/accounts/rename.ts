// Renaming an account: the operator changes its username (sign-in, sharing and team pages show the
// new one), and the account is told by email, in the same transaction, so a rename nobody asked for
// is noticed. Usernames are unique without regard to case: a name another account holds, in any
// case, is refused with 409/1026 (the unique index on lower(username) makes that exact under
// concurrent renames and sign-ups); the account's own name in another case is a rename.

import type { Deps } from '../../context.js';
import { usernameKey } from '../../db/account-keys.js';
import { queueEmail } from '../../db/outbox-queue.js';
import { ApiError } from '../../platform/errors.js';
import { refuseLookalike, requireUser, takenError, USERNAME, type User, usernameOf } from './users.js';

export interface Rename {
  id: string;
  from: string;
  to: string;
  /** The id of the email telling the account (null when the name did not change). */
  email_id: string | null;
}

export async function renameUser(deps: Deps, from: string, given: string): Promise<Rename> {
  const to = usernameOf(given);
  await refuseLookalike(deps, to);
  if (!USERNAME.test(to)) throw new ApiError(1002, 'username must be 1-64 letters, digits or _ . @ + -');
  // The exact name first: while names that differ only in case still exist (an upgrade stopped on
  // them), a lookup without regard to case could pick the other twin.
  const user =
    (await deps.db.kysely.selectFrom('users').selectAll().where('username', '=', from).executeTakeFirst()) ??
    (await requireUser(deps, from));
  if (user.username === to) return { id: user.id, from: user.username, to, email_id: null };
  const emailId = await deps.ids.one();
  // A database whose upgrade stopped before the comparison keys were added (on usernames that
  // differ only in case) has no key column yet: the migration fills it after the rename.
  const keyed = (await deps.db.kysely.introspection.getTables()).some(
    (t) => t.name === 'users' && t.columns.some((c) => c.name === 'username_key'),
  );
  const renamed: User = { ...user, username: to };
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set(keyed ? { username: to, username_key: usernameKey(to) } : { username: to })
        .where('id', '=', user.id)
        .execute();
      await queueEmail(deps, trx, {
        id: emailId,
        ownerId: user.id,
        to: user.email,
        subject: 'Your username has changed',
        text: `Hello,

The username of your Survey Service account (${user.email}) has changed from ${user.username} to ${to}.
Sign in with ${to} from now on; your password, surveys and apps are unchanged.

If you did not ask for this, reply to your service's operators.
`,
        purpose: 'username_changed',
        refId: user.id,
      });
    });
  } catch (err) {
    throw takenError(err, renamed);
  }
  return { id: user.id, from: user.username, to, email_id: emailId };
}
