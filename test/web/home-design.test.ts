// The home page and the survey edit page over HTTP (a cookie-keeping client, no browser): who sees
// what, every change the edit page makes read back through GET /v3/surveys/{id}/details, errors
// shown on the page, and the HTML 404 for unknown non-API paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES, templateQuestionCount } from '../../src/domain/surveys/templates/index.js';
import { QUESTION_KINDS } from '../../src/web/design/question-form.js';
import { csrfToken, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';

let server: TestServer;
let t: TestTeam;

beforeAll(async () => {
  server = await startServer();
  t = await makeTeam(server);
});
afterAll(() => server.close());

async function details(token: string, id: string) {
  const res = await server.client.get(`/v3/surveys/${id}/details`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

const tokenOf = (editUrl: string) => new URL(editUrl).searchParams.get('sm')!;

describe('home page', () => {
  it('signed out: a landing page with sign-in, docs and app directory links', async () => {
    const res = await new WebSession(server.url).get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain(`href="/login?next=%2F"`);
    expect(res.text).toContain('href="/docs"');
    expect(res.text).toContain('href="/apps"');
    expect(res.text).toContain('href="/signup"');
    expect(res.text).not.toContain('New survey');
  });

  it('lists own and shared surveys with counts, markers and links; not others’ surveys', async () => {
    const a = api(server);
    const own = await a.survey(t.regular.token, 'Regular own survey');
    const shared = await a.survey(t.owner.token, 'Owner shared survey');
    const hidden = await a.survey(t.owner.token, 'Owner private survey');
    const wg = await a.workgroup(t.owner.token, 'Readers', [t.regular.user.id]);
    await a.share(t.owner.token, wg.id, shared.id, ROLES.viewer);
    const q = await server.client.post(
      `/v3/surveys/${shared.id}/pages/${(await details(t.owner.token, shared.id)).pages[0].id}/questions`,
      { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Why?' }] },
      { token: t.owner.token },
    );
    expect(q.status).toBe(201);

    const web = await signIn(server, t.regular);
    const res = await web.get('/');
    expect(res.status).toBe(200);
    const row = (title: string) => {
      const m = new RegExp(
        `<tr>\\s*<th scope="row"><a class="survey-title" href="[^"]*">${title}</a>([\\s\\S]*?)</tr>`,
      ).exec(res.text);
      return m?.[1];
    };
    const ownRow = row('Regular own survey');
    const sharedRow = row('Owner shared survey');
    expect(ownRow).toBeDefined();
    expect(sharedRow).toBeDefined();
    expect(row('Owner private survey')).toBeUndefined();
    expect(res.text).not.toContain(hidden.id);
    expect(ownRow).not.toContain('Shared with you');
    expect(sharedRow).toContain('Shared with you');
    expect(sharedRow).toContain('<td data-label="Responses" class="num">0</td>');
    expect(sharedRow).toContain('<td data-label="Collectors">No collector yet</td>');
    // Only the owner deletes: a shared survey offers no delete form.
    expect(ownRow).toContain('action="/surveys/delete"');
    expect(sharedRow).not.toContain('action="/surveys/delete"');
    const ownDetails = await details(t.regular.token, own.id);
    const path = (url: string) => new URL(url).pathname + new URL(url).search;
    expect(res.text).toContain(`href="${path(ownDetails.edit_url)}">Regular own survey</a>`);
    for (const key of ['collect_url', 'analyze_url'])
      expect(ownRow).toContain(
        `href="${new URL(ownDetails[key]).pathname}${new URL(ownDetails[key]).search}"`,
      );
    expect(ownRow).toContain(`href="${new URL(ownDetails.analyze_url).pathname}/responses"`);
    expect(ownRow).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
  });

  it('creates a blank survey and a survey from a template, then opens the edit page', async () => {
    const web = await signIn(server, t.admin);
    const home = await web.get('/');
    const res = await web.post('/surveys/new', {
      _csrf: csrfToken(home.text),
      title: 'Made on the home page',
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/create\/\?sm=[A-Za-z0-9_-]+$/);
    const list = await server.client.get('/v3/surveys?include=question_count', { token: t.admin.token });
    const made = list.body.data.find((s: any) => s.title === 'Made on the home page');
    expect(made).toMatchObject({ question_count: 0 });
    const survey = await details(t.admin.token, made.id);
    expect(new URL(survey.edit_url).search).toBe(res.location!.slice('/create/'.length));
    expect(survey.pages).toHaveLength(1);
    const edit = await web.get(res.location!);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('<h1>Made on the home page</h1>');

    const template = TEMPLATES[0];
    const fromTemplate = await web.post('/surveys/new', {
      _csrf: csrfToken(home.text),
      title: '',
      template: template.id,
    });
    expect(fromTemplate.status).toBe(303);
    const copy = (
      await server.client.get('/v3/surveys?include=question_count', { token: t.admin.token })
    ).body.data.find((s: any) => s.title === template.title);
    expect(copy.question_count).toBe(templateQuestionCount(template));
    expect(copy.question_count).toBeGreaterThan(0);

    const bad = await web.post('/surveys/new', { _csrf: csrfToken(home.text), title: 'x', template: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
    const noCsrf = await web.post('/surveys/new', { _csrf: 'forged', title: 'x' });
    expect(noCsrf.status).toBe(403);
  });

  it('escapes a <script> title on the home page and the edit page', async () => {
    const evil = '<script>alert(1)</script>&"\'';
    const created = await server.client.post('/v3/surveys', { title: evil }, { token: t.admin.token });
    const web = await signIn(server, t.admin);
    const home = await web.get('/');
    expect(home.text).not.toContain('<script>alert(1)</script>');
    expect(home.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;');
    const edit = await web.get(
      new URL(created.body.edit_url).pathname + new URL(created.body.edit_url).search,
    );
    expect(edit.status).toBe(200);
    expect(edit.text).not.toContain('<script>alert(1)</script>');
    expect(edit.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('edit page', () => {
  let survey: any;
  let path: string;
  let web: WebSession;

  beforeAll(async () => {
    survey = (await server.client.post('/v3/surveys', { title: 'Edit me' }, { token: t.owner.token })).body;
    path = `/create/?sm=${tokenOf(survey.edit_url)}`;
    web = await signIn(server, t.owner);
  });

  const post = async (action: string, form: Record<string, string | string[]>) => {
    const page = await web.get(path);
    return web.post(`/create/${action}?sm=${tokenOf(survey.edit_url)}`, {
      _csrf: csrfToken(page.text),
      ...form,
    });
  };

  /** The id of the page's last question (the one just added). */
  const lastQuestion = async (pageId: string): Promise<string> => {
    const d = await details(t.owner.token, survey.id);
    return d.pages.find((p: any) => p.id === pageId).questions.at(-1).id;
  };

  it('signed out: redirects to sign-in and back', async () => {
    const res = await new WebSession(server.url).get(path);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(path)}`);
  });

  it('signed out: a change is not made, and the form leads to sign-in', async () => {
    const anonymous = new WebSession(server.url);
    const csrf = await anonymous.csrf('/login');
    const res = await anonymous.post(`/create/settings?sm=${tokenOf(survey.edit_url)}`, {
      _csrf: csrf,
      title: 'Anon',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    const home = await anonymous.post('/surveys/new', { _csrf: csrf, title: 'Anon survey' });
    expect(home.status).toBe(303);
    expect(home.location).toBe('/login?next=%2F');
    expect((await details(t.owner.token, survey.id)).title).toBe('Edit me');
  });

  it('sets the settings; adds a question of every kind; edits pages; moves, copies and deletes questions', async () => {
    const pageId = (await details(t.owner.token, survey.id)).pages[0].id;
    let res = await post('settings', {
      title: 'Renamed survey',
      nickname: 'Nick',
      language: 'fr',
      next_button: 'Suivant',
      prev_button: 'Retour',
      exit_button: '',
      done_button: 'Fini',
    });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=settings');
    expect(await details(t.owner.token, survey.id)).toMatchObject({
      title: 'Renamed survey',
      nickname: 'Nick',
      language: 'fr',
      buttons_text: { next_button: 'Suivant', prev_button: 'Retour', exit_button: '', done_button: 'Fini' },
    });

    // Every kind the builder offers is a valid question with only a heading.
    for (const kind of QUESTION_KINDS) {
      const images = 'https://example.com/a.png Apple\nhttps://example.com/b.png Banana';
      res = await post(`pages/${pageId}/questions`, {
        kind: kind.value,
        heading: `Q ${kind.value}`,
        choices: kind.display === 'image_choice' ? images : '',
        image: kind.value === 'image' ? 'https://example.com/photo.png' : '',
      });
      expect(res.status, kind.value).toBe(303);
      expect(res.location, kind.value).toBe(`${path}&done=question_added#add-${pageId}`);
    }
    let d = await details(t.owner.token, survey.id);
    const qs = d.pages[0].questions;
    expect(qs.map((q: any) => [q.family, q.subtype, q.display_options?.display_type ?? null])).toEqual(
      QUESTION_KINDS.map((k) => [k.family, k.subtype, k.display ?? null]),
    );
    // Each edit form shows again what was saved, and the kind read back is the kind created.
    for (const q of qs) {
      const shown = await web.get(`${path}&open=${q.id}`);
      expect(shown.status).toBe(200);
      expect(shown.text).toContain(`action="/create/pages/${pageId}/questions/${q.id}/save?`);
    }

    res = await post(`pages/${pageId}/questions/${qs[1].id}/move`, { direction: 'up' });
    expect(res.status).toBe(303);
    res = await post(`pages/${pageId}/questions/${qs[2].id}/move`, { direction: 'down' });
    d = await details(t.owner.token, survey.id);
    expect(d.pages[0].questions.slice(0, 4).map((q: any) => q.id)).toEqual(
      [qs[1], qs[0], qs[3], qs[2]].map((q) => q.id),
    );

    res = await post('pages', { title: 'Second page', description: 'More' });
    expect(res.status).toBe(303);
    d = await details(t.owner.token, survey.id);
    const second = d.pages[1].id;
    res = await post(`pages/${second}/save`, { title: 'About you', description: 'A few <b>facts</b>' });
    expect(res.status).toBe(303);
    res = await post(`pages/${pageId}/questions/${qs[0].id}/move`, { to_page: second });
    expect(res.status).toBe(303);
    res = await post(`pages/${second}/questions/${qs[0].id}/copy`, {});
    expect(res.status).toBe(303);
    d = await details(t.owner.token, survey.id);
    expect(d.pages[1]).toMatchObject({
      title: 'About you',
      description: 'A few <b>facts</b>',
      question_count: 2,
    });
    expect(d.pages[1].questions[0].id).toBe(qs[0].id);
    expect(d.pages[1].questions[1].id).not.toBe(qs[0].id);
    expect(d.pages[1].questions[1].headings).toEqual(d.pages[1].questions[0].headings);
    expect(d.question_count).toBe(QUESTION_KINDS.length + 1);

    res = await post(`pages/${second}/move`, { direction: 'up' });
    expect(res.status).toBe(303);
    d = await details(t.owner.token, survey.id);
    expect(d.pages.map((p: any) => p.id)).toEqual([second, pageId]);

    // Without confirm=yes a deletion answers the confirmation page, naming what is lost.
    res = await post(`pages/${second}/questions/${qs[0].id}/delete`, {});
    expect(res.status).toBe(200);
    expect(res.text).toContain('0 answers to it in the collected responses.');
    expect(res.text).toContain('name="confirm" value="yes"');
    expect((await details(t.owner.token, survey.id)).question_count).toBe(QUESTION_KINDS.length + 1);
    res = await post(`pages/${second}/questions/${qs[0].id}/delete`, { confirm: 'yes' });
    expect(res.status).toBe(303);
    res = await post(`pages/${second}/delete`, {});
    expect(res.status).toBe(200);
    expect(res.text).toContain('Page 1: About you and its 1 question.');
    res = await post(`pages/${second}/delete`, { confirm: 'yes' });
    expect(res.status).toBe(303);
    d = await details(t.owner.token, survey.id);
    expect(d.page_count).toBe(1);
    expect(d.question_count).toBe(QUESTION_KINDS.length - 1);
    expect(d.pages[0].questions.map((q: any) => q.position)).toEqual(
      Array.from({ length: QUESTION_KINDS.length - 1 }, (_, i) => i + 1),
    );
  });

  it('edits a question: text, choices kept by id, order, N/A, other, required, validation, random order', async () => {
    const pageId = (await details(t.owner.token, survey.id)).pages[0].id;
    let res = await post(`pages/${pageId}/questions`, { kind: 'single_choice', heading: 'Colour?' });
    const id = await lastQuestion(pageId);
    let q = (await details(t.owner.token, survey.id)).pages[0].questions.find((x: any) => x.id === id);
    const [c1, c2] = q.answers.choices;
    res = await post(`pages/${pageId}/questions/${id}/save`, {
      kind: 'single_choice',
      heading: 'Favourite colour?',
      description: 'Pick one',
      layout: 'horiz',
      choice_id: [c1.id, c2.id],
      choice_text: ['Red', 'Blue'],
      choice_order: ['2', '1'],
      choice_weight: ['', ''],
      choice_image: ['', ''],
      choice_score: ['', ''],
      add_choices: 'Green\nYellow\n',
      choice_remove: [],
      other: 'yes',
      other_text: 'Something else',
      na: 'yes',
      na_text: 'No opinion',
      required: 'yes',
      required_text: 'Please pick',
      sorting: 'random',
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`done=question_saved#q-${id}$`));
    q = (await details(t.owner.token, survey.id)).pages[0].questions.find((x: any) => x.id === id);
    expect(q).toMatchObject({
      subtype: 'horiz',
      headings: [{ heading: 'Favourite colour?', description: 'Pick one' }],
      required: { text: 'Please pick', type: 'all' },
      sorting: { type: 'random' },
      answers: { other: { text: 'Something else' } },
    });
    expect(q.answers.choices.map((c: any) => [c.text, c.is_na ?? false])).toEqual([
      ['Blue', false],
      ['Red', false],
      ['Green', false],
      ['Yellow', false],
      ['No opinion', true],
    ]);
    // Renamed and reordered choices keep their ids (and so their answers).
    expect(q.answers.choices[0].id).toBe(c2.id);
    expect(q.answers.choices[1].id).toBe(c1.id);

    // Removing, and clearing what the form unchecks.
    res = await post(`pages/${pageId}/questions/${id}/save`, {
      kind: 'single_choice',
      heading: 'Favourite colour?',
      choice_id: q.answers.choices.slice(0, 4).map((c: any) => c.id),
      choice_text: ['Blue', 'Red', 'Green', 'Yellow'],
      choice_order: ['1', '2', '3', '4'],
      choice_remove: [q.answers.choices[2].id],
    });
    expect(res.status).toBe(303);
    q = (await details(t.owner.token, survey.id)).pages[0].questions.find((x: any) => x.id === id);
    expect(q.answers.choices.map((c: any) => c.text)).toEqual(['Blue', 'Red', 'Yellow']);
    expect(q.required).toBeNull();
    expect(q.sorting).toBeNull();
    expect(q.answers.other).toBeUndefined();
    expect(q.headings[0].description).toBeUndefined();

    // Validation of a textbox: text length, then an email.
    res = await post(`pages/${pageId}/questions`, { kind: 'single_textbox', heading: 'Name?' });
    const tid = await lastQuestion(pageId);
    res = await post(`pages/${pageId}/questions/${tid}/save`, {
      kind: 'single_textbox',
      heading: 'Name?',
      validation: 'text_length',
      min: '2',
      max: '40',
      validation_text: 'Between 2 and 40 letters',
    });
    expect(res.status).toBe(303);
    q = (await details(t.owner.token, survey.id)).pages[0].questions.find((x: any) => x.id === tid);
    expect(q.validation).toEqual({
      type: 'text_length',
      min: '2',
      max: '40',
      text: 'Between 2 and 40 letters',
    });

    // A bad value is shown beside the form, with what was typed, and nothing changes.
    res = await post(`pages/${pageId}/questions/${tid}/save`, {
      kind: 'single_textbox',
      heading: 'Name typed',
      validation: 'integer',
      min: 'ten',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`id="q-${tid}-error"`);
    expect(res.text).toContain('A limit must be a number.');
    expect(res.text).toContain('Name typed</textarea>');
    q = (await details(t.owner.token, survey.id)).pages[0].questions.find((x: any) => x.id === tid);
    expect(q.headings[0].heading).toBe('Name?');
  });

  it('shows the domain’s and the form’s errors on the page, keeping what was typed', async () => {
    const pageId = (await details(t.owner.token, survey.id)).pages[0].id;
    const before = (await details(t.owner.token, survey.id)).question_count;
    let res = await post(`pages/${pageId}/questions`, { kind: 'single_choice', heading: '' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/role="alert"[^>]*>Write the question text\./);
    expect(res.text).toContain(`aria-invalid="true" aria-describedby="add-${pageId}-error"`);
    res = await post(`pages/${pageId}/questions`, { kind: 'no_such_kind', heading: 'Kept' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('value="Kept"');
    res = await post('settings', { title: 'x'.repeat(251) });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The title must not have more than 250 characters.');
    res = await post(`pages/99999999/questions`, { kind: 'comment_box', heading: 'Lost' });
    expect(res.status).toBe(404);
    expect(res.text).toMatch(/role="alert" class="error">Page not found\./);
    expect((await details(t.owner.token, survey.id)).question_count).toBe(before);
    expect((await details(t.owner.token, survey.id)).title).toBe('Renamed survey');
  });

  it('refuses a question past the 1000-question limit with 413, shown on the page', async () => {
    const questions = Array.from({ length: 1000 }, (_, i) => ({
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading: `Q${i}` }],
    }));
    const full = await server.client.post(
      '/v3/surveys',
      { title: 'Full', pages: [{ questions }] },
      { token: t.owner.token },
    );
    expect(full.status).toBe(201);
    const pageId = (await details(t.owner.token, full.body.id)).pages[0].id;
    const token = tokenOf(full.body.edit_url);
    const page = await web.get(`/create/?sm=${token}`);
    const res = await web.post(`/create/pages/${pageId}/questions?sm=${token}`, {
      _csrf: csrfToken(page.text),
      kind: 'comment_box',
      heading: 'One too many',
    });
    expect(res.status).toBe(413);
    expect(res.text).toContain('at most 1000 questions');
    expect((await details(t.owner.token, full.body.id)).question_count).toBe(1000);
  }, 60_000);

  it('a Viewer sees the edit page read-only, and a change is refused', async () => {
    const a = api(server);
    const wg = await a.workgroup(t.owner.token, 'Viewers of edit', [t.admin.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const viewer = await signIn(server, t.admin);
    const page = await viewer.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('does not allow changes');
    expect(page.text).not.toContain('<form method="post" action="/create/');
    expect(page.text).toContain('Q dropdown');
    expect(page.text).not.toContain('/save?');
    const csrf = csrfToken((await viewer.get('/')).text);
    const res = await viewer.post(`/create/settings?sm=${tokenOf(survey.edit_url)}`, {
      _csrf: csrf,
      title: 'Hijacked',
    });
    expect(res.status).toBe(403);
    expect((await details(t.owner.token, survey.id)).title).toBe('Renamed survey');
  });

  it('an Editor may change the survey', async () => {
    const editor = await server.account();
    const team = t.team;
    const { addMember } = await import('../../src/domain/teams/teams.js');
    await addMember(
      server.deps,
      team.id,
      { username: editor.user.username },
      { userId: t.owner.user.id, ip: null },
    );
    // A pending member must accept to have effect; mark the membership active directly.
    await server.deps.db.kysely
      .updateTable('team_members')
      .set({ status: 'active' })
      .where('user_id', '=', editor.user.id)
      .execute();
    const a = api(server);
    const wg = await a.workgroup(t.owner.token, 'Editors', [editor.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.editor);
    const web2 = await signIn(server, editor);
    const page = await web2.get(path);
    expect(page.text).not.toContain('does not allow changes');
    const res = await web2.post(`/create/pages?sm=${tokenOf(survey.edit_url)}`, {
      _csrf: csrfToken(page.text),
      title: 'By the editor',
    });
    expect(res.status).toBe(303);
    const d = await details(t.owner.token, survey.id);
    expect(d.pages.map((p: any) => p.title)).toContain('By the editor');
  });

  it('a stranger gets a 404 page for the edit page and its forms; a bad token too', async () => {
    const stranger = await server.account();
    const web3 = await signIn(server, stranger);
    const res = await web3.get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('Page not found');
    expect(res.text).not.toContain('Renamed survey');
    const csrf = csrfToken((await web3.get('/')).text);
    const post3 = await web3.post(`/create/settings?sm=${tokenOf(survey.edit_url)}`, {
      _csrf: csrf,
      title: 'Mine now',
    });
    expect(post3.status).toBe(404);
    expect((await details(t.owner.token, survey.id)).title).toBe('Renamed survey');
    expect((await web3.get('/create/?sm=not-a-real-token-at-all')).status).toBe(404);
    expect((await web3.get('/create/')).status).toBe(404);
  });
});

describe('not found', () => {
  it('answers unknown non-API paths with an HTML page and /v3 paths with JSON', async () => {
    const page = await fetch(`${server.url}/no/such/page`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const text = await page.text();
    expect(text).toContain('<h1>Page not found</h1>');
    expect(text).toContain('<main id="main">');
    expect(text).toContain('<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">');
    const icon = await fetch(`${server.url}/assets/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const apiRes = await server.client.get('/v3/no/such/thing', { token: t.owner.token });
    expect(apiRes.status).toBe(404);
    expect(apiRes.headers['content-type']).toMatch(/application\/json/);
    expect(apiRes.body.error.id).toBe('1020');
    const escaped = await (await fetch(`${server.url}/<script>x</script>`)).text();
    expect(escaped).not.toContain('<script>x');
  });
});
