// The survey list on the home page over HTTP: paging at 50, search, sort, folders, and the rules of
// its actions (copy, move, delete): who may, the confirmation first, and nothing lost on a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const titlesOf = (text: string) =>
  [...text.matchAll(/<a class="survey-title" href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1]);

async function survey(token: string, title: string, body: Record<string, unknown> = {}) {
  const res = await server.client.post('/v3/surveys', { title, ...body }, { token });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; title: string };
}

describe('listing', () => {
  it('pages at 50, searches titles (case and wildcards aside) and sorts', async () => {
    const owner = await server.account();
    for (let i = 1; i <= 52; i++) await survey(owner.token, `Poll ${String(i).padStart(2, '0')}`);
    await survey(owner.token, '100% done');
    const web = await signIn(server, owner);

    const first = await web.get('/?sort=title');
    expect(first.status).toBe(200);
    const page1 = titlesOf(first.text);
    expect(page1).toHaveLength(50);
    expect(page1[0]).toBe('100% done');
    expect(first.text).toContain('53 surveys, page 1 of 2.');
    expect(first.text).toContain('href="/?sort=title&amp;page=2" rel="next"');
    const second = await web.get('/?sort=title&page=2');
    expect(titlesOf(second.text)).toEqual(['Poll 50', 'Poll 51', 'Poll 52']);

    expect(titlesOf((await web.get('/?q=POLL%2005')).text)).toEqual(['Poll 05']);
    // "%" is a character to find, not a wildcard.
    expect(titlesOf((await web.get('/?q=%25')).text)).toEqual(['100% done']);
    expect(titlesOf((await web.get('/?q=nothing-like-this')).text)).toEqual([]);
    expect((await web.get('/?q=nothing-like-this')).text).toContain('No surveys match');
    expect(titlesOf((await web.get('/?sort=title_desc')).text)[0]).toBe('Poll 52');
    // A query it cannot read is the default list, never an error.
    const odd = await web.get('/?sort=bogus&page=-3&folder=x');
    expect(odd.status).toBe(200);
    expect(titlesOf(odd.text)).toHaveLength(50);
  });

  it('shows response counts and the state of the collectors', async () => {
    const owner = await server.account();
    const s = await survey(owner.token, 'Collected');
    const t = { token: owner.token };
    const open = await server.client.post(`/v3/surveys/${s.id}/collectors`, { type: 'weblink' }, t);
    await server.client.post(`/v3/surveys/${s.id}/collectors`, { type: 'weblink' }, t);
    const closed = await server.client.post(`/v3/surveys/${s.id}/collectors`, { type: 'weblink' }, t);
    expect(
      (await server.client.patch(`/v3/collectors/${closed.body.id}`, { status: 'closed' }, t)).status,
    ).toBe(200);
    expect(
      (
        await server.client.post(
          `/v3/collectors/${open.body.id}/responses`,
          { response_status: 'completed' },
          t,
        )
      ).status,
    ).toBe(201);
    const text = (await (await signIn(server, owner)).get('/')).text;
    expect(text).toContain('<td data-label="Responses" class="num">1</td>');
    expect(text).toContain('<td data-label="Collectors">2 open · 1 closed</td>');
  });
});

describe('folders', () => {
  it('are created, renamed, filtered by, moved into and deleted (after a confirmation), keeping their surveys', async () => {
    const owner = await server.account();
    const other = await server.account();
    const filed = await survey(owner.token, 'Filed');
    await survey(owner.token, 'Loose');
    const web = await signIn(server, owner);
    const _csrf = await web.csrf('/');

    const made = await web.post('/folders/new', { _csrf, title: 'Archive', back: '/?sort=title' });
    expect(made.status).toBe(303);
    expect(made.location).toBe('/?sort=title&done=folder-created');
    const folders = (await server.client.get('/v3/survey_folders', { token: owner.token })).body.data;
    expect(folders.map((f: { title: string }) => f.title)).toEqual(['Archive']);
    const folder = folders[0].id as string;

    expect((await web.post('/surveys/move', { _csrf, survey: filed.id, folder })).status).toBe(303);
    expect(titlesOf((await web.get(`/?folder=${folder}`)).text)).toEqual(['Filed']);
    expect((await web.post('/folders/rename', { _csrf, folder, title: 'Old things' })).status).toBe(303);
    expect((await web.get(`/?folder=${folder}`)).text).toContain('Rename “Old things”');

    // Another owner's folder is not one to move into, nor to rename or delete.
    const theirs = await server.client.post(
      '/v3/survey_folders',
      { title: 'Theirs' },
      { token: other.token },
    );
    const refused = await web.post('/surveys/move', { _csrf, survey: filed.id, folder: theirs.body.id });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await web.post('/folders/rename', { _csrf, folder: theirs.body.id, title: 'x' })).status).toBe(
      404,
    );
    expect(
      (await web.post('/folders/delete', { _csrf, folder: theirs.body.id, confirm: 'yes' })).status,
    ).toBe(404);

    const ask = await web.post('/folders/delete', { _csrf, folder });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Delete the folder “Old things”?');
    expect(ask.text).toContain('Its survey is kept, in no folder.');
    expect((await server.client.get(`/v3/survey_folders/${folder}`, { token: owner.token })).status).toBe(
      200,
    );
    const gone = await web.post('/folders/delete', { _csrf, folder, confirm: 'yes' });
    expect(gone.status).toBe(303);
    expect((await server.client.get(`/v3/survey_folders/${folder}`, { token: owner.token })).status).toBe(
      404,
    );
    expect(titlesOf((await web.get('/')).text).sort()).toEqual(['Filed', 'Loose']);
  });
});

describe('actions', () => {
  let t: TestTeam;
  let shared: { id: string };

  beforeAll(async () => {
    t = await makeTeam(server);
    const a = api(server);
    shared = await a.survey(t.owner.token, 'Team survey');
    const wg = await a.workgroup(t.owner.token, 'Everyone', [t.regular.user.id]);
    await a.share(t.owner.token, wg.id, shared.id, ROLES.fullAccess);
  });

  const exists = async (id: string) =>
    (await server.client.get(`/v3/surveys/${id}`, { token: t.owner.token })).status === 200;

  it('delete asks first, naming what is lost, and only the owner deletes', async () => {
    const owner = await signIn(server, t.owner);
    const _csrf = await owner.csrf('/');
    const ask = await owner.post('/surveys/delete', { _csrf, survey: shared.id, back: '/?q=Team' });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Delete the survey “Team survey”?');
    for (const lost of ['1 page and 0 questions', '0 responses', '0 collectors'])
      expect(ask.text).toContain(lost);
    expect(ask.text).toContain('name="confirm" value="yes"');
    expect(ask.text).toContain('href="/?q=Team">Cancel</a>');
    expect(await exists(shared.id)).toBe(true);

    // Shared with full access: may edit, not delete.
    const member = await signIn(server, t.regular);
    const memberCsrf = await member.csrf('/');
    const refused = await member.post('/surveys/delete', {
      _csrf: memberCsrf,
      survey: shared.id,
      confirm: 'yes',
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('owner may delete it.');
    expect(await member.get('/').then((r) => r.text)).not.toContain('action="/surveys/delete"');
    // A stranger does not learn the survey exists.
    const stranger = await signIn(server, await server.account());
    const strangerCsrf = await stranger.csrf('/');
    expect(
      (await stranger.post('/surveys/delete', { _csrf: strangerCsrf, survey: shared.id, confirm: 'yes' }))
        .status,
    ).toBe(404);
    expect(
      (await owner.post('/surveys/delete', { _csrf: 'forged', survey: shared.id, confirm: 'yes' })).status,
    ).toBe(403);
    expect(await exists(shared.id)).toBe(true);

    // The way back stays on this site.
    const done = await owner.post('/surveys/delete', {
      _csrf,
      survey: shared.id,
      confirm: 'yes',
      back: '//evil.example/',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/?done=deleted');
    expect(await exists(shared.id)).toBe(false);
  });

  it('copy makes "Copy of …" with the same questions for whoever may read the design', async () => {
    const source = await survey(t.admin.token, 'Source', {
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Name?' }] }] }],
    });
    const web = await signIn(server, t.admin);
    const _csrf = await web.csrf('/');
    const res = await web.post('/surveys/copy', { _csrf, survey: source.id });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/?done=copied');
    const list = (await server.client.get('/v3/surveys?include=question_count', { token: t.admin.token }))
      .body.data;
    expect(list.find((s: { title: string }) => s.title === 'Copy of Source')).toMatchObject({
      question_count: 1,
    });
    const stranger = await signIn(server, await server.account());
    expect(
      (await stranger.post('/surveys/copy', { _csrf: await stranger.csrf('/'), survey: source.id })).status,
    ).toBe(404);
  });
});
