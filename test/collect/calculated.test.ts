// Calculated variables through HTTP: the survey's extension field (GET, PATCH, PUT and its
// refusals), their values recalled on the respondent pages, in display conditions (pages and the
// API's replay alike), in the collector's end redirect, and as columns of the CSV and SPSS exports.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { errorCode } from '../helpers/client.js';
import { type SeededSurvey, seedSurvey } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let s: SeededSurvey;
let extra: string;
let collector: { id: string; url: string };

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  s = await seedSurvey(server, owner, {
    title: 'Scores',
    body: { custom_variables: { src: 'Source' } },
    pages: [
      {
        questions: {
          pick: {
            family: 'single_choice',
            subtype: 'vertical',
            headings: [{ heading: 'Pick one' }],
            answers: {
              choices: [
                { text: 'Low', weight: 2 },
                { text: 'High', weight: 5 },
              ],
            },
          },
          count: { family: 'open_ended', subtype: 'single', headings: [{ heading: 'How many?' }] },
        },
      },
      { title: 'Your total', questions: {} },
    ],
  });
  const c = await server.client.post(
    `/v3/surveys/${s.id}/collectors`,
    {
      type: 'weblink',
      redirect_type: 'url',
      redirect_url:
        'https://example.com/done?score=[variable("total")]&half=[variable("half")]&src=[custom_variable("src")]',
    },
    { token: owner.token },
  );
  expect(c.status, c.text).toBe(201);
  collector = c.body;
});
afterAll(() => server.close());

const patch = (body: object) => server.client.patch(`/v3/surveys/${s.id}`, body, { token: owner.token });

describe('the calculated_variables extension field', () => {
  it('is set by PATCH, shown by GET and refused with the field named', async () => {
    expect(
      (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.calculated_variables,
    ).toEqual([]);
    const variables = [
      { name: 'total', formula: `question("${s.questions.pick}") + question("${s.questions.count}")` },
      { name: 'half', formula: 'round(total / 2, 1)' },
    ];
    const res = await patch({ calculated_variables: variables });
    expect(res.status, res.text).toBe(200);
    expect(res.body.calculated_variables).toEqual(variables);
    const got = await server.client.get(`/v3/surveys/${s.id}/details`, { token: owner.token });
    expect(got.body.calculated_variables).toEqual(variables);

    const bad = await patch({
      calculated_variables: [variables[0], { name: 'loop', formula: 'loop + 1' }],
    });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('1002');
    expect(bad.body.error.message).toContain("'calculated_variables[1].formula'");
    const unknown = await patch({ calculated_variables: [{ name: 'x', formula: 'question("12345") * 2' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("'calculated_variables[0].formula'");
    const badName = await patch({ calculated_variables: [{ name: 'no spaces', formula: '1' }] });
    expect(badName.status).toBe(400);
    expect(errorCode(badName)).toBe('1002');
    // nothing refused was kept
    expect(
      (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.calculated_variables,
    ).toEqual(variables);
  });

  it('pipes, and conditions a question on, a variable', async () => {
    const page = await server.client.patch(
      `/v3/surveys/${s.id}/pages/${s.pages[1]}`,
      { description: 'You scored [variable("total")], half is [variable("half"), fallback="none"].' },
      { token: owner.token },
    );
    expect(page.status, page.text).toBe(200);
    const q = await server.client.post(
      `/v3/surveys/${s.id}/pages/${s.pages[1]}/questions`,
      {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: 'Why more than 6?' }],
        display_logic: { variable: 'total', operator: 'greater_than', value: '6' },
      },
      { token: owner.token },
    );
    expect(q.status, q.text).toBe(201);
    extra = q.body.id;
    const refused = await server.client.post(
      `/v3/surveys/${s.id}/pages/${s.pages[1]}/questions`,
      { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Total [variable("sum")]' }] },
      { token: owner.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('no calculated variable "sum"');
  });
});

/** A respondent of the collector through plain form posts (no script), keeping the cookie. */
function respondent(url: string) {
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
  const post = (answers: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: field('csrf'), p: field('p'), nav: 'next', ...answers }).toString(),
      redirect: 'manual',
    });
  return { open, post };
}

describe('values on the respondent pages', () => {
  it('recalls the values, shows the question whose condition holds and redirects with them', async () => {
    const a = respondent(`${collector.url}?src=mail`);
    await a.open();
    const [, high] = s.choices.pick;
    expect((await a.post({ [`q_${s.questions.pick}`]: high, [`q_${s.questions.count}`]: '4' })).status).toBe(
      303,
    );
    const two = await a.open();
    expect(two).toContain('You scored 9, half is 4.5.');
    expect(two).toContain(`q_${extra}`);
    const done = await a.post({ [`q_${extra}`]: 'Because' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://example.com/done?score=9&half=4.5&src=mail');
  });

  it('hides the question when the condition fails, and shows a fallback for an empty value', async () => {
    const b = respondent(collector.url);
    await b.open();
    const [low] = s.choices.pick;
    await b.post({ [`q_${s.questions.pick}`]: low, [`q_${s.questions.count}`]: 'none' });
    const two = await b.open();
    // "none" is no number: the total is empty, and so is half (its fallback shows)
    expect(two).toContain('You scored , half is none.');
    expect(two).not.toContain(`q_${extra}`);
    const done = await b.post({ [`q_${extra}`]: 'sneaked in' });
    expect(done.headers.get('location')).toBe('https://example.com/done?score=&half=&src=');
  });
});

describe('the API replay and the exports', () => {
  const body = (choice: string, count: string, why?: string) => ({
    pages: [
      {
        id: s.pages[0],
        questions: [
          { id: s.questions.pick, answers: [{ choice_id: choice }] },
          { id: s.questions.count, answers: [{ text: count }] },
        ],
      },
      { id: s.pages[1], questions: why ? [{ id: extra, answers: [{ text: why }] }] : [] },
    ],
  });

  it('refuses an answer to a question a variable hides, and takes it where the variable shows it', async () => {
    const [low, high] = s.choices.pick;
    const hidden = await server.client.post(`/v3/collectors/${collector.id}/responses`, body(low, '1', 'x'), {
      token: owner.token,
    });
    expect(hidden.status).toBe(400);
    expect(errorCode(hidden)).toBe('1002');
    expect(hidden.body.error.message).toContain(`question ${extra} is hidden by its display logic`);
    const shown = await server.client.post(
      `/v3/collectors/${collector.id}/responses`,
      body(high, '10', 'y'),
      {
        token: owner.token,
      },
    );
    expect(shown.status, shown.text).toBe(201);
  });

  it('exports each variable as a column of the CSV, numbered in SPSS', async () => {
    const res = await server.client.post(
      `/v3/surveys/${s.id}/exports`,
      { format: 'csv', values: 'numeric' },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(201);
    const file = await fetch(res.body.download_url.replace(/^http:\/\/localhost/, server.url), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const rows: string[][] = parse(Buffer.from(await file.arrayBuffer()), { bom: true });
    const at = rows[0].indexOf('total');
    expect(at).toBeGreaterThan(0);
    expect(rows[1].slice(at)).toEqual(['Calculated value', 'Calculated value']);
    expect(rows[0][at + 1]).toBe('half');
    // the two respondents of the pages, then the API's response, oldest first
    expect(rows.slice(2).map((r) => r.slice(at))).toEqual([
      ['9', '4.5'],
      ['', ''],
      ['15', '7.5'],
    ]);

    const spss = await server.client.post(
      `/v3/surveys/${s.id}/exports`,
      { format: 'spss' },
      { token: owner.token },
    );
    expect(spss.status, spss.text).toBe(201);
    const sps = await (
      await fetch(spss.body.download_url.replace(/^http:\/\/localhost/, server.url), {
        headers: { authorization: `Bearer ${owner.token}` },
      })
    ).text();
    expect(sps).toContain('calc_total F8.2');
    expect(sps).toContain("calc_half 'half: Calculated value'");
  });
});

describe('a skip rule conditioned on a variable', () => {
  it('ends the survey after the page only when the variable compares so, on the pages and through the API', async () => {
    const pagePath = `/v3/surveys/${s.id}/pages/${s.pages[0]}`;
    const unknown = await server.client.patch(
      pagePath,
      { logic: { action: 'end_survey', when: { variable: 'nope', operator: 'greater_than', value: '20' } } },
      { token: owner.token },
    );
    expect(unknown.status).toBe(400);
    expect(errorCode(unknown)).toBe('1002');
    expect(unknown.body.error.message).toContain("'logic.when.variable'");
    const rule = { action: 'end_survey', when: { variable: 'total', operator: 'greater_than', value: '20' } };
    const set = await server.client.patch(pagePath, { logic: rule }, { token: owner.token });
    expect(set.status, set.text).toBe(200);
    expect(set.body.logic).toEqual(rule);

    const [, high] = s.choices.pick;
    // 5 + 30 > 20: the survey ends after page 1 (and the end redirect carries the total)
    const a = respondent(collector.url);
    await a.open();
    const ended = await a.post({ [`q_${s.questions.pick}`]: high, [`q_${s.questions.count}`]: '30' });
    expect(ended.headers.get('location')).toBe('https://example.com/done?score=35&half=17.5&src=');
    // 5 + 3: on to page 2
    const b = respondent(collector.url);
    await b.open();
    const next = await b.post({ [`q_${s.questions.pick}`]: high, [`q_${s.questions.count}`]: '3' });
    expect(next.status).toBe(303);
    expect(next.headers.get('location')).not.toContain('example.com');

    const page1 = (count: string) => ({
      pages: [
        {
          id: s.pages[0],
          questions: [
            { id: s.questions.pick, answers: [{ choice_id: high }] },
            { id: s.questions.count, answers: [{ text: count }] },
          ],
        },
      ],
    });
    const short = await server.client.post(`/v3/collectors/${collector.id}/responses`, page1('30'), {
      token: owner.token,
    });
    expect(short.status, short.text).toBe(201);
    expect(short.body.page_path).toEqual([s.pages[0]]);
    expect(short.body.logic_path).toEqual({ [s.pages[0]]: { action: 'end_survey' } });
    const long = await server.client.post(`/v3/collectors/${collector.id}/responses`, page1('3'), {
      token: owner.token,
    });
    expect(long.body.page_path).toEqual(s.pages);
  });
});
