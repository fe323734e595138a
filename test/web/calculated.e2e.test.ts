// Calculated variables in a real browser without script: the builder's variables page (add with a
// refusal shown beside the formula, then save, edit and remove) and a respondent page that recalls
// a variable's value. Axe and screenshots at 1280 and 390 px.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { ownerInBrowser } from './fixtures.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let jsPage: Page;
let owner: TestAccount;

ownerInBrowser((f) => {
  ({ server, browser, page, jsPage, owner } = f);
});

describe('calculated variables in the builder and on the respondent pages', () => {
  it('adds, refuses beside the field, edits and removes variables; a respondent sees the value recalled', async () => {
    const s = await seedSurvey(server, owner, {
      title: 'Team quiz',
      pages: [
        {
          questions: {
            pick: {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'How often do you exercise?' }],
              answers: {
                choices: [
                  { text: 'Rarely', weight: 1 },
                  { text: 'Daily', weight: 5 },
                ],
              },
            },
            hours: { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Hours of sleep?' }] },
          },
        },
        { title: 'Result', questions: {} },
      ],
    });
    const edit = new URL(s.survey.edit_url);
    await page.goto(`${server.url}${edit.pathname}${edit.search}`);
    await page.getByRole('link', { name: 'Calculated variables' }).click();
    expect(await page.locator('td code').allTextContents()).toEqual([
      `question("${s.questions.pick}")`,
      `score("${s.questions.pick}")`,
      `question("${s.questions.hours}")`,
    ]);

    // A formula naming a question the survey does not have: the error sits beside the formula.
    const add = page.locator('#var-new');
    await add.getByLabel('Name').fill('total');
    await add.getByLabel('Formula').fill('question("999") + 1');
    await add.getByRole('button', { name: 'Add variable' }).click();
    const formula = page.locator('#var-new-formula');
    expect(await formula.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#var-new-formula-error').textContent()).toBe(
      'question("999") names no question of this survey that takes answers.',
    );
    expect(await formula.inputValue()).toBe('question("999") + 1');
    // the same refusal where script runs, for the page checks
    await jsPage.goto(page.url());
    await jsPage.locator('#var-new').getByLabel('Name').fill('total');
    await jsPage.locator('#var-new').getByLabel('Formula').fill('question("999") + 1');
    await jsPage.locator('#var-new').getByRole('button', { name: 'Add variable' }).click();
    await jsPage.locator('#var-new-formula-error').waitFor();
    await checkPage(jsPage, 'calculated-variables-error');

    await formula.fill(`question("${s.questions.pick}") + question("${s.questions.hours}")`);
    await page.locator('#var-new').getByRole('button', { name: 'Add variable' }).click();
    expect(await page.locator('.notice').textContent()).toBe('The variable was saved.');
    await page.locator('#var-new').getByLabel('Name').fill('half');
    await page.locator('#var-new').getByLabel('Formula').fill('round(total / 2, 1)');
    await page.locator('#var-new').getByRole('button', { name: 'Add variable' }).click();

    // Removing "total" while "half" uses it is refused, named on the form that asked.
    await page.locator('#var-x-total').getByRole('button', { name: 'Remove' }).click();
    expect(await page.locator('#var-x-total-formula-error').textContent()).toBe(
      'The formula of "half": "total" is no calculated variable of this survey.',
    );
    await page.locator('#var-x-half').getByLabel('Formula').fill('round(total / 4, 1)');
    await page.locator('#var-x-half').getByRole('button', { name: 'Save' }).click();
    expect(await page.locator('.notice').textContent()).toBe('The variable was saved.');
    await jsPage.goto(page.url());
    await checkPage(jsPage, 'calculated-variables');
    const got = (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body;
    expect(got.calculated_variables).toEqual([
      { name: 'total', formula: `question("${s.questions.pick}") + question("${s.questions.hours}")` },
      { name: 'half', formula: 'round(total / 4, 1)' },
    ]);
    await page.locator('#var-x-half').getByRole('button', { name: 'Remove' }).click();
    expect(await page.locator('.notice').textContent()).toBe('The variable was removed.');
    expect(await page.locator('#var-x-half').count()).toBe(0);

    // The builder's rule after page 1, only when the total is over 20.
    await page.goto(`${server.url}${edit.pathname}${edit.search}`);
    const rule = page.locator(`#logic-${s.pages[0]}`);
    await rule.getByLabel('After this page').selectOption('end_survey');
    await rule.getByLabel('Only if').selectOption({ label: '"total" is greater than the value' });
    await rule.getByLabel('Value').fill('20');
    await rule.getByRole('button', { name: /Save rule/ }).click();
    expect(await page.locator('.notice').textContent()).toBe('The rule after the page was saved.');
    const p1 = (await server.client.get(`/v3/surveys/${s.id}/pages/${s.pages[0]}`, { token: owner.token }))
      .body;
    expect(p1.logic).toEqual({
      action: 'end_survey',
      when: { variable: 'total', operator: 'greater_than', value: '20' },
    });
    await jsPage.goto(`${server.url}${edit.pathname}${edit.search}#logic-${s.pages[0]}`);
    await checkPage(jsPage, 'builder-rule-on-variable');

    // A respondent without script: the next page recalls the total.
    const piped = await server.client.patch(
      `/v3/surveys/${s.id}/pages/${s.pages[1]}`,
      { description: 'Your wellness score is [variable("total")].' },
      { token: owner.token },
    );
    expect(piped.status, piped.text).toBe(200);
    const c = await server.client.post(
      `/v3/surveys/${s.id}/collectors`,
      { type: 'weblink' },
      { token: owner.token },
    );
    const context = await browser.newContext({ javaScriptEnabled: false });
    const r = await context.newPage();
    await r.goto(c.body.url);
    await r.getByLabel('Daily').check();
    await r.getByLabel('Hours of sleep?').fill('7.5');
    await r.getByRole('button', { name: 'Next' }).click();
    await r.getByText('Your wellness score is 12.5.').waitFor();
    await context.close();
    const withScript = await browser.newContext();
    const j = await withScript.newPage();
    await j.goto(c.body.url);
    await j.getByLabel('Rarely').check();
    await j.getByLabel('Hours of sleep?').fill('8');
    await j.getByRole('button', { name: 'Next' }).click();
    await j.getByText('Your wellness score is 9.').waitFor();
    await checkPage(j, 'respond-calculated-variable');
    await withScript.close();
  }, 180_000);
});
