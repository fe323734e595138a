// Accounts and apps: user and app verbs (provisioning, operator review and lifecycle).
import { InvalidArgumentError, Option } from 'commander';
import { ApiError, errorMessage } from '../platform/errors.js';
import { PLANS } from '../platform/plans.js';
import { parseScopeList } from '../platform/scopes.js';
import { type Commands, collect, print, verbGroup, wholeNumber, withDeps } from './common.js';

/** The domain the user and app verbs call, loaded when one runs. */
const domain = async () => ({
  ...(await import('../domain/accounts/apps.js')),
  ...(await import('../domain/accounts/grants.js')),
  ...(await import('../domain/accounts/lifecycle.js')),
  ...(await import('../domain/accounts/rename.js')),
  ...(await import('../domain/accounts/signup.js')),
  ...(await import('../domain/accounts/two-factor.js')),
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/limits/send-limit.js')),
});

/** --send-limit: a whole number of recipients a day (0 = no cap), or `default` (the server's caps). */
function sendLimit(value: string): number | 'default' {
  if (value === 'default') return value;
  if (!/^[0-9]{1,9}$/.test(value))
    throw new InvalidArgumentError('must be a whole number of recipients (0 = no cap) or "default"');
  return Number(value);
}

export const accountCommands: Commands = (program) => {
  const user = verbGroup(program, 'user', 'manage user accounts');
  user
    .command('create')
    .description('create a user account')
    .requiredOption('--username <username>')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>')
    .addOption(new Option('--plan <plan>', 'the account type').choices(PLANS).default('basic'))
    .addOption(new Option('--region <region>', 'the datacenter').choices(['us', 'eu', 'ca']).default('us'))
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--language <code>', 'ISO 639-1 account language', 'en')
    .option('--operator', 'the user operates the service (reviews apps, manages their lifecycle)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('user create', async (deps) => {
        const { createUser, setOperator } = await domain();
        const created = await createUser(deps, {
          username: opts.username,
          email: opts.email,
          password: opts.password,
          plan: opts.plan,
          region: opts.region,
          firstName: opts.firstName,
          lastName: opts.lastName,
          language: opts.language,
        });
        if (opts.operator) await setOperator(deps, created.id, true);
        print(
          !!opts.json,
          { id: created.id, username: created.username, ...(opts.operator ? { operator: true } : {}) },
          `created user ${created.username} (id ${created.id})`,
        );
      }),
    );
  user
    .command('invite')
    .description('email a sign-up invitation link (how accounts are made when SIGNUP_MODE=invite-only)')
    .requiredOption('--email <email>')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('user invite', async (deps) => {
        const { inviteToSignUp } = await domain();
        const url = await inviteToSignUp(deps, opts.email);
        print(!!opts.json, { email: opts.email, url }, `invited ${opts.email}: ${url}`);
      }),
    );
  user
    .command('update')
    .description("change a user's plan, region or state")
    .requiredOption('--username <username>')
    .addOption(new Option('--plan <plan>').choices(PLANS))
    .addOption(new Option('--region <region>').choices(['us', 'eu', 'ca']))
    .addOption(
      new Option('--state <state>', 'soft_deleted and deleted accounts stop working').choices([
        'active',
        'soft_deleted',
        'deleted',
      ]),
    )
    .option('--operator', 'flag the user as an operator')
    .option('--no-operator', 'remove the operator flag')
    .option(
      '--send-limit <n>',
      'recipients the user may mail a day (0 = no cap; "default" = the SEND_LIMIT_* caps)',
      sendLimit,
    )
    .option(
      '--reset-2fa',
      "remove the user's two-factor sign-in (authenticator app, passkeys, recovery codes) and end their sessions, for a user who lost them",
    )
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('user update', async (deps) => {
        const { updateUser, isOperator, setSendLimit, sendLimitOf, resetTwoFactor } = await domain();
        const updated = await updateUser(deps, opts.username, {
          plan: opts.plan,
          region: opts.region,
          state: opts.state,
          operator: opts.operator,
        });
        if (opts.sendLimit !== undefined)
          await setSendLimit(deps, updated.id, opts.sendLimit === 'default' ? null : opts.sendLimit);
        const reset = opts.reset2fa ? await resetTwoFactor(deps, updated.id) : undefined;
        const operator = await isOperator(deps, updated.id);
        const cap = await sendLimitOf(deps, updated.id);
        print(
          !!opts.json,
          {
            id: updated.id,
            username: updated.username,
            account_type: updated.account_type,
            region: updated.region,
            state: updated.status,
            operator,
            send_limit: cap,
            ...(reset === undefined ? {} : { two_factor_reset: reset }),
          },
          `updated user ${updated.username}: plan ${updated.account_type}, region ${updated.region}, state ${updated.status}${operator ? ', operator' : ''}${cap === null ? '' : `, send cap ${cap === 0 ? 'none' : `${cap} a day`}`}${reset === undefined ? '' : reset ? ', two-factor sign-in reset' : ', two-factor sign-in was off'}`,
        );
      }),
    );

  user
    .command('rename')
    .description(
      'change a username (refused when another account has it, in any case); the account is told by email',
    )
    .requiredOption('--from <username>', 'the current username')
    .requiredOption('--to <username>', 'the new username')
    .option('--json', 'print one JSON object')
    .action(async (opts: { from: string; to: string; json?: boolean }) =>
      withDeps(
        'user rename',
        async (deps) => {
          const { renameUser } = await domain();
          const r = await renameUser(deps, opts.from, opts.to);
          print(
            !!opts.json,
            { ...r },
            r.email_id
              ? `renamed ${r.from} to ${r.to}; the account is told by email`
              : `${r.to} is already the username`,
          );
        },
        // Without migrating first: this is the way out of an upgrade stopped by usernames that
        // differ only in case, which migrating would refuse again.
        { migrate: false },
      ),
    );

  const app = verbGroup(program, 'app', 'manage apps');
  app
    .command('create')
    .description("register a draft app and issue its access token for the owner's account")
    .requiredOption('--owner <username>')
    .requiredOption('--name <name>')
    .option('--redirect-uri <url>', 'an OAuth redirect URI (repeatable)', collect, [])
    .option('--scopes <list>', 'comma-separated scopes the app requests (default: every scope)')
    .option('--minute-limit <n>', 'requests per minute (0 = no cap)', wholeNumber)
    .option('--day-limit <n>', 'requests per day (0 = no cap)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('app create', async (deps) => {
        const { requireUser, createApp } = await domain();
        const owner = await requireUser(deps, opts.owner);
        let scopes: Record<string, 'optional'> | undefined;
        if (opts.scopes !== undefined) {
          try {
            scopes = Object.fromEntries(parseScopeList(opts.scopes).map((s) => [s, 'optional' as const]));
          } catch (err) {
            throw new ApiError(1002, errorMessage(err));
          }
        }
        const created = await createApp(deps, owner, {
          name: opts.name,
          redirectUris: opts.redirectUri,
          scopes,
          minuteLimit: opts.minuteLimit,
          dayLimit: opts.dayLimit,
        });
        print(
          !!opts.json,
          {
            client_id: created.app.client_id,
            client_secret: created.clientSecret,
            access_token: created.accessToken,
            app_id: created.app.id,
            status: created.app.status,
          },
          [
            `created draft app ${created.app.name} (id ${created.app.id})`,
            `client_id:     ${created.app.client_id}`,
            `client_secret: ${created.clientSecret}`,
            `access_token:  ${created.accessToken}   (shown once)`,
          ].join('\n'),
        );
      }),
    );
  app
    .command('revoke')
    .description("revoke a user's access grant for an app (as removing it under linked apps does)")
    .requiredOption('--app-id <id>')
    .requiredOption('--username <username>')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('app revoke', async (deps) => {
        const { requireUser, findAppById, uninstallApp } = await domain();
        const target = await findAppById(deps, opts.appId);
        if (!target) throw new ApiError(1020, `no app with id ${opts.appId}`);
        const u = await requireUser(deps, opts.username);
        const revoked = await uninstallApp(deps, target.id, u.id, null);
        print(!!opts.json, { app_id: target.id, revoked }, `revoked ${revoked} token(s)`);
      }),
    );

  app
    .command('review')
    .description('the operator reviews an app: approve publishes it as public, reject keeps it a draft')
    .requiredOption('--app-id <id>')
    .option('--approve', 'approve and publish the app in the app directory')
    .option('--reject', 'reject the app (it stays a draft)')
    .option('--approve-write-scopes', 'also let the public app use surveys_write and responses_write')
    .option('--note <text>', 'a note for the developer')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('app review', async (deps) => {
        const { reviewApp, effectiveStatus } = await domain();
        if (!!opts.approve === !!opts.reject)
          throw new ApiError(1002, 'give exactly one of --approve or --reject');
        if (opts.reject && opts.approveWriteScopes)
          throw new ApiError(1002, '--approve-write-scopes goes with --approve');
        const { app: reviewed, review } = await reviewApp(deps, opts.appId, {
          approve: !!opts.approve,
          approveWriteScopes: !!opts.approveWriteScopes,
          note: opts.note,
        });
        print(
          !!opts.json,
          {
            app_id: reviewed.id,
            status: effectiveStatus(reviewed, deps.clock.now()),
            review_status: review.review_status,
            write_scopes_approved: review.write_scopes_approved === 1,
          },
          `app ${reviewed.id}: review ${review.review_status}, status ${effectiveStatus(reviewed, deps.clock.now())}`,
        );
      }),
    );
  app
    .command('extend')
    .description("the operator extends a draft app's development window (re-enabling a disabled draft)")
    .requiredOption('--app-id <id>')
    .option('--days <n>', 'days to add (default 90)', wholeNumber, 90)
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('app extend', async (deps) => {
        const { extendDraft } = await domain();
        const extended = await extendDraft(deps, opts.appId, opts.days);
        print(
          !!opts.json,
          { app_id: extended.id, status: extended.status, draft_expires_at: extended.draft_expires_at },
          `app ${extended.id}: draft until ${extended.draft_expires_at}`,
        );
      }),
    );
  app
    .command('deploy')
    .description('the operator deploys an app (also a disabled one) as private or public')
    .requiredOption('--app-id <id>')
    .option('--private', 'deploy as private')
    .option('--public', 'deploy as public (counts as reviewed and approved)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('app deploy', async (deps) => {
        const { operatorDeploy } = await domain();
        if (!!opts.private === !!opts.public)
          throw new ApiError(1002, 'give exactly one of --private or --public');
        const deployed = await operatorDeploy(deps, opts.appId, opts.public ? 'public' : 'private');
        print(
          !!opts.json,
          { app_id: deployed.id, status: deployed.status },
          `app ${deployed.id}: ${deployed.status}`,
        );
      }),
    );
};
