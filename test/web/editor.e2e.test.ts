// The home page and the edit page in a real browser with JavaScript disabled: sign in from the
// landing page, create a survey, build it with every question kind the page offers, rename,
// reorder and delete, and read the result back through GET /v3/surveys/{id}/details.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { launchBrowser } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({ javaScriptEnabled: false });
  page = await context.newPage();
  page.setDefaultTimeout(5000);
  owner = await server.account({ plan: 'basic' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function details(id: string) {
  const res = await server.client.get(`/v3/surveys/${id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Every visible form control outside the question previews has a label (or an accessible name). */
async function unlabelledControls(p: Page): Promise<string[]> {
  return p.$$eval('input:not([type=hidden]), select, textarea, button', (els) =>
    els
      .filter((el) => !el.closest('fieldset.q-preview'))
      .filter((el) => {
        const e = el as unknown as {
          labels?: { length: number } | null;
          getAttribute(n: string): string | null;
          tagName: string;
          textContent: string | null;
        };
        const named =
          (e.labels?.length ?? 0) > 0 ||
          e.getAttribute('aria-label') ||
          (e.tagName === 'BUTTON' && e.textContent?.trim());
        return !named;
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
}

describe('home and edit pages without JavaScript', () => {
  let surveyId: string;

  it('signs in from the landing page and creates a survey from the home page', async () => {
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Survey Service');
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill(owner.user.username);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your surveys');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await unlabelledControls(page)).toEqual([]);

    await page.getByLabel('Title', { exact: true }).fill('Browser <b>survey</b>');
    await page.getByLabel('Start from').selectOption({ label: 'Blank survey' });
    await page.getByRole('button', { name: 'Create survey' }).click();
    expect(new URL(page.url()).pathname).toBe('/create/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Edit survey: Browser <b>survey</b>',
    );
    const list = await server.client.get('/v3/surveys', { token: owner.token });
    surveyId = list.body.data.find((s: any) => s.title === 'Browser <b>survey</b>').id;
    expect(new URL((await details(surveyId)).edit_url).search).toBe(new URL(page.url()).search);
  });

  it('adds a question of every kind the page offers, shown as respondents see them', async () => {
    const kinds: Array<[string, string, string, string]> = [
      ['Single choice', 'Favourite colour?', 'Red\nBlue', ''],
      ['Multiple choice', 'Which fruit?', 'Apple\nPear', ''],
      ['Comment box (long answer)', 'Anything else?', '', ''],
      ['Single textbox (short answer)', 'Your name?', '', ''],
      ['Matrix of choices (one per row)', 'Rate us', 'Bad\nGood', 'Speed\nPrice'],
      ['Star rating (1 to 5)', 'Stars?', '', ''],
      ['Net Promoter Score (0 to 10)', 'Recommend us?', '', ''],
    ];
    for (const [kind, heading, choices, rows] of kinds) {
      const section = page.locator('section.survey-page').first();
      await section.getByText('Add a question to page 1').click();
      await section.getByLabel('Kind of question').selectOption({ label: kind });
      await section.getByLabel('Question text').fill(heading);
      await section.getByLabel('Answer choices').fill(choices);
      await section.getByLabel('Matrix rows').fill(rows);
      await section.getByRole('button', { name: 'Add question' }).click();
      expect(await page.getByRole('status').first().textContent()).toContain('The question was added.');
    }
    const d = await details(surveyId);
    expect(d.pages[0].questions.map((q: any) => [q.family, q.subtype, q.headings[0].heading])).toEqual([
      ['single_choice', 'vertical', 'Favourite colour?'],
      ['multiple_choice', 'vertical', 'Which fruit?'],
      ['open_ended', 'essay', 'Anything else?'],
      ['open_ended', 'single', 'Your name?'],
      ['matrix', 'single', 'Rate us'],
      ['matrix', 'rating', 'Stars?'],
      ['matrix', 'rating', 'Recommend us?'],
    ]);
    // The previews are the respondent's controls, disabled so they are not mistaken for the editor's.
    expect(await page.getByRole('radio', { name: 'Red' }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Pear' }).count()).toBe(1);
    expect(await page.locator('.stars input[type=radio]').count()).toBe(5);
    expect(await unlabelledControls(page)).toEqual([]);
  });

  it('shows an incomplete question form’s error and keeps what was typed', async () => {
    const section = page.locator('section.survey-page').first();
    await section.getByText('Add a question to page 1').click();
    await section.getByLabel('Kind of question').selectOption({ label: 'Multiple choice' });
    await section.getByLabel('Question text').fill('No choices given');
    await section.getByRole('button', { name: 'Add question' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('needs at least one answer choice');
    expect(await section.getByLabel('Question text').inputValue()).toBe('No choices given');
    expect((await details(surveyId)).question_count).toBe(7);
  });

  it('renames, reorders and deletes, and adds and renames a page', async () => {
    await page.getByLabel('Survey title').fill('Renamed in the browser');
    await page.getByRole('button', { name: 'Rename survey' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Edit survey: Renamed in the browser',
    );

    await page.getByRole('button', { name: 'Move up question 2', exact: true }).click();
    await page.getByRole('button', { name: 'Move up question 7', exact: true }).click();
    await page.getByRole('button', { name: 'Delete question 3', exact: true }).click();
    let d = await details(surveyId);
    expect(d.title).toBe('Renamed in the browser');
    expect(d.pages[0].questions.map((q: any) => q.headings[0].heading)).toEqual([
      'Which fruit?',
      'Favourite colour?',
      'Your name?',
      'Rate us',
      'Recommend us?',
      'Stars?',
    ]);

    await page.getByLabel('Page title (optional)').fill('Second page');
    await page.getByRole('button', { name: 'Add page' }).click();
    const second = page.locator('section.survey-page').nth(1);
    expect(await second.getByRole('heading', { level: 2 }).textContent()).toBe('Page 2: Second page');
    await second.getByText('Rename or delete this page').click();
    await second.getByLabel('Page title').fill('About you');
    await second.getByRole('button', { name: 'Save page' }).click();
    d = await details(surveyId);
    expect(d.pages.map((p: any) => p.title)).toEqual(['', 'About you']);
    await page.locator('section.survey-page').nth(1).getByText('Rename or delete this page').click();
    await page.getByRole('button', { name: 'Delete page 2 and its questions' }).click();
    d = await details(surveyId);
    expect(d.page_count).toBe(1);
    expect(d.question_count).toBe(6);
  });

  it('lists the survey on the home page with its links, and a stranger’s browser gets a 404 page', async () => {
    await page.goto(`${server.url}/`);
    const row = page.getByRole('row', { name: /Renamed in the browser/ });
    // Responses, then the collectors' state (the title opens the edit page).
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('0');
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('No collector yet');
    expect(await row.getByRole('link', { name: /Renamed in the browser/ }).getAttribute('href')).toMatch(
      /^\/create\/\?sm=/,
    );
    for (const name of ['Preview', 'Collect', 'Analyze', 'Responses'])
      expect(await row.getByRole('link', { name, exact: true }).count()).toBe(1);
    await row.getByRole('link', { name: 'Preview', exact: true }).click();
    expect(new URL(page.url()).pathname).toBe('/r/Preview/');
    expect(await page.getByText('Which fruit?').count()).toBe(1);

    const d = await details(surveyId);
    const stranger = await server.account();
    const other = await browser.newContext({ javaScriptEnabled: false });
    const p2 = await other.newPage();
    const res = await p2.goto(d.edit_url.replace('http://localhost', server.url));
    expect(new URL(p2.url()).pathname).toBe('/login');
    await p2.getByLabel('Username').fill(stranger.user.username);
    await p2.getByLabel('Password').fill(stranger.password);
    const [answer] = await Promise.all([
      p2.waitForResponse((r) => r.url().includes('/create/')),
      p2.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(res?.status()).toBe(200);
    expect(answer.status()).toBe(404);
    expect(await p2.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await other.close();
  });
});
