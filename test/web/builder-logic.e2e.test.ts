// Skip logic in the builder, in a real browser: rules set on a single choice question's choices and
// after a page through plain form posts (no script) and with script, read back through GET
// /v3/surveys/{id}/details, shown as markers in the lists, followed by respondents along every
// path; a page move that would turn a rule backward is refused beside the page, and deleting a
// page that rules go to says how many were cleared.
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

const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account();
  ({ page, jsPage } = await signedInPages(browser, server.url, owner));
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function details(id: string) {
  const res = await server.client.get(`/v3/surveys/${id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

const notices = (p: Page) => p.locator('.notice, .error').allTextContents();

describe('skip logic in the builder', () => {
  let surveyId: string;
  let editPath: string;
  let respondUrl: string;
  let d: any;

  beforeAll(async () => {
    const res = await server.client.post(
      '/v3/surveys',
      {
        title: 'Routes',
        pages: [
          {
            title: 'Start',
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Route?' }],
                answers: { choices: ['A', 'B', 'C', 'D'].map((t) => ({ text: t })) },
              },
            ],
          },
          { title: 'Two', questions: [text('Two?')] },
          { title: 'Three', questions: [text('Three?')] },
          { title: 'Four', questions: [text('Four?')] },
        ],
      },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    surveyId = res.body.id;
    const edit = new URL(res.body.edit_url);
    editPath = `${server.url}${edit.pathname}${edit.search}`;
    const c = await server.client.post(
      `/v3/surveys/${surveyId}/collectors`,
      { type: 'weblink', disqualification_message: 'Sorry, not for you.' },
      { token: owner.token },
    );
    respondUrl = c.body.url;
    d = await details(surveyId);
  });

  it('sets choice and page rules through plain form posts and shows them in the lists', async () => {
    await page.goto(editPath);
    await page.getByRole('link', { name: 'Edit Question 1 "Route?"' }).click();
    const form = page.locator('form.q-edit');
    const then = form.getByLabel('Then', { exact: true });
    // Only later pages are offered.
    expect(await then.first().locator('option').allTextContents()).toEqual([
      'Continue (no rule)',
      'Go to Page 2 "Two"',
      'Go to Page 3 "Three"',
      'Go to Page 4 "Four"',
      'End the survey',
      'Disqualify the respondent',
    ]);
    await then.nth(0).selectOption({ label: 'Go to Page 3 "Three"' });
    await then.nth(1).selectOption({ label: 'End the survey' });
    await then.nth(2).selectOption({ label: 'Disqualify the respondent' });
    await form.getByRole('button', { name: 'Save question' }).click();
    expect(await notices(page)).toEqual(['The question was saved.']);

    // After page 2: to page 4 (skipping page 3).
    const after = page.getByLabel('After this page (page 2)');
    expect(await after.locator('option').allTextContents()).toEqual([
      'Continue to page 3 (no rule)',
      'Go to Page 3 "Three"',
      'Go to Page 4 "Four"',
      'End the survey',
      'Disqualify the respondent',
    ]);
    await after.selectOption({ label: 'Go to Page 4 "Four"' });
    await page.getByRole('button', { name: 'Save rule after page 2' }).click();
    expect(await notices(page)).toEqual(['The rule after the page was saved.']);

    const now = await details(surveyId);
    const [a, b, c, dd] = now.pages[0].questions[0].answers.choices;
    expect([a.logic, b.logic, c.logic, dd.logic]).toEqual([
      { action: 'go_to_page', page_id: d.pages[2].id },
      { action: 'end_survey' },
      { action: 'disqualify' },
      undefined,
    ]);
    expect(now.pages[1].logic).toEqual({ action: 'go_to_page', page_id: d.pages[3].id });
    expect(now.pages[0].logic).toBeUndefined();

    // The markers: per ruled choice in the question list, and under the page's heading.
    const rules = page.locator('#page-' + d.pages[0].id + ' ul.logic-rules li');
    expect((await rules.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Logic "A": →goes to Page 3 "Three"',
      'Logic "B": Ends survey',
      'Logic "C": Disqualifies',
    ]);
    expect(
      (await page.locator(`#page-${d.pages[1].id} .logic-note`).textContent())!.replace(/\s+/g, ' '),
    ).toBe('Logic After this page: →goes to Page 4 "Four"');

    // Saving the question again keeps its rules (the form carries them).
    await page.getByRole('link', { name: 'Edit Question 1 "Route?"' }).click();
    expect(await page.locator('form.q-edit').getByLabel('Then', { exact: true }).nth(0).inputValue()).toBe(
      `page:${d.pages[2].id}`,
    );
    await page.locator('form.q-edit').getByRole('button', { name: 'Save question' }).click();
    expect((await details(surveyId)).pages[0].questions[0].answers.choices[0].logic).toEqual(a.logic);

    await jsPage.goto(page.url());
    await checkPage(jsPage, 'builder-logic');
    await jsPage.goto(`${editPath}&open=${d.pages[0].questions[0].id}`);
    await checkPage(jsPage, 'builder-logic-question');
  });

  it('sets a rule with script too', async () => {
    await jsPage.goto(editPath);
    await jsPage.getByLabel('After this page (page 3)').selectOption({ label: 'End the survey' });
    await Promise.all([
      jsPage.waitForNavigation(),
      jsPage.getByRole('button', { name: 'Save rule after page 3' }).click(),
    ]);
    expect(await notices(jsPage)).toEqual(['The rule after the page was saved.']);
    expect((await details(surveyId)).pages[2].logic).toEqual({ action: 'end_survey' });

    // The N/A choice takes a rule too, once it is there.
    await jsPage.getByRole('link', { name: 'Edit Question 1 "Route?"' }).click();
    await jsPage.getByLabel('Add an "N/A" choice').check();
    await jsPage.getByRole('button', { name: 'Save question' }).click();
    await jsPage.getByRole('link', { name: 'Edit Question 1 "Route?"' }).click();
    await jsPage.getByLabel('Then, after "N/A"').selectOption({ label: 'Disqualify the respondent' });
    await jsPage.getByRole('button', { name: 'Save question' }).click();
    expect(await notices(jsPage)).toEqual(['The question was saved.']);
    const choices = (await details(surveyId)).pages[0].questions[0].answers.choices;
    expect(choices.map((c: any) => [c.text, c.logic?.action ?? null])).toEqual([
      ['A', 'go_to_page'],
      ['B', 'end_survey'],
      ['C', 'disqualify'],
      ['D', null],
      ['N/A', 'disqualify'],
    ]);
  });

  it('is followed by respondents along every path', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const take = async (choice: string) => {
      const p = await context.newPage();
      await p.goto(respondUrl);
      const seen: string[] = [];
      while ((await p.locator('h2.page-title').count()) > 0) {
        const title = (await p.locator('h2.page-title').textContent())!;
        seen.push(title);
        if (title === 'Start') await p.getByLabel(choice, { exact: true }).check();
        else await p.locator('input[type=text], textarea').first().fill(title);
        await Promise.all([p.waitForNavigation(), p.click('nav.survey-nav button:not(.secondary)')]);
      }
      const end = (await p.locator('[role=status]').textContent())?.trim();
      await p.close();
      await context.clearCookies();
      const list = await server.client.get(
        `/v3/surveys/${surveyId}/responses/bulk?sort_order=DESC&sort_by=date_modified&per_page=1`,
        { token: owner.token },
      );
      const r = list.body.data[0];
      return { seen, end, status: r.response_status, path: r.page_path };
    };
    const [p1, p2, p3, p4] = d.pages.map((p: any) => p.id);
    // A: page 3, whose own rule ends the survey.
    expect(await take('A')).toMatchObject({ seen: ['Start', 'Three'], status: 'completed', path: [p1, p3] });
    expect(await take('B')).toMatchObject({ seen: ['Start'], status: 'completed', path: [p1] });
    expect(await take('C')).toMatchObject({
      seen: ['Start'],
      end: 'Sorry, not for you.',
      status: 'disqualified',
      path: [p1],
    });
    // D: no choice rule, page 1 has no rule; page 2's rule skips page 3.
    expect(await take('D')).toMatchObject({
      seen: ['Start', 'Two', 'Four'],
      status: 'completed',
      path: [p1, p2, p4],
    });
    await context.close();
  });

  it('shows the domain’s refusal of a move that turns a rule backward, beside the page', async () => {
    await page.goto(editPath);
    // Page 4 before page 2 would make page 2's rule jump backward.
    await page.getByText('Page 4 settings').click();
    await page.getByRole('button', { name: 'Move page 4 up' }).click();
    expect(await notices(page)).toEqual(['The page was moved.']);
    await page.getByText('Page 3 settings').click();
    await page.getByRole('button', { name: 'Move page 3 up' }).click();
    const error = page.locator(`#page-${d.pages[3].id} .page-tools [role=alert]`);
    expect(await error.textContent()).toBe(
      `Page 3 cannot move up: a skip-logic rule goes to Page 3 "Four", which would no longer come after the page the rule is on (rules only go to later pages). Change or remove that rule first.`,
    );
    expect((await details(surveyId)).pages.map((p: any) => p.title)).toEqual([
      'Start',
      'Two',
      'Four',
      'Three',
    ]);
    // The same refusal with script, for the page checks of the page showing it.
    await jsPage.goto(editPath);
    await jsPage.getByText('Page 3 settings').click();
    await Promise.all([
      jsPage.waitForNavigation(),
      jsPage.getByRole('button', { name: 'Move page 3 up' }).click(),
    ]);
    expect(await jsPage.locator('.page-tools [role=alert]').count()).toBe(1);
    await checkPage(jsPage, 'builder-logic-refused');
    // Back as it was.
    await page.getByRole('button', { name: 'Move page 3 down' }).click();
    expect((await details(surveyId)).pages.map((p: any) => p.title)).toEqual([
      'Start',
      'Two',
      'Three',
      'Four',
    ]);

    // A question whose choices have rules cannot move to (or past) a page they go to.
    await page.getByLabel('Move Question 1 "Route?" to page').selectOption({ label: 'To page 3' });
    await page.getByRole('button', { name: 'Move Question 1 "Route?" to the chosen page' }).click();
    expect(await page.locator(`#q-${d.pages[0].questions[0].id} [role=alert]`).textContent()).toBe(
      `A skip-logic rule goes to Page 3 "Three", which would no longer come after the page the rule is on (rules only go to later pages). Change or remove that rule first.`,
    );
    expect((await details(surveyId)).pages[0].questions.map((q: any) => q.id)).toEqual([
      d.pages[0].questions[0].id,
    ]);

    // Dragged with script: a question on page 3 whose choice goes to page 4, dropped on page 4.
    const added = await server.client.post(
      `/v3/surveys/${surveyId}/pages/${d.pages[2].id}/questions`,
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: [{ heading: 'Skip?' }],
        answers: { choices: [{ text: 'Yes', logic: { action: 'go_to_page', page_id: d.pages[3].id } }] },
      },
      { token: owner.token },
    );
    expect(added.status).toBe(201);
    await jsPage.setViewportSize({ width: 1280, height: 7000 }); // both questions under the pointer
    await jsPage.goto(editPath);
    const from = (await jsPage
      .locator('li.question')
      .filter({ has: jsPage.locator('h3.q-heading', { hasText: 'Skip?' }) })
      .locator('.drag-handle')
      .boundingBox())!;
    const to = (await jsPage.locator('li.question', { hasText: 'Four?' }).boundingBox())!;
    await Promise.all([
      jsPage.waitForNavigation(),
      (async () => {
        await jsPage.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await jsPage.mouse.down();
        await jsPage.mouse.move(to.x + to.width / 2, to.y + to.height - 5, { steps: 20 });
        await jsPage.mouse.up();
      })(),
    ]);
    await jsPage.waitForSelector('.builder > .error[role=alert]');
    expect(await jsPage.locator('.builder > .error[role=alert]').textContent()).toBe(
      `A skip-logic rule goes to Page 4 "Four", which would no longer come after the page the rule is on (rules only go to later pages). Change or remove that rule first.`,
    );
    expect((await details(surveyId)).pages[2].questions.map((q: any) => q.headings[0].heading)).toEqual([
      'Three?',
      'Skip?',
    ]);
  });

  it('tells how many rules deleting a page clears', async () => {
    await page.goto(editPath);
    await page.getByText('Page 3 settings').click();
    await page.getByRole('button', { name: 'Delete page 3' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      '1 skip-logic rule that goes to this page (those respondents will go on to the next page instead).',
    );
    await page.getByRole('button', { name: 'Delete page' }).click();
    expect(await notices(page)).toEqual([
      'The page was deleted. 1 skip-logic rule that went to it was cleared: those respondents now go on to the next page.',
    ]);
    const now = await details(surveyId);
    expect(now.pages.map((p: any) => p.title)).toEqual(['Start', 'Two', 'Four']);
    expect(now.pages[0].questions[0].answers.choices[0].logic).toBeUndefined();
    expect(now.pages[0].questions[0].answers.choices[1].logic).toEqual({ action: 'end_survey' });
  });
});
