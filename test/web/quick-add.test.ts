// The builder's quick-add box over HTTP: what each kind takes from the lines typed (choices with
// their skip-logic rules, rows, columns, dropdown columns with their menus, boxes), required and
// validation set while adding, and a refusal shown beside the box in the owner's words, focused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { csrfToken, signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let survey: any;
let path: string;

/** The page's error message, as the owner reads it. */
const alertOf = (text: string) =>
  (/role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? '')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#x27;', "'")
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
const token = () => new URL(survey.edit_url).searchParams.get('sm')!;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  web = await signIn(server, owner);
  const pages = ['Start', 'Middle', 'End'].map((title) => ({ title, questions: [] }));
  const res = await server.client.post('/v3/surveys', { title: 'Quick', pages }, { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  survey = res.body;
  path = `/create/?sm=${token()}`;
});
afterAll(() => server.close());

async function details() {
  const res = await server.client.get(`/v3/surveys/${survey.id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function add(pageId: string, form: Record<string, string>) {
  const page = await web.get(path);
  return web.post(`/create/pages/${pageId}/questions?sm=${token()}`, {
    _csrf: csrfToken(page.text),
    ...form,
  });
}

async function added(pageId: string, form: Record<string, string>) {
  const res = await add(pageId, form);
  expect(res.status, alertOf(res.text)).toBe(303);
  expect(res.location).toBe(`${path}&done=question_added#add-${pageId}`);
  const d = await details();
  return d.pages.find((p: any) => p.id === pageId).questions.at(-1);
}

describe('the quick-add box', () => {
  it('takes choices with their skip logic, required, while adding', async () => {
    const [p1, p2, p3] = (await details()).pages;
    const q = await added(p1.id, {
      kind: 'single_choice',
      heading: 'Have you stayed with us before?',
      choices: 'Yes -> page 3\nNo\nNot sure -> end\nSpam -> disqualify',
      required: 'yes',
    });
    expect(q.required).toMatchObject({ type: 'all' });
    expect(q.answers.choices.map((c: any) => [c.text, c.logic ?? null])).toEqual([
      ['Yes', { action: 'go_to_page', page_id: p3.id }],
      ['No', null],
      ['Not sure', { action: 'end_survey' }],
      ['Spam', { action: 'disqualify' }],
    ]);
    // A rule that goes back, to a missing page, or on a question without skip logic is refused in words.
    let res = await add(p2.id, { kind: 'single_choice', heading: 'Back?', choices: 'Yes -> page 1' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toContain('skip logic only goes to a later page than this one (page 2)');
    res = await add(p2.id, { kind: 'dropdown', heading: 'Far?', choices: 'Yes -> page 9' });
    expect(alertOf(res.text)).toContain('leads to page 9, but the survey has 3 pages');
    res = await add(p2.id, { kind: 'multiple_choice', heading: 'Many?', choices: 'A -> end' });
    expect(alertOf(res.text)).toContain('only single choice and dropdown questions have skip logic');
    res = await add(p2.id, { kind: 'single_choice', heading: 'Where?', choices: 'A -> somewhere' });
    expect(alertOf(res.text)).toContain('after "->" write a later page\'s number');
  });

  it('takes rows, columns, dropdown menus, items and boxes for every kind that has them', async () => {
    const pageId = (await details()).pages[1].id;
    const matrix = await added(pageId, {
      kind: 'matrix_single',
      heading: 'Rate the rooms',
      choices: 'Bad\nGood',
      rows: 'Bed\nShower\nView',
    });
    expect(matrix.answers.rows.map((r: any) => r.text)).toEqual(['Bed', 'Shower', 'View']);
    expect(matrix.answers.choices.map((c: any) => c.text)).toEqual(['Bad', 'Good']);
    const rating = await added(pageId, {
      kind: 'matrix_rating',
      heading: 'How was',
      choices: 'Awful\nOK\nGreat',
      rows: 'Breakfast\nDinner',
    });
    expect(rating.answers.rows.map((r: any) => r.text)).toEqual(['Breakfast', 'Dinner']);
    expect(rating.answers.choices.map((c: any) => [c.text, c.weight])).toEqual([
      ['Awful', 1],
      ['OK', 2],
      ['Great', 3],
    ]);
    const menu = await added(pageId, {
      kind: 'matrix_menu',
      heading: 'Sizes',
      choices: 'Shirt: S, M, L\nShoes',
      rows: 'You\nYour partner',
    });
    expect(menu.answers.rows.map((r: any) => r.text)).toEqual(['You', 'Your partner']);
    expect(menu.answers.cols.map((c: any) => [c.text, c.choices.map((x: any) => x.text)])).toEqual([
      ['Shirt', ['S', 'M', 'L']],
      ['Shoes', ['Option 1', 'Option 2']],
    ]);
    const boxes = await added(pageId, { kind: 'multiple_textboxes', heading: 'Names', rows: 'First\nLast' });
    expect(boxes.answers.rows.map((r: any) => r.text)).toEqual(['First', 'Last']);
    const ranking = await added(pageId, { kind: 'ranking', heading: 'Rank', choices: 'Price\nPlace' });
    expect(ranking.answers.rows.map((r: any) => r.text)).toEqual(['Price', 'Place']);
    // A kind without choices or rows says so rather than dropping the lines.
    const res = await add(pageId, { kind: 'single_textbox', heading: 'Name', choices: 'A\nB' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toContain('A "Single textbox" question has no choices: leave "Choices" empty.');
  });

  it('sets validation while adding, and refuses it in words where a kind has none', async () => {
    const pageId = (await details()).pages[2].id;
    const q = await added(pageId, {
      kind: 'single_textbox',
      heading: 'Your age',
      validation: 'integer',
      min: '18',
      max: '120',
      required: 'yes',
    });
    expect(q.validation).toMatchObject({ type: 'integer', min: '18', max: '120' });
    expect(q.required).toMatchObject({ type: 'all' });
    const res = await add(pageId, { kind: 'single_choice', heading: 'Pick', validation: 'email' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toContain('cannot check its answers that way');
  });

  it('shows a refusal beside the box, focused, in words, with what was typed', async () => {
    const pageId = (await details()).pages[0].id;
    const res = await add(pageId, { kind: 'single_choice', heading: '', choices: 'Kept line' });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`id="add-${pageId}" class="add-question"`);
    expect(res.text).toMatch(
      new RegExp(`id="add-${pageId}-error" tabindex="-1" autofocus>Write the question text\\.`),
    );
    expect(res.text).toContain('>Kept line</textarea>');
    const long = await add(pageId, {
      kind: 'single_choice',
      heading: 'Q',
      choices: `A\n${'b'.repeat(20_001)}`,
    });
    expect(long.status).toBe(400);
    expect(alertOf(long.text)).toContain('Choice 2 must not have more than 20000 characters.');
  });
});

describe('custom variables in the survey settings', () => {
  it('are set one a line, show the link they make, and a bad name is refused in words', async () => {
    const settings = async (form: Record<string, string>) => {
      const page = await web.get(path);
      return web.post(`/create/settings?sm=${token()}`, {
        _csrf: csrfToken(page.text),
        title: 'Quick',
        ...form,
      });
    };
    let res = await settings({ custom_variables: 'ref\nsource: Where they came from\n' });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    expect((await details()).custom_variables).toEqual({ ref: 'ref', source: 'Where they came from' });
    const page = await web.get(path);
    expect(page.text).toContain('?ref=[ref_value]&amp;source=[source_value]</code>');
    expect(page.text).toContain('ref\nsource: Where they came from</textarea>');
    res = await settings({ custom_variables: 'bad name' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toContain('The custom variable "bad name" may only use letters, digits and _');
    res = await settings({ custom_variables: '' });
    expect((await details()).custom_variables).toEqual({});
  });
});
