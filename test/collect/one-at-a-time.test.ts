// The question_layout setting: an extension field of /v3/surveys/{id} (GET shows it, PATCH and PUT
// set it, a value outside its choices is 400 naming it) and the builder's switch, which saves
// through the same updateSurvey; then the respondent page over plain HTTP (a browser without
// script): one question a screen, each screen saved, Back, and the skip logic at a page's end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { csrfToken, openEnded, seedSurvey, signIn, singleChoice, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

const get = async (id: string) => (await server.client.get(`/v3/surveys/${id}`, { token: owner.token })).body;

describe('question_layout through the API', () => {
  it('is "page" by default, set by POST, PATCH and PUT, and read back by GET and /details', async () => {
    const plain = await seedSurvey(server, owner, { kind: 'simple' });
    expect((await get(plain.id)).question_layout).toBe('page');
    const seeded = await seedSurvey(server, owner, {
      kind: 'simple',
      body: { question_layout: 'one_at_a_time' },
    });
    expect(seeded.survey.question_layout).toBe('one_at_a_time');
    expect((await get(seeded.id)).question_layout).toBe('one_at_a_time');
    expect(seeded.details.question_layout).toBe('one_at_a_time');
    const patched = await server.client.patch(
      `/v3/surveys/${seeded.id}`,
      { question_layout: 'page' },
      { token: owner.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.question_layout).toBe('page');
    await server.client.patch(
      `/v3/surveys/${seeded.id}`,
      { question_layout: 'one_at_a_time' },
      { token: owner.token },
    );
    // PUT resets omitted settings to their defaults
    const put = await server.client.put(
      `/v3/surveys/${seeded.id}`,
      { title: 'Again' },
      { token: owner.token },
    );
    expect(put.body.question_layout).toBe('page');
    // a copy keeps it
    await server.client.patch(
      `/v3/surveys/${seeded.id}`,
      { question_layout: 'one_at_a_time' },
      { token: owner.token },
    );
    const copy = await server.client.post(
      '/v3/surveys',
      { from_survey_id: seeded.id },
      { token: owner.token },
    );
    expect(copy.body.question_layout).toBe('one_at_a_time');
  });

  it('refuses a value outside its choices with 400 naming the field, changing nothing', async () => {
    const seeded = await seedSurvey(server, owner, { kind: 'simple' });
    for (const bad of ['one-at-a-time', '', 3, null]) {
      const res = await server.client.patch(
        `/v3/surveys/${seeded.id}`,
        { question_layout: bad },
        { token: owner.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.id).toBe('1002');
      expect(res.body.error.message).toContain('question_layout');
    }
    const created = await server.client.post(
      '/v3/surveys',
      { title: 'x', question_layout: 'screens' },
      { token: owner.token },
    );
    expect(created.status).toBe(400);
    expect(created.body.error.message).toContain('question_layout');
    expect((await get(seeded.id)).question_layout).toBe('page');
  });
});

describe('the builder’s switch', () => {
  it('shows the layout in the settings and saves it', async () => {
    const seeded = await seedSurvey(server, owner, { kind: 'simple', title: 'Switch' });
    const web = await signIn(server, owner);
    const sm = new URL(seeded.survey.edit_url).searchParams.get('sm')!;
    const editor = await web.get(`/create/?sm=${sm}`);
    expect(editor.text).toMatch(/id="settings-layout-page" name="question_layout" value="page" checked/);
    const form = { title: 'Switch', language: 'en', question_layout: 'one_at_a_time' };
    const saved = await web.postForm(`/create/settings?sm=${sm}`, form, `/create/?sm=${sm}`);
    expect(saved.status).toBe(303);
    expect((await get(seeded.id)).question_layout).toBe('one_at_a_time');
    expect((await web.get(`/create/?sm=${sm}`)).text).toMatch(/value="one_at_a_time" checked/);
    const refused = await web.postForm(
      `/create/settings?sm=${sm}`,
      { ...form, question_layout: 'sideways' },
      `/create/?sm=${sm}`,
    );
    expect(refused.text).toContain('Choose a page at a time or one question at a time.');
    expect((await get(seeded.id)).question_layout).toBe('one_at_a_time');
  });
});

describe('the respondent page without script', () => {
  it('asks one question a screen, saves each, goes Back, and jumps by the page’s rule only at its end', async () => {
    const s = await seedSurvey(server, owner, {
      title: 'Screens',
      body: { question_layout: 'one_at_a_time' },
      pages: [
        { title: 'One', questions: { pet: singleChoice('Pet?', ['Cat', 'Dog']), name: openEnded('Name?') } },
        { title: 'Two', questions: { two: openEnded('Two?') } },
        { title: 'Three', questions: { three: openEnded('Three?') } },
      ],
      collector: 'weblink',
    });
    // Dog skips page 2
    const [, dog] = s.choices.pet;
    const pet = s.question('pet');
    await server.client.patch(
      `/v3/surveys/${s.id}/pages/${s.pages[0]}/questions/${pet.id}`,
      {
        answers: {
          choices: [
            { ...pet.answers.choices[0] },
            { ...pet.answers.choices[1], logic: { action: 'go_to_page', page_id: s.pages[2] } },
          ],
        },
      },
      { token: owner.token },
    );
    const url = new URL(s.collector.url);
    const web = new WebSession(url.origin);
    const first = await web.get(url.pathname);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Pet?');
    expect(first.text).not.toContain('Name?');
    expect(first.text).toContain('Question 1 of up to 4');
    // Next is the form's first button: what Enter submits
    expect(first.text.indexOf('value="next"')).toBeLessThan(first.text.indexOf('value="exit"'));
    const post = (form: Record<string, string>, from: string) =>
      web.post(url.pathname, { csrf: csrfToken(from, 'csrf'), started: '', ...form });

    const one = await post({ p: s.pages[0], screen: '0', nav: 'next', [`q_${pet.id}`]: dog }, first.text);
    expect(one.status).toBe(303);
    expect(one.location).toBe(`${url.pathname}?p=${s.pages[0]}&screen=1`);
    const nameScreen = await web.get(one.location!);
    expect(nameScreen.text).toContain('Name?');
    expect(nameScreen.text).not.toContain('Pet?');
    expect(nameScreen.text).toContain('Question 2 of up to 4');

    // Back (nothing saved), then the first screen shows the saved answer
    const back = await post({ p: s.pages[0], screen: '1', nav: 'prev' }, nameScreen.text);
    expect(back.location).toBe(`${url.pathname}?p=${s.pages[0]}&screen=0`);
    expect((await web.get(back.location!)).text).toMatch(new RegExp(`value="${dog}" checked`));

    // leave and come back: where they left off, the answer saved
    const again = await web.get(url.pathname);
    expect(again.text).toContain('Name?');
    const two = await post(
      { p: s.pages[0], screen: '1', nav: 'next', [`q_${s.questions.name}`]: 'Bo' },
      again.text,
    );
    // the choice's rule fires at the page's end: page 3, page 2 skipped
    expect(two.location).toBe(`${url.pathname}?p=${s.pages[2]}&screen=0`);
    const last = await web.get(two.location!);
    expect(last.text).toContain('Question 3 of 3');
    const done = await post(
      { p: s.pages[2], screen: '0', nav: 'done', [`q_${s.questions.three}`]: 'End' },
      last.text,
    );
    expect(done.status).toBe(200);
    expect(done.text).toContain('thank-you');

    const responses = await server.client.get(`/v3/surveys/${s.id}/responses/bulk`, { token: owner.token });
    const [r] = responses.body.data;
    expect(r.response_status).toBe('completed');
    expect(r.page_path).toEqual([s.pages[0], s.pages[2]]);
    expect(r.pages.find((p: any) => p.id === s.pages[0]).questions).toEqual([
      { id: pet.id, answers: [{ choice_id: dog }] },
      { id: s.questions.name, answers: [{ text: 'Bo' }] },
    ]);
  });
  it('previews the survey one question a screen, as respondents see it', async () => {
    const s = await seedSurvey(server, owner, {
      title: 'Preview screens',
      body: { question_layout: 'one_at_a_time' },
      pages: [
        { title: 'One', questions: { pet: singleChoice('Pet?', ['Cat', 'Dog']), name: openEnded('Name?') } },
        { title: 'Two', questions: { two: openEnded('Two?') } },
      ],
    });
    const preview = new URL(s.survey.preview).pathname + new URL(s.survey.preview).search;
    const web = new WebSession(server.url);
    const first = await web.get(preview);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Pet?');
    expect(first.text).not.toContain('Name?');
    expect(first.text).toContain('Question 1 of 3');
    const second = await web.post(preview, { p: '1', nav: 'next' });
    expect(second.text).toContain('Name?');
    expect(second.text).not.toContain('Pet?');
    expect(second.text).toContain('Question 2 of 3');
    const third = await web.post(preview, { p: '2', nav: 'next' });
    expect(third.text).toContain('Two?');
    expect(third.text).toContain('Question 3 of 3');
    // a survey shown by pages previews by pages
    await server.client.patch(`/v3/surveys/${s.id}`, { question_layout: 'page' }, { token: owner.token });
    const paged = await web.get(preview);
    expect(paged.text).toContain('Pet?');
    expect(paged.text).toContain('Name?');
    expect(paged.text).toContain('Page 1 of 2');
  });
});
