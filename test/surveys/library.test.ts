import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeamTemplate } from '../../src/domain/surveys/team-templates.js';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { withoutIds } from './fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('survey categories and templates', () => {
  it('lists categories and at least 20 templates across them, each creatable as a survey', async () => {
    const a = await server.account();
    const cats = await server.client.get('/v3/survey_categories', { token: a.token });
    expect(cats.status).toBe(200);
    expect(cats.body.data.length).toBeGreaterThanOrEqual(5);
    expect(cats.body.data[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
    const all = await server.client.get('/v3/survey_templates?per_page=1000', { token: a.token });
    expect(all.body.total).toBeGreaterThanOrEqual(20);
    const used = new Set(all.body.data.map((t: any) => t.category));
    expect(used.size).toBeGreaterThanOrEqual(5);
    for (const c of used) expect(cats.body.data.map((x: any) => x.id)).toContain(c);
    for (const t of all.body.data) {
      expect(t).toMatchObject({ available: true, preview_link: `${server.url}/r/Template/${t.id}` });
      const s = await server.client.post('/v3/surveys', { from_template_id: t.id }, { token: a.token });
      expect(s.status, t.name).toBe(201);
      expect(s.body).toMatchObject({ title: t.title, category: t.category, question_count: t.num_questions });
    }
    const hr = await server.client.get('/v3/survey_templates?category=human_resources', { token: a.token });
    expect(hr.body.total).toBeGreaterThan(0);
    expect(hr.body.data.every((t: any) => t.category === 'human_resources')).toBe(true);
    expect(
      (await server.client.get('/v3/survey_templates?category=nope', { token: a.token })).body.error.id,
    ).toBe('1003');
    expect(
      (await server.client.get('/v3/survey_categories?language=xx', { token: a.token })).body.error.id,
    ).toBe('1003');
    const paged = await server.client.get('/v3/survey_templates?per_page=5&page=2', { token: a.token });
    expect(paged.body.data).toHaveLength(5);
    expect(paged.body.links.prev).toContain('page=1');
  });

  it('needs library_read', async () => {
    const a = await server.account({ scopes: ['surveys_read'] });
    expect((await server.client.get('/v3/survey_templates', { token: a.token })).body.error.id).toBe('1014');
    expect((await server.client.get('/v3/survey_categories', { token: a.token })).body.error.id).toBe('1014');
    expect((await server.client.get('/v3/team_survey_templates', { token: a.token })).body.error.id).toBe(
      '1014',
    );
    expect((await server.client.get('/v3/survey_categories')).body.error.id).toBe('1010');
  });
});

describe('team templates', () => {
  it('lists the team’s templates and copies one into a new survey', async () => {
    const a = await server.account();
    const b = await server.account();
    const src = (
      await server.client.post(
        '/v3/surveys',
        {
          title: 'Team base',
          pages: [
            { questions: [{ family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Why?' }] }] },
          ],
        },
        { token: a.token },
      )
    ).body;
    const t = await addTeamTemplate(server.deps, a.user.id, src.id, 'Our standard');
    const list = await server.client.get('/v3/team_survey_templates', { token: a.token });
    expect(list.body.data).toEqual([{ name: 'Our standard', team_template_id: t.id, survey_id: src.id }]);
    expect((await server.client.get('/v3/team_survey_templates', { token: b.token })).body.total).toBe(0);
    const copy = await server.client.post('/v3/surveys', { from_team_template_id: t.id }, { token: a.token });
    expect(copy.status).toBe(201);
    const [d1, d2] = await Promise.all([
      server.client.get(`/v3/surveys/${src.id}/details`, { token: a.token }),
      server.client.get(`/v3/surveys/${copy.body.id}/details`, { token: a.token }),
    ]);
    expect(withoutIds(d2.body)).toEqual(withoutIds(d1.body));
    expect(
      (await server.client.post('/v3/surveys', { from_team_template_id: t.id }, { token: b.token })).status,
    ).toBe(404);
  });
});

describe('team templates in a team', () => {
  it('are seen and copied by every active member of the team, and by nobody else', async () => {
    const owner = await server.account();
    const member = await server.account();
    const outsider = await server.account();
    const team = await createTeam(server.deps, owner.user, { name: 'Template team' });
    await addMember(server.deps, team.id, { username: member.user.username }, { userId: owner.user.id });
    const src = (
      await server.client.post(
        '/v3/surveys',
        {
          title: 'Team standard',
          pages: [
            { questions: [{ family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Notes' }] }] },
          ],
        },
        { token: owner.token },
      )
    ).body;
    const t = await addTeamTemplate(server.deps, owner.user.id, src.id, 'Standard');
    for (const who of [owner, member]) {
      const list = await server.client.get('/v3/team_survey_templates', { token: who.token });
      expect(list.body.data).toEqual([{ name: 'Standard', team_template_id: t.id, survey_id: src.id }]);
    }
    const copy = await server.client.post(
      '/v3/surveys',
      { from_team_template_id: t.id },
      { token: member.token },
    );
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ title: 'Team standard', question_count: 1, is_owner: true });
    // The member owns the copy, not the template's survey.
    expect((await server.client.get(`/v3/surveys/${src.id}`, { token: member.token })).status).toBe(404);
    expect((await server.client.get('/v3/team_survey_templates', { token: outsider.token })).body.total).toBe(
      0,
    );
    expect(
      (await server.client.post('/v3/surveys', { from_team_template_id: t.id }, { token: outsider.token }))
        .status,
    ).toBe(404);
  });
});

describe('survey languages', () => {
  it('lists languages with native names for any valid token', async () => {
    const a = await server.account({ scopes: ['users_read'] });
    const res = await server.client.get('/v3/survey_languages?per_page=1000', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ id: 'fr', name: 'French', native_name: 'Français' });
    expect(res.body.total).toBeGreaterThan(30);
    expect((await server.client.get('/v3/survey_languages')).body.error.id).toBe('1010');
  });
});

describe('survey-service template add', () => {
  it('adds a team template from the command line', async () => {
    const { runCli, runCliJson } = await import('../helpers/cli.js');
    const a = await server.account();
    const src = (await server.client.post('/v3/surveys', { title: 'CLI base' }, { token: a.token })).body;
    const env = { DATABASE_URL: server.config.databaseUrl };
    const out = runCliJson(
      ['template', 'add', '--owner', a.user.username, '--survey', src.id, '--name', 'From CLI'],
      env,
    );
    expect(out).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'From CLI', survey_id: src.id });
    const list = await server.client.get('/v3/team_survey_templates', { token: a.token });
    expect(list.body.data).toEqual([{ name: 'From CLI', team_template_id: out.id, survey_id: src.id }]);
    const b = await server.account();
    const refused = runCli(
      ['template', 'add', '--owner', b.user.username, '--survey', src.id, '--name', 'Not mine'],
      env,
    );
    expect(refused.status).not.toBe(0);
  });
});
