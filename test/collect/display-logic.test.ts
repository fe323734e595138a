// Display logic and piping (docs/api-extensions.md): a question shown only when an earlier answer
// or a custom variable meets its condition, and texts that recall earlier answers. Through the API
// (the model, its refusals, responses with answers to hidden questions) and the respondent pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { errorCode } from '../helpers/client.js';
import { csrfToken, signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

const text = (heading: string, extra: object = {}) => ({
  family: 'open_ended',
  subtype: 'single',
  headings: [{ heading }],
  ...extra,
});

interface Pets {
  surveyId: string;
  pages: string[];
  owns: string;
  name: string;
  yes: string;
  no: string;
  petName: string;
  fromEmail: string;
  q: (page: number, qid: string) => string;
}

/** Page 1 asks whether you own a pet and your name; page 2 asks the pet's name (only of owners,
 * required, piping your name) and a question for links with ?src=email. */
async function petsSurvey(): Promise<Pets> {
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Pets',
      custom_variables: { src: 'Source' },
      pages: [
        {
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Do you own a pet?' }],
              answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
            },
            text('Your first name?'),
          ],
        },
        { questions: [] },
      ],
    },
    { token: owner.token },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const d = (await server.client.get(`/v3/surveys/${created.body.id}/details`, { token: owner.token })).body;
  const pages = d.pages.map((p: { id: string }) => p.id);
  const [owns, name] = d.pages[0].questions;
  const q = (page: number, qid: string) =>
    `/v3/surveys/${d.id}/pages/${pages[page]}/questions${qid ? `/${qid}` : ''}`;
  const add = async (body: object) => {
    const r = await server.client.post(q(1, ''), body, { token: owner.token });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  const petName = await add(
    text(`Thanks [question("value"), id="${name.id}", fallback="friend"]! What is your pet's name?`, {
      required: { text: 'Tell us the name.', type: 'all', amount: '0' },
      display_logic: { question_id: owns.id, choice_ids: [owns.answers.choices[0].id] },
    }),
  );
  const fromEmail = await add(
    text('You came from our email: why?', { display_logic: { custom_variable: 'src', value: 'email' } }),
  );
  return {
    surveyId: d.id,
    pages,
    owns: owns.id,
    name: name.id,
    yes: owns.answers.choices[0].id,
    no: owns.answers.choices[1].id,
    petName,
    fromEmail,
    q,
  };
}

/** A new weblink collector of the survey: its id and URL. */
async function weblink(surveyId: string): Promise<{ id: string; url: string }> {
  const c = await server.client.post(
    `/v3/surveys/${surveyId}/collectors`,
    { type: 'weblink' },
    { token: owner.token },
  );
  expect(c.status).toBe(201);
  return c.body;
}

function expect1002(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(errorCode(res as never)).toBe('1002');
  expect(res.body.error.message).toContain(field);
}

describe('display logic and piping: the model', () => {
  it('keeps display_logic (with its operator) and piped text as written in the question and /details', async () => {
    const s = await petsSurvey();
    const got = (await server.client.get(s.q(1, s.petName), { token: owner.token })).body;
    expect(got.display_logic).toEqual({ question_id: s.owns, choice_ids: [s.yes], operator: 'selected' });
    expect(got.headings[0].heading).toBe(
      `Thanks [question("value"), id="${s.name}", fallback="friend"]! What is your pet's name?`,
    );
    const d = (await server.client.get(`/v3/surveys/${s.surveyId}/details`, { token: owner.token })).body;
    expect(d.pages[1].questions[1].display_logic).toEqual({
      custom_variable: 'src',
      value: 'email',
      operator: 'equals',
    });
    expect(d.pages[0].questions[0]).not.toHaveProperty('display_logic');
    // PATCH null removes it
    const off = await server.client.patch(
      s.q(1, s.fromEmail),
      { display_logic: null },
      { token: owner.token },
    );
    expect(off.status).toBe(200);
    expect(off.body).not.toHaveProperty('display_logic');
  });

  it('refuses a condition on itself, on a later or same-page question, or on an unknown choice or variable', async () => {
    const s = await petsSurvey();
    const patch = (path: string, display_logic: unknown) =>
      server.client.patch(path, { display_logic }, { token: owner.token });
    expect1002(
      await patch(s.q(1, s.petName), { question_id: s.petName, operator: 'answered' }),
      'refer to itself',
    );
    expect1002(
      await patch(s.q(0, s.owns), { question_id: s.petName, operator: 'answered' }),
      "'display_logic.question_id': question",
    );
    expect1002(
      await patch(s.q(0, s.name), { question_id: s.owns, choice_ids: [s.yes] }),
      'not on an earlier page',
    );
    expect1002(
      await patch(s.q(1, s.fromEmail), { question_id: s.owns, choice_ids: ['1'] }),
      'display_logic.choice_ids[0]',
    );
    expect1002(
      await patch(s.q(1, s.fromEmail), { custom_variable: 'nope', value: 'x' }),
      'display_logic.custom_variable',
    );
    expect1002(
      await patch(s.q(1, s.fromEmail), { question_id: s.owns, custom_variable: 'src' }),
      "'display_logic'",
    );
    expect1002(
      await patch(s.q(1, s.fromEmail), { question_id: s.owns, operator: 'selected' }),
      'display_logic.choice_ids',
    );
    expect1002(
      await patch(s.q(1, s.fromEmail), { custom_variable: 'src', operator: 'contains' }),
      'display_logic.value',
    );
  });

  it('refuses piping from a later question, from itself, or an unknown contact field, naming the field', async () => {
    const s = await petsSurvey();
    const heading = (h: string) =>
      server.client.patch(s.q(0, s.name), { headings: [{ heading: h }] }, { token: owner.token });
    expect1002(await heading(`Hi [question("value"), id="${s.petName}"]`), "'headings[0].heading': question");
    expect1002(await heading(`Hi [question("value"), id="${s.name}"]`), 'refer to itself');
    expect1002(await heading('Hi [contact("phone")]'), '\'headings[0].heading\': contact("phone")');
    expect1002(await heading('Hi [custom_variable("nope")]'), 'no custom variable "nope"');
    const choice = await server.client.patch(
      s.q(0, s.owns),
      { answers: { choices: [{ text: `[question("value"), id="${s.name}"]` }] } },
      { token: owner.token },
    );
    expect1002(choice, "'answers.choices[0].text'");
    expect((await heading('Hi [contact("first_name"), fallback="there"]')).status).toBe(200);
  });

  it('refuses, in a survey written in one request, a recall or condition naming a question of another survey', async () => {
    const s = await petsSurvey();
    const create = (question: object) =>
      server.client.post(
        '/v3/surveys',
        {
          title: 'One request',
          pages: [
            { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Name?' }] }] },
            { questions: [{ family: 'open_ended', subtype: 'single', ...question }] },
          ],
        },
        { token: owner.token },
      );
    expect1002(
      await create({ headings: [{ heading: `Hi [question("value"), id="${s.name}"]` }] }),
      "'pages[1].questions[0].headings[0].heading': question",
    );
    expect1002(
      await create({
        headings: [{ heading: 'Why?' }],
        display_logic: { question_id: s.owns, choice_ids: [s.yes] },
      }),
      "'pages[1].questions[0].display_logic.question_id': question",
    );
    const plain = await create({ headings: [{ heading: 'Hi [contact("first_name"), fallback="there"]' }] });
    expect(plain.status, plain.text).toBe(201);
  });
});

describe('display logic through the API', () => {
  it('refuses an answer to a question its display logic hides, naming it, and takes it when shown', async () => {
    const s = await petsSurvey();
    const c = await weblink(s.surveyId);
    const send = (owns: string, extra: object = {}) =>
      server.client.post(
        `/v3/collectors/${c.id}/responses`,
        {
          pages: [
            { id: s.pages[0], questions: [{ id: s.owns, answers: [{ choice_id: owns }] }] },
            { id: s.pages[1], questions: [{ id: s.petName, answers: [{ text: 'Rex' }] }] },
          ],
          ...extra,
        },
        { token: owner.token },
      );
    expect1002(
      await send(s.no),
      `'pages[1].questions[0]': question ${s.petName} is hidden by its display logic`,
    );
    expect((await send(s.yes)).status).toBe(201);
    // a custom variable decides too
    const email = (src: string) =>
      server.client.post(
        `/v3/collectors/${c.id}/responses`,
        {
          custom_variables: { src },
          pages: [{ id: s.pages[1], questions: [{ id: s.fromEmail, answers: [{ text: 'curious' }] }] }],
        },
        { token: owner.token },
      );
    expect1002(await email('web'), `question ${s.fromEmail} is hidden`);
    expect((await email('Email')).status).toBe(201);
  });
});

/** A respondent in a browser without script: GET the link, then POST pages as the form does. */
async function respondent(url: string) {
  const path = new URL(url).pathname + new URL(url).search;
  let cookie = '';
  let page = '';
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const open = async () => {
    const r = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
    cookie ||= (r.headers.get('set-cookie') ?? '').split(';')[0];
    page = await r.text();
    return page;
  };
  const post = async (answers: Record<string, string>) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: field('csrf'), p: field('p'), nav: 'next', ...answers }).toString(),
      redirect: 'manual',
    });
    return r;
  };
  return { open, post, field, html: () => page };
}

describe('display logic and piping on the respondent pages', () => {
  it('hides a question whose condition fails (not required, no answer) and shows it, with the recall escaped', async () => {
    const s = await petsSurvey();
    const c = await weblink(s.surveyId);
    // a non-owner: page 2 has no pet question; Done with nothing completes
    const a = await respondent(c.url);
    await a.open();
    expect((await a.post({ [`q_${s.owns}`]: s.no, [`q_${s.name}`]: 'Ann' })).status).toBe(303);
    const two = await a.open();
    expect(a.field('p')).toBe(s.pages[1]);
    expect(two).not.toContain(`q_${s.petName}`);
    expect(two).not.toContain('You came from our email');
    expect((await a.post({ [`q_${s.petName}`]: 'sneaked in' })).status).toBe(200); // thank you
    const list = (await server.client.get(`/v3/collectors/${c.id}/responses/bulk`, { token: owner.token }))
      .body;
    expect(list.data[0].response_status).toBe('completed');
    expect(JSON.stringify(list.data[0].pages)).not.toContain('sneaked in');

    // an owner whose name is markup: it is recalled as text, and the question is required
    const b = await respondent(`${c.url}?src=email`);
    await b.open();
    await b.post({ [`q_${s.owns}`]: s.yes, [`q_${s.name}`]: '<b>Bo</b>' });
    const shown = await b.open();
    expect(shown).toContain(`name="q_${s.petName}"`);
    expect(shown).toContain('Thanks &lt;b&gt;Bo&lt;/b&gt;! What is your pet');
    expect(shown).toContain('You came from our email');
    const missing = await b.post({});
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain('Tell us the name.');
    expect((await b.post({ [`q_${s.petName}`]: 'Rex' })).status).toBe(200);

    // the fallback when the recalled answer is empty
    const f = await respondent(c.url);
    await f.open();
    await f.post({ [`q_${s.owns}`]: s.yes });
    expect(await f.open()).toContain('Thanks friend! What is your pet');
  });
});

describe('moves and deletes keep every look-back looking back', () => {
  const pagePath = (s: Pets, page: number) => `/v3/surveys/${s.surveyId}/pages/${s.pages[page]}`;
  const order = async (s: Pets) =>
    (await server.client.get(`/v3/surveys/${s.surveyId}/details`, { token: owner.token })).body.pages.map(
      (p: { id: string; questions: Array<{ id: string }> }) => [p.id, p.questions.map((q) => q.id)],
    );

  it('refuses a page or question move that would leave a condition or a recall looking forward, moving nothing', async () => {
    const s = await petsSurvey();
    const before = await order(s);
    // the pet question's condition and recall look at page 1: page 2 may not go first
    expect1002(
      await server.client.patch(pagePath(s, 1), { position: 1 }, { token: owner.token }),
      "'pages[0].questions[0].display_logic.question_id': question",
    );
    // nor may (on the edit page, the one place a question changes page) the asked-about question
    // join it on page 2, nor the pet question go up to page 1; the page says why
    const web = await signIn(server, owner);
    const survey = (await server.client.get(`/v3/surveys/${s.surveyId}`, { token: owner.token })).body;
    const sm = new URL(survey.edit_url).searchParams.get('sm');
    const move = async (qid: string, from: number, to: number) => {
      const page = await web.get(`/create/?sm=${sm}`);
      const csrf = csrfToken(page.text);
      return web.post(`/create/pages/${s.pages[from]}/questions/${qid}/move?sm=${sm}`, {
        _csrf: csrf,
        to_page: s.pages[to],
        position: '1',
      });
    };
    let res = await move(s.owns, 0, 1);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/role="alert"[^>]*>[^<]*is not on an earlier page/);
    res = await move(s.petName, 1, 0);
    expect(res.status).toBe(400);
    expect(res.text).toContain('display_logic.question_id');
    expect(await order(s)).toEqual(before);
    // a question nobody looks at moves freely
    expect((await move(s.fromEmail, 1, 0)).status).toBe(303);
    expect((await order(s))[0][1][0]).toBe(s.fromEmail);
  });

  it('deleting a question, or its page, clears the conditions on it: the question is shown to everyone', async () => {
    const s = await petsSurvey();
    const del = await server.client.delete(s.q(0, s.owns), { token: owner.token });
    expect(del.status).toBe(200);
    const pet = (await server.client.get(s.q(1, s.petName), { token: owner.token })).body;
    expect(pet).not.toHaveProperty('display_logic');
    const c = await weblink(s.surveyId);
    const a = await respondent(c.url);
    await a.open();
    await a.post({ [`q_${s.name}`]: 'Ann' });
    expect(await a.open()).toContain(`name="q_${s.petName}"`);

    const t = await petsSurvey();
    expect((await server.client.delete(pagePath(t, 0), { token: owner.token })).status).toBe(200);
    const pet2 = await server.client.get(`/v3/surveys/${t.surveyId}/details`, { token: owner.token });
    expect(pet2.body.pages[0].questions[0].id).toBe(t.petName);
    expect(pet2.body.pages[0].questions[0]).not.toHaveProperty('display_logic');
  });
});

describe('recalls in page titles and descriptions', () => {
  it('shows the earlier answer on the respondent page, refuses a same-page or forward recall, and keeps it on moves', async () => {
    const s = await petsSurvey();
    const recall = `[question("value"), id="${s.name}", fallback="friend"]`;
    const page = (n: number, body: object) =>
      server.client.patch(`/v3/surveys/${s.surveyId}/pages/${s.pages[n]}`, body, { token: owner.token });
    expect1002(await page(0, { title: `Hello ${recall}` }), "'pages[0].title': question");
    expect1002(await page(0, { description: 'Hi [contact("phone")]' }), '\'description\': contact("phone")');
    const ok = await page(1, { title: `About your pet, ${recall}`, description: `Thanks, ${recall}.` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.title).toBe(`About your pet, ${recall}`);
    // the page that recalls may not move before the page it recalls from
    await server.client.patch(
      s.q(1, s.petName),
      { display_logic: null, headings: [{ heading: 'Its name?' }] },
      { token: owner.token },
    );
    expect1002(await page(1, { position: 1 }), "'pages[0].title': question");

    const c = await weblink(s.surveyId);
    const a = await respondent(c.url);
    await a.open();
    await a.post({ [`q_${s.owns}`]: s.yes, [`q_${s.name}`]: '<i>Ann</i>' });
    const shown = await a.open();
    expect(shown).toContain('About your pet, &lt;i&gt;Ann&lt;/i&gt;</h2>');
    expect(shown).toContain('Thanks, &lt;i&gt;Ann&lt;/i&gt;.');

    // a copy's page title recalls the copy's question
    const copy = await server.client.post(
      '/v3/surveys',
      { from_survey_id: s.surveyId, title: 'Pets again' },
      { token: owner.token },
    );
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const d = (await server.client.get(`/v3/surveys/${copy.body.id}/details`, { token: owner.token })).body;
    const copiedName = d.pages[0].questions[1].id;
    expect(copiedName).not.toBe(s.name);
    expect(d.pages[1].title).toBe(
      `About your pet, [question("value"), id="${copiedName}", fallback="friend"]`,
    );
  });
});
