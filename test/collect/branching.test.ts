// Skip logic through the API: the model (choice and page rules on the question and page objects,
// validated to jump forward, in /details and the OpenAPI document, remapped by copies, cleared
// with a deleted page) and responses sent through the API (page_path, logic_path, answers on
// skipped pages refused, disqualification with its webhook to a real receiver).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { errorCode } from '../helpers/client.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';
import { type Branching, branchingSurvey } from './branching-fixture.js';

let server: TestServer;
let owner: TestAccount;
let worker: OutboxWorker;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  owner = await server.account();
  worker = new OutboxWorker(server.deps);
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await worker.stop();
  await receiver.stop();
  await server.close();
});

const get = async (path: string) => (await server.client.get(path, { token: owner.token })).body;
const details = (id: string) => get(`/v3/surveys/${id}/details`);

function expect1002(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(errorCode(res as never)).toBe('1002');
  expect(res.body.error.message).toContain(field);
}

describe('skip logic: the model', () => {
  it('keeps choice and page rules in /details, the question and page objects and the OpenAPI document', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const d = await details(b.surveyId);
    expect(d.pages[0].questions[0].answers.choices.map((c: any) => c.logic)).toEqual([
      { action: 'go_to_page', page_id: b.pages[2] },
      { action: 'end_survey' },
      { action: 'disqualify' },
      undefined,
    ]);
    expect(d.pages[1].questions[0].answers.choices[0].logic).toEqual({
      action: 'go_to_page',
      page_id: b.pages[3],
    });
    expect(d.pages[2].logic).toEqual({ action: 'go_to_page', page_id: b.pages[4] });
    expect(d.pages[0]).not.toHaveProperty('logic');
    const page = await get(`/v3/surveys/${b.surveyId}/pages/${b.pages[2]}`);
    expect(page.logic).toEqual({ action: 'go_to_page', page_id: b.pages[4] });
    const question = await get(`/v3/surveys/${b.surveyId}/pages/${b.pages[0]}/questions/${b.questions[0]}`);
    expect(question.answers.choices[1].logic).toEqual({ action: 'end_survey' });
    const openapi = (await server.client.get('/v3/openapi.json')).body;
    expect(JSON.stringify(openapi)).toContain('go_to_page');
    expect(JSON.stringify(openapi)).toContain('logic_path');
  });

  it('refuses jumps backward, to the same page or out of the survey, naming the field (400/1002)', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const other = await branchingSurvey(server.client, owner.token);
    const q2 = `/v3/surveys/${b.surveyId}/pages/${b.pages[1]}/questions/${b.questions[1]}`;
    const { answers } = await get(q2);
    const withLogic = (logic: unknown) => ({
      answers: { choices: [answers.choices[0], { ...answers.choices[1], logic }] },
    });
    for (const [logic, message] of [
      [{ action: 'go_to_page', page_id: b.pages[0] }, 'answers.choices[1].logic.page_id'],
      [{ action: 'go_to_page', page_id: b.pages[1] }, 'answers.choices[1].logic.page_id'],
      [{ action: 'go_to_page', page_id: other.pages[4] }, 'is not in this survey'],
      [{ action: 'go_to_page' }, 'answers.choices[1].logic.page_id'],
      [{ action: 'end_survey', page_id: b.pages[4] }, 'only allowed when the action is go_to_page'],
    ] as const)
      expect1002(await server.client.patch(q2, withLogic(logic), { token: owner.token }), message);
    expect1002(
      await server.client.patch(q2, withLogic({ action: 'jump' }), { token: owner.token }),
      'action',
    );
    // only single_choice questions take choice rules
    const multi = await server.client.post(
      `/v3/surveys/${b.surveyId}/pages/${b.pages[3]}/questions`,
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: [{ heading: 'Many?' }],
        answers: { choices: [{ text: 'a', logic: { action: 'end_survey' } }] },
      },
      { token: owner.token },
    );
    expect1002(multi, 'answers.choices[0].logic');
    // a page rule, and a page move that would turn a rule backward
    expect1002(
      await server.client.patch(
        `/v3/surveys/${b.surveyId}/pages/${b.pages[3]}`,
        { logic: { action: 'go_to_page', page_id: b.pages[1] } },
        { token: owner.token },
      ),
      'pages[3].logic.page_id',
    );
    expect1002(
      await server.client.patch(
        `/v3/surveys/${b.surveyId}/pages/${b.pages[4]}`,
        { position: 1 },
        { token: owner.token },
      ),
      'logic.page_id',
    );
    // nothing changed
    const d = await details(b.surveyId);
    expect(d.pages.map((p: any) => p.id)).toEqual(b.pages);
    expect(d.pages[1].questions[0].answers.choices[1].logic).toBeUndefined();
    // A new survey's pages have no ids yet: its rules can end or disqualify, not jump.
    const bulk = await server.client.post(
      '/v3/surveys',
      {
        pages: [
          {
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Q' }],
                answers: {
                  choices: [
                    { text: 'end', logic: { action: 'end_survey' } },
                    { text: 'jump', logic: { action: 'go_to_page', page_id: b.pages[4] } },
                  ],
                },
              },
            ],
          },
        ],
      },
      { token: owner.token },
    );
    expect1002(bulk, 'pages[0].questions[0].answers.choices[1].logic.page_id');
  });

  it('copies rules with the copy’s page ids, and clears the rules that jumped to a deleted page', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const copy = await server.client.post(
      '/v3/surveys',
      { from_survey_id: b.surveyId },
      { token: owner.token },
    );
    expect(copy.status).toBe(201);
    const d = await details(copy.body.id);
    const pages = d.pages.map((p: any) => p.id);
    expect(pages.filter((id: string) => b.pages.includes(id))).toEqual([]);
    expect(d.pages[0].questions[0].answers.choices[0].logic).toEqual({
      action: 'go_to_page',
      page_id: pages[2],
    });
    expect(d.pages[1].questions[0].answers.choices[0].logic).toEqual({
      action: 'go_to_page',
      page_id: pages[3],
    });
    expect(d.pages[2].logic).toEqual({ action: 'go_to_page', page_id: pages[4] });
    expect(d.pages[0].questions[0].answers.choices[2].logic).toEqual({ action: 'disqualify' });

    const del = await server.client.delete(`/v3/surveys/${b.surveyId}/pages/${b.pages[2]}`, {
      token: owner.token,
    });
    expect(del.status).toBe(200);
    const after = await details(b.surveyId);
    expect(after.pages[0].questions[0].answers.choices[0].logic).toBeUndefined();
    expect(after.pages[0].questions[0].answers.choices[1].logic).toEqual({ action: 'end_survey' });
    expect(after.pages[1].questions[0].answers.choices[0].logic).toEqual({
      action: 'go_to_page',
      page_id: b.pages[3],
    });
  });
});

describe('skip logic: responses through the API', () => {
  const pick = (b: Branching, page: number, choice: string) => ({
    id: b.pages[page],
    questions: [{ id: b.questions[page], answers: [{ choice_id: choice }] }],
  });
  const say = (b: Branching, page: number, text: string) => ({
    id: b.pages[page],
    questions: [{ id: b.questions[page], answers: [{ text }] }],
  });

  it('records page_path and logic_path, refuses answers on skipped pages and disqualifies with its webhook', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const c = await server.client.post(
      `/v3/surveys/${b.surveyId}/collectors`,
      { type: 'weblink' },
      {
        token: owner.token,
      },
    );
    const hook = await server.client.post(
      '/v3/webhooks',
      {
        name: 'Disqualified',
        event_type: 'response_disqualified',
        object_type: 'survey',
        object_ids: [b.surveyId],
        subscription_url: `${receiver.url}/dq`,
      },
      { token: owner.token },
    );
    expect(hook.status).toBe(201);
    const post = (body: unknown) =>
      server.client.post(`/v3/collectors/${c.body.id}/responses`, body, { token: owner.token });

    // A: page 1 -> page 3 (choice rule) -> page 5 (page rule) -> end
    const a = await post({ pages: [pick(b, 0, b.route.A), say(b, 2, 'three'), say(b, 4, 'five')] });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      response_status: 'completed',
      page_path: [b.pages[0], b.pages[2], b.pages[4]],
      logic_path: {
        [b.pages[0]]: {
          question_id: b.questions[0],
          choice_id: b.route.A,
          action: 'go_to_page',
          page_id: b.pages[2],
        },
        [b.pages[2]]: { action: 'go_to_page', page_id: b.pages[4] },
      },
    });
    // D then X: page 1 -> 2 -> 4 -> 5
    const dx = await post({ pages: [pick(b, 0, b.route.D), pick(b, 1, b.fork.X), say(b, 3, 'four')] });
    expect(dx.body.page_path).toEqual([b.pages[0], b.pages[1], b.pages[3], b.pages[4]]);
    expect(Object.keys(dx.body.logic_path)).toEqual([b.pages[1]]);
    // no rule fired: {}
    const dy = await post({ pages: [pick(b, 0, b.route.D), pick(b, 1, b.fork.Y)] });
    expect(dy.body.page_path).toEqual([b.pages[0], b.pages[1], b.pages[2], b.pages[4]]);
    expect(dy.body.logic_path).toEqual({ [b.pages[2]]: { action: 'go_to_page', page_id: b.pages[4] } });
    // answers on a page the logic skips are refused
    const skipped = await post({ pages: [pick(b, 0, b.route.A), say(b, 1 + 2, 'four')] });
    expect1002(skipped, 'pages[1].id');
    const ended = await post({ pages: [pick(b, 0, b.route.B), say(b, 4, 'five')] });
    expect1002(ended, 'pages[1].id');
    // a partial response stops where its answers stop
    const partial = await post({ pages: [pick(b, 0, b.route.D)], response_status: 'partial' });
    expect(partial.body).toMatchObject({
      response_status: 'partial',
      page_path: [b.pages[0]],
      current_page_id: b.pages[1],
    });

    // C disqualifies: the status, and response_disqualified at the receiver
    const dq = await post({ pages: [pick(b, 0, b.route.C)] });
    expect(dq.status).toBe(201);
    expect(dq.body).toMatchObject({
      response_status: 'disqualified',
      page_path: [b.pages[0]],
      logic_path: { [b.pages[0]]: { choice_id: b.route.C, action: 'disqualify' } },
    });
    await worker.drain();
    const got = receiver.posts().filter((p) => p.path === '/hook/dq');
    expect(got).toHaveLength(1);
    expect(got[0].json).toMatchObject({ event_type: 'response_disqualified', object_id: dq.body.id });

    // PATCH re-runs the logic: choosing A instead of D moves the path
    const patched = await server.client.patch(
      `/v3/collectors/${c.body.id}/responses/${dy.body.id}`,
      {
        pages: [pick(b, 0, b.route.A), { id: b.pages[1], questions: [{ id: b.questions[1], answers: [] }] }],
      },
      { token: owner.token },
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.page_path).toEqual([b.pages[0], b.pages[2], b.pages[4]]);
  });
});

describe('disqualification on the respondent page', () => {
  it('redirects to the collector’s disqualification_url, stores disqualified and fires the webhook', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const c = await server.client.post(
      `/v3/surveys/${b.surveyId}/collectors`,
      { type: 'weblink', disqualification_url: 'https://example.com/not-eligible' },
      { token: owner.token },
    );
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    await server.client.post(
      '/v3/webhooks',
      {
        name: 'Page DQ',
        event_type: 'response_disqualified',
        object_type: 'collector',
        object_ids: [c.body.id],
        subscription_url: `${receiver.url}/page-dq`,
      },
      { token: owner.token },
    );
    const path = new URL(c.body.url).pathname;
    const first = await fetch(`${server.url}${path}`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await first.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
    expect(field('p')).toBe(b.pages[0]);
    const post = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: field('csrf'),
        p: field('p'),
        nav: 'next',
        [`q_${b.questions[0]}`]: b.route.C,
      }).toString(),
      redirect: 'manual',
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('https://example.com/not-eligible');
    const list = await get(`/v3/collectors/${c.body.id}/responses/bulk`);
    expect(list.data[0]).toMatchObject({ response_status: 'disqualified', page_path: [b.pages[0]] });
    await worker.drain();
    const got = receiver.posts().filter((p) => p.path === '/hook/page-dq');
    expect(got).toHaveLength(1);
    expect(got[0].json).toMatchObject({ event_type: 'response_disqualified', object_id: list.data[0].id });
    // coming back shows the end again, not the survey
    const again = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: 'manual' });
    expect(again.status).toBe(303);
  });
});

describe("the respondent's chrome", () => {
  it('validates logo_url and theme_color, serves the colour darkened to AA, and shows the browser’s translation', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const patch = (body: unknown) =>
      server.client.patch(`/v3/surveys/${b.surveyId}`, body, { token: owner.token });
    expect1002(await patch({ theme_color: 'purple' }), 'theme_color');
    expect1002(await patch({ logo_url: 'http://example.com/logo.png' }), 'logo_url');
    const ok = await patch({ theme_color: '#FFEE00', logo_url: 'https://example.com/logo.png' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ theme_color: '#ffee00', logo_url: 'https://example.com/logo.png' });
    const css = await server.client.get('/r/theme/ffee00.css');
    expect(css.status).toBe(200);
    // yellow on white fails AA: it is darkened until it passes
    const accent = /--accent: #([0-9a-f]{6})/.exec(css.text)![1];
    expect(accent).not.toBe('ffee00');
    expect((await server.client.get('/r/theme/nothex.css')).status).toBe(404);
    const cleared = await patch({ theme_color: null });
    expect(cleared.body).not.toHaveProperty('theme_color');

    const fr = await server.client.post(
      `/v3/surveys/${b.surveyId}/languages/fr`,
      {
        translations: [
          { context: 'survey_title_html', resource_id: b.surveyId, translation: 'Embranchements' },
          { context: 'question_heading', resource_id: b.questions[0], translation: 'Chemin ?' },
          { context: 'survey_next', resource_id: b.surveyId, translation: 'Suivant' },
          { context: 'question_option_text', resource_id: b.route.A, translation: 'Première' },
        ],
      },
      { token: owner.token },
    );
    expect(fr.status, JSON.stringify(fr.body)).toBe(200);
    const c = await server.client.post(
      `/v3/surveys/${b.surveyId}/collectors`,
      { type: 'weblink' },
      {
        token: owner.token,
      },
    );
    const path = new URL(c.body.url).pathname;
    const french = await server.client.get(path, {
      headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' },
    });
    expect(french.text).toContain('<html lang="fr">');
    for (const t of ['Embranchements', 'Chemin ?', 'Suivant', 'Première']) expect(french.text).toContain(t);
    // no links away from the survey, the logo in the header
    expect(french.text).not.toMatch(/href="\/(docs|login|developer)/);
    expect(french.text).toContain('src="https://example.com/logo.png"');
    const english = await server.client.get(path, { headers: { 'accept-language': 'en-GB,fr;q=0.8' } });
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Route?');
    expect(english.text).not.toContain('Suivant');
  });
});
