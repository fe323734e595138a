// Teams: create, add and manage members.
import { Option } from 'commander';
import type { Deps } from '../context.js';
import type { Actor } from '../domain/teams/teams.js';
import { type Commands, print, verbGroup, wholeNumber, withDeps } from './common.js';

/** The domain the team verbs call, loaded when one runs. */
const domain = async () => ({
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/teams/invitations.js')),
  ...(await import('../domain/teams/teams.js')),
});

export const teamCommands: Commands = (program) => {
  const team = verbGroup(
    program,
    'team',
    'manage teams: the acting user (--by) is the team owner unless named',
  );
  /** The user a team verb acts as: --by, or the team's account owner. */
  const actorFor = async (deps: Deps, teamId: string, by: string | undefined): Promise<Actor> => {
    const { requireUser, requireTeam } = await domain();
    return {
      userId: by ? (await requireUser(deps, by)).id : (await requireTeam(deps, teamId)).owner_id,
      ip: null,
    };
  };
  const memberType = () => new Option('--type <type>', 'the member type').choices(['regular', 'admin']);
  team
    .command('create')
    .description('create a team owned by an existing user (its account owner)')
    .requiredOption('--owner <username>')
    .requiredOption('--name <name>')
    .option('--max-invites <n>', 'members the team may have (default 100)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('team create', async (deps) => {
        const { requireUser, createTeam } = await domain();
        const owner = await requireUser(deps, opts.owner);
        const created = await createTeam(deps, owner, { name: opts.name, maxInvites: opts.maxInvites });
        print(!!opts.json, { id: created.id }, `created team ${created.name} (id ${created.id})`);
      }),
    );
  team
    .command('add')
    .description(
      'add a user to a team, or with --pending invite them: the invitation is emailed (through the outbox) and its link printed',
    )
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .addOption(memberType().default('regular'))
    .option('--pending', 'invite: the member stays pending until they accept the emailed link')
    .option('--by <username>', 'the owner or admin who adds (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('team add', async (deps) => {
        const { requireUser, addMember, acceptUrl } = await domain();
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
            ? `invited ${opts.username} (member ${m.id}); the invitation was emailed to ${user.email}; accept at ${url}`
            : `added ${opts.username} (member ${m.id})`,
        );
      }),
    );
  team
    .command('resend')
    .description('email a pending member a new invitation link (earlier links stop working)')
    .requiredOption('--team <id>')
    .requiredOption('--username <username>')
    .option('--by <username>', 'the owner or admin who resends (default: the team owner)')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('team resend', async (deps) => {
        const { requireUser, acceptUrl, resendInvitation } = await domain();
        const actor = await actorFor(deps, opts.team, opts.by);
        const user = await requireUser(deps, opts.username);
        const m = await resendInvitation(deps, opts.team, opts.username, actor);
        const url = acceptUrl(deps, m, user.region);
        print(!!opts.json, { id: m.id, accept_url: url }, `resent the invitation to ${user.email}: ${url}`);
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
      withDeps('team remove', async (deps) => {
        const { removeMember } = await domain();
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
      withDeps('team set-type', async (deps) => {
        const { setMemberType } = await domain();
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
      withDeps('team rename', async (deps) => {
        const { renameTeam } = await domain();
        const actor = await actorFor(deps, opts.team, opts.by);
        const t = await renameTeam(deps, opts.team, opts.name, actor);
        print(!!opts.json, { id: t.id, name: t.name }, `renamed team ${t.id} to ${t.name}`);
      }),
    );
};
