// Team survey templates.
import { type Commands, print, verbGroup, withDeps } from './common.js';

/** The domain the template verb calls, loaded when it runs. */
const domain = async () => ({
  ...(await import('../domain/accounts/users.js')),
  ...(await import('../domain/surveys/team-templates.js')),
});

export const templateCommands: Commands = (program) => {
  const template = verbGroup(program, 'template', 'manage team survey templates');
  template
    .command('add')
    .description("make one of the owner's surveys a team template (GET /team_survey_templates)")
    .requiredOption('--owner <username>')
    .requiredOption('--survey <id>', 'the survey to offer as a template')
    .requiredOption('--name <name>')
    .option('--json', 'print one JSON object')
    .action(async (opts) =>
      withDeps('template add', async (deps) => {
        const { requireUser, addTeamTemplate } = await domain();
        const owner = await requireUser(deps, opts.owner);
        const t = await addTeamTemplate(deps, owner.id, opts.survey, opts.name);
        print(
          !!opts.json,
          { id: t.id, name: t.name, survey_id: t.survey_id },
          `added team template ${t.name} (id ${t.id})`,
        );
      }),
    );
};
