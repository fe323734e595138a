// The builder's quiz switch over HTTP: quiz_options set from the page through the same updateSurvey
// as PATCH /v3/surveys/{id}, each choice's score field shown once it is on, and a refused range
// worded for the owner beside the form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, signIn, singleChoice, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let survey: any;
let path: string;

const alertOf = (text: string) =>
  (/role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? '').replaceAll('&quot;', '"').replaceAll('&#39;', "'");
const token = () => new URL(survey.edit_url).searchParams.get('sm')!;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  web = await signIn(server, owner);
  const pages = [{ title: 'Only', questions: { sum: singleChoice('Two and two?', ['Four', 'Five']) } }];
  survey = (await seedSurvey(server, owner, { title: 'Quiz', pages })).survey;
  path = `/create/?sm=${token()}`;
});
afterAll(() => server.close());

async function details() {
  const res = await server.client.get(`/v3/surveys/${survey.id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function quiz(form: Record<string, string>) {
  return web.postForm(`/create/quiz?sm=${token()}`, form, path);
}

describe('the quiz switch in the builder', () => {
  it('turns quiz mode on with what respondents see and the ranges, then each choice has a score field', async () => {
    const q = (await details()).pages[0].questions[0];
    let page = await web.get(`${path}&open=${q.id}`);
    expect(page.text).not.toContain('name="choice_score" type="number"');

    const res = await quiz({
      is_quiz_mode: 'yes',
      show_results_type: 'results_and_answers',
      ranges_type: 'percentage',
      ranges: '0-49: Keep practising\n50-100: Well done\n',
      correct_text: 'Right',
      incorrect_text: 'Not quite',
      partial_text: '',
    });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    expect(res.location).toBe(`${path}&done=quiz#quiz`);
    expect((await details()).quiz_options).toEqual({
      is_quiz_mode: true,
      show_results_type: 'results_and_answers',
      feedback: {
        ranges_type: 'percentage',
        ranges: [
          { min: 0, max: 49, message: 'Keep practising' },
          { min: 50, max: 100, message: 'Well done' },
        ],
      },
      default_question_feedback: { correct_text: 'Right', incorrect_text: 'Not quite', partial_text: '' },
    });
    page = await web.get(`${path}&open=${q.id}`);
    expect(page.text).toContain('name="choice_score" type="number"');
    expect(page.text).toContain('0-49: Keep practising\n50-100: Well done</textarea>');
    expect(page.text).toMatch(/name="is_quiz_mode" value="yes" checked/);
  });

  it('refuses overlapping or unreadable ranges in words, beside the form, and keeps the settings', async () => {
    const before = (await details()).quiz_options;
    let res = await quiz({ is_quiz_mode: 'yes', ranges_type: 'points', ranges: '0-5: Low\n5-9: High' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toBe('Score range 2 (5-9) overlaps Score range 1 (0-5); ranges are inclusive.');
    expect(res.text).toMatch(/<details id="quiz"[^>]* open>/);
    expect(res.text).toContain('id="quiz-error" tabindex="-1" autofocus');
    res = await quiz({ is_quiz_mode: 'yes', ranges: 'ten to twenty: Hm' });
    expect(res.status).toBe(400);
    expect(alertOf(res.text)).toContain(
      'Score range 1 ("ten to twenty: Hm") should read like "0-49: Keep practising"',
    );
    expect((await details()).quiz_options).toEqual(before);
  });

  it('turns quiz mode off, keeping the rest for next time; score fields go', async () => {
    const res = await quiz({ show_results_type: 'results_only', ranges_type: 'disabled', ranges: '' });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    const d = await details();
    expect(d.quiz_options.is_quiz_mode).toBe(false);
    expect(d.quiz_options.show_results_type).toBe('results_only');
    const page = await web.get(`${path}&open=${d.pages[0].questions[0].id}`);
    expect(page.text).not.toContain('name="choice_score" type="number"');
  });
});
