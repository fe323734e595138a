// The survey-service command line. The verbs and flags here are a contract operators' scripts
// rely on (DESIGN.md): add to them, never rename them. With --json a verb prints one JSON object.
import { Command, InvalidArgumentError, Option } from 'commander';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDeps, type Deps } from '../context.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createApp, findAppById } from '../domain/accounts/apps.js';
import { revokeApp } from '../domain/accounts/tokens.js';
import { createUser, requireUser, updateUser } from '../domain/accounts/users.js';
import { addTeamTemplate } from '../domain/surveys/team-templates.js';
import { acceptUrl } from '../domain/teams/invitations.js';
import {
  type Actor,
  addMember,
  createTeam,
  removeMember,
  renameTeam,
  requireTeam,
  resendInvitation,
  setMemberType,
} from '../domain/teams/teams.js';
import { ApiError } from '../platform/errors.js';
import { PLANS } from '../platform/plans.js';
import { parseScopeList } from '../platform/scopes.js';

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number (0 = no cap)');
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function print(json: boolean, object: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${human}\n`);
}

/** Runs a provisioning verb with migrated services, closing the database afterwards. */
async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const deps = await createDeps(loadConfig());
  try {
    return await fn(deps);
  } finally {
    await deps.db.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('survey-service')
    .description('Survey Service: a self-hostable survey platform with a SurveyMonkey v3 compatible API')
    .showHelpAfterError();

  program
    .command('serve')
    .description('run the API and pages (migrates the database first)')
    .action(async () => {
      const config = loadConfig();
      const deps = await createDeps(config);
      const app = await buildApp(deps);
      const stop = async () => {
        await app.close();
        await deps.db.close();
        process.exit(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      await app.listen({ port: config.port, host: config.host });
      process.stdout.write(
        `survey-service listening on http://${config.host}:${config.port} (${deps.db.dialect})\n`,
      );
    });

  program
    .command('migrate')
    .description('apply pending schema migrations, then exit')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const db = openDatabase(loadConfig().databaseUrl);
      try {
        const applied = await migrateToLatest(db);
        print(
          !!opts.json,
          { applied },
          applied.length ? `applied: ${applied.join(', ')}` : 'already up to date',
        );
      } finally {
        await db.close();
      }
    });

  const user = program.command('user').description('manage user accounts');
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
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
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
        print(
          !!opts.json,
          { id: created.id, username: created.username },
          `created user ${created.username} (id ${created.id})`,
        );
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
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const updated = await updateUser(deps, opts.username, {
          plan: opts.plan,
          region: opts.region,
          state: opts.state,
        });
        print(
          !!opts.json,
          {
            id: updated.id,
            username: updated.username,
            account_type: updated.account_type,
            region: updated.region,
            state: updated.status,
          },
          `updated user ${updated.username}: plan ${updated.account_type}, region ${updated.region}, state ${updated.status}`,
        );
      }),
    );

  const app = program.command('app').description('manage apps');
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
      withDeps(async (deps) => {
        const owner = await requireUser(deps, opts.owner);
        let scopes: Record<string, 'optional'> | undefined;
        if (opts.scopes !== undefined) {
          try {
            scopes = Object.fromEntries(parseScopeList(opts.scopes).map((s) => [s, 'optional' as const]));
          } catch (err) {
            throw new ApiError(1002, (err as Error).message);
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
      withDeps(async (deps) => {
        const target = await findAppById(deps, opts.appId);
        if (!target) throw new ApiError(1020, `no app with id ${opts.appId}`);
        const u = await requireUser(deps, opts.username);
        const revoked = await revokeApp(deps, target.id, u.id);
        print(!!opts.json, { app_id: target.id, revoked }, `revoked ${revoked} token(s)`);
      }),
    );

  const team = program
    .command('team')
    .description('manage teams: the acting user (--by) is the team owner unless named');
  /** The user a team verb acts as: --by, or the team's account owner. */
  const actorFor = async (deps: Deps, teamId: string, by: string | undefined): Promise<Actor> => ({
    userId: by ? (await requireUser(deps, by)).id : (await requireTeam(deps, teamId)).owner_id,
    ip: null,
  });
  const memberType = () => new Option('--type <type>', 'the member type').choices(['regular', 'admin']);
  team
    .command('create')
    .description('create a team owned by an existing user (its account owner)')
    .requiredOption('--owner <username>')
    .requiredOption('--name <name>')
    .option('--max-invites <n>', 'members the team may have (default 100)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const owner = await requireUser(deps, opts.owner);
        const created = await createTeam(deps, owner, { name: opts.name, maxInvites: opts.maxInvites });
        print(!!opts.json, { id: created.id }, `created team ${created.name} (id ${created.id})`);
      }),
    );
  team
    .command('add')
    .description('add a user to a team, or with --pending invite them (they accept by the printed link)')
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .addOption(memberType().default('regular'))
    .option('--pending', 'invite: the member stays pending until they accept')
    .option('--by <username>', 'the owner or admin who adds (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const actor = await actorFor(deps, opts.team, opts.by);
        const user = await requireUser(deps, opts.username);
        const m = await addMember(
          deps,
          opts.team,
          { username: opts.username, type: opts.type, pending: !!opts.pending },
          actor,
        );
        const url = m.status === 'pending' ? acceptUrl(deps, m, user.region) : undefined;
        print(
          !!opts.json,
          {
            id: m.id,
            user_id: m.user_id,
            type: m.type,
            status: m.status,
            ...(url ? { accept_url: url } : {}),
          },
          url
            ? `invited ${opts.username} (member ${m.id}); accept at ${url}`
            : `added ${opts.username} (member ${m.id})`,
        );
      }),
    );
  team
    .command('resend')
    .description('send a pending member a new invitation link (earlier links stop working)')
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .option('--by <username>', 'the owner or admin who resends (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const actor = await actorFor(deps, opts.team, opts.by);
        const user = await requireUser(deps, opts.username);
        const m = await resendInvitation(deps, opts.team, opts.username, actor);
        const url = acceptUrl(deps, m, user.region);
        print(!!opts.json, { id: m.id, accept_url: url }, `resent the invitation: ${url}`);
      }),
    );
  team
    .command('remove')
    .description('remove a member (or withdraw an invitation) from a team')
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .option('--by <username>', 'the owner or admin who removes (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const actor = await actorFor(deps, opts.team, opts.by);
        await removeMember(deps, opts.team, opts.username, actor);
        print(!!opts.json, { removed: opts.username }, `removed ${opts.username}`);
      }),
    );
  team
    .command('set-type')
    .description("change a member's type (regular or admin)")
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .addOption(memberType().makeOptionMandatory())
    .option('--by <username>', 'the owner or admin who changes it (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const actor = await actorFor(deps, opts.team, opts.by);
        const m = await setMemberType(deps, opts.team, opts.username, opts.type, actor);
        print(!!opts.json, { id: m.id, type: m.type }, `${opts.username} is now ${m.type}`);
      }),
    );
  team
    .command('rename')
    .description('rename a team')
    .requiredOption('--team <id>')
    .requiredOption('--name <name>')
    .option('--by <username>', 'the owner or admin who renames (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const actor = await actorFor(deps, opts.team, opts.by);
        const t = await renameTeam(deps, opts.team, opts.name, actor);
        print(!!opts.json, { id: t.id, name: t.name }, `renamed team ${t.id} to ${t.name}`);
      }),
    );

  const template = program.command('template').description('manage team survey templates');
  template
    .command('add')
    .description("make one of the owner's surveys a team template (GET /team_survey_templates)")
    .requiredOption('--owner <username>')
    .requiredOption('--survey <id>', 'the survey to offer as a template')
    .requiredOption('--name <name>')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps(async (deps) => {
        const owner = await requireUser(deps, opts.owner);
        const t = await addTeamTemplate(deps, owner.id, opts.survey, opts.name);
        print(
          !!opts.json,
          { id: t.id, name: t.name, survey_id: t.survey_id },
          `added team template ${t.name} (id ${t.id})`,
        );
      }),
    );

  return program;
}
