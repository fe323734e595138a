// The builder's survey settings in a browser, without script: custom variables typed one a line
// show the link they make, and the quiz switch turns on scoring, after which each choice's edit
// form has a score field whose value the API then answers. Checked at 1280 and 390 px with axe,
// the settings, the quiz form and a question's edit form open.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let jsPage: Page;
let owner: TestAccount;
let survey: any;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account();
  ({ page, jsPage } = await signedInPages(browser, server.url, owner));
  const question = {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Which planet is largest?' }],
    answers: { choices: [{ text: 'Jupiter' }, { text: 'Mars' }, { text: 'Venus' }] },
  };
  const res = await server.client.post(
    '/v3/surveys',
    { title: 'Planets quiz', pages: [{ title: 'Only', questions: [question] }] },
    { token: owner.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  survey = res.body;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function details() {
  const res = await server.client.get(`/v3/surveys/${survey.id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('survey settings in the builder', () => {
  it('sets custom variables and quiz mode, then scores each choice', async () => {
    await page.goto(survey.edit_url);
    await page.locator('#settings summary').click();
    await page.getByLabel('Custom variables (hidden fields from the link)').fill('ref\nsource: Where from');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.locator('.notice').textContent()).resolves.toBe('The survey settings were saved.');
    await expect(page.locator('#settings-variables-help code').textContent()).resolves.toBe(
      '…/r/<key>?ref=[ref_value]&source=[source_value]',
    );

    const quiz = page.locator('#quiz');
    await quiz.locator('summary').click();
    await quiz.getByLabel('Score this survey as a quiz').check();
    await quiz.getByLabel('At the end, respondents see').selectOption('results_and_answers');
    await quiz.getByLabel('Message by score').selectOption('points');
    await quiz.getByLabel('Score ranges').fill('0-4: Look up\n5-10: Star gazer');
    await quiz.getByRole('button', { name: 'Save quiz settings' }).click();
    await expect(page.locator('.notice').textContent()).resolves.toBe('The quiz settings were saved.');
    await expect(page.locator('#quiz summary').textContent()).resolves.toBe('Quiz mode On');

    await page.getByRole('link', { name: /^Edit / }).click();
    const scores = page.locator('input[name=choice_score][type=number]');
    await expect(scores.count()).resolves.toBe(3);
    await scores.nth(0).fill('5');
    await scores.nth(1).fill('0');
    await page.getByRole('button', { name: 'Save question' }).click();
    await expect(page.locator('.notice').textContent()).resolves.toBe('The question was saved.');

    const d = await details();
    expect(d.custom_variables).toEqual({ ref: 'ref', source: 'Where from' });
    expect(d.quiz_options).toMatchObject({
      is_quiz_mode: true,
      show_results_type: 'results_and_answers',
      feedback: {
        ranges_type: 'points',
        ranges: [
          { min: 0, max: 4, message: 'Look up' },
          { min: 5, max: 10, message: 'Star gazer' },
        ],
      },
    });
    const choices = d.pages[0].questions[0].answers.choices;
    expect(choices.map((c: any) => c.quiz_options?.score)).toEqual([5, 0, undefined]);

    // The page with the settings, the quiz form and the question's edit form open, at both widths.
    await jsPage.goto(`${survey.edit_url}&open=${d.pages[0].questions[0].id}`);
    await jsPage.evaluate("document.querySelectorAll('#settings, #quiz').forEach((d) => { d.open = true; })");
    await checkPage(jsPage, 'builder-settings-quiz');
  });

  it('shows a refused range beside the quiz form, focused', async () => {
    await page.goto(survey.edit_url);
    const quiz = page.locator('#quiz');
    await quiz.locator('summary').click();
    await quiz.getByLabel('Score ranges').fill('0-5: Low\n3-9: High');
    await quiz.getByRole('button', { name: 'Save quiz settings' }).click();
    const error = page.locator('#quiz-error');
    await expect(error.textContent()).resolves.toBe(
      'Score range 2 (3-9) overlaps Score range 1 (0-5); ranges are inclusive.',
    );
    await expect(page.locator('#quiz').getAttribute('open')).resolves.toBe('');
  });
});
