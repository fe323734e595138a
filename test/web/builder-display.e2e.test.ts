// Display logic, piping and random choice order in a real browser: the condition set in the builder
// beside the skip logic (plain form post), read back through the API, and a respondent who sees the
// question only when the earlier answer says so, with the earlier answer recalled in its heading;
// choices in random order stay in the same order on a reload; a page's question order set in its
// settings. Axe and screenshots at 1280 and 390 px.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
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

describe('display logic and piping in the builder and on the respondent pages', () => {
  it('sets "show only if" in the builder; a respondent sees the question, with the recall, only when it holds', async () => {
    const ok = await server.client.post(
      '/v3/surveys',
      { title: 'Pets', pages: [{ questions: [] }, { questions: [] }] },
      { token: owner.token },
    );
    expect(ok.status).toBe(201);
    const d0 = (await server.client.get(`/v3/surveys/${ok.body.id}/details`, { token: owner.token })).body;
    const [p1, p2] = d0.pages.map((p: { id: string }) => p.id);
    const base = `/v3/surveys/${ok.body.id}/pages`;
    const pet = await server.client.post(
      `${base}/${p1}/questions`,
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: [{ heading: 'Which pet do you have?' }],
        answers: { choices: ['Dog', 'Cat', 'None'].map((text) => ({ text })) },
      },
      { token: owner.token },
    );
    const named = await server.client.post(
      `${base}/${p2}/questions`,
      {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: `What is your [question("value"), id="${pet.body.id}"]'s name?` }],
      },
      { token: owner.token },
    );
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    await server.client.post(
      `${base}/${p2}/questions`,
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: [{ heading: 'What does it like?' }],
        sorting: { type: 'random' },
        answers: { choices: ['Walks', 'Food', 'Sleep', 'Toys', 'Baths', 'Sun'].map((text) => ({ text })) },
      },
      { token: owner.token },
    );
    const [dog, cat] = pet.body.answers.choices;

    // The builder: page 2's question offers the choices of page 1.
    const edit = new URL(ok.body.edit_url);
    await page.goto(`${server.url}${edit.pathname}${edit.search}`);
    const show = page.getByLabel('Show Question 2', { exact: false }).first();
    const options = await show.locator('option').allTextContents();
    expect(options).toEqual([
      'Always',
      'Only if "Which pet do you have?" is answered "Dog"',
      'Only if "Which pet do you have?" is answered "Cat"',
      'Only if "Which pet do you have?" is answered "None"',
    ]);
    await show.selectOption({ label: 'Only if "Which pet do you have?" is answered "Cat"' });
    await page.getByRole('button', { name: /Save condition for Question 2/ }).click();
    expect(await page.locator('.notice').allTextContents()).toEqual([
      'When the question is shown was saved.',
    ]);
    const q = (await server.client.get(`${base}/${p2}/questions/${named.body.id}`, { token: owner.token }))
      .body;
    expect(q.display_logic).toEqual({ question_id: pet.body.id, choice_ids: [cat.id], operator: 'selected' });
    expect(await page.locator(`#q-${named.body.id} .logic-note`).textContent()).toContain(
      'Shown if "Which pet do you have?" is answered "Cat"',
    );
    await jsPage.goto(`${server.url}${edit.pathname}${edit.search}#q-${named.body.id}`);
    await checkPage(jsPage, 'builder-display-logic');

    // Respondents: a cat owner sees the question with "Cat" recalled; a dog owner does not.
    const c = await server.client.post(
      `/v3/surveys/${ok.body.id}/collectors`,
      { type: 'weblink' },
      { token: owner.token },
    );
    const respondent = await browser.newContext();
    const r = await respondent.newPage();
    await r.goto(c.body.url);
    await r.getByLabel('Cat').check();
    await r.getByRole('button', { name: 'Next' }).click();
    await r.locator('.qtitle').first().waitFor();
    expect((await r.locator('.qtitle').allTextContents()).join('|')).toContain("What is your Cat's name?");
    const order = await r.locator(`.question[data-family="multiple_choice"] label`).allTextContents();
    await r.reload();
    expect(await r.locator(`.question[data-family="multiple_choice"] label`).allTextContents()).toEqual(
      order,
    );
    await checkPage(r, 'respond-display-piping');
    await respondent.close();

    const other = await browser.newContext();
    const o = await other.newPage();
    await o.goto(c.body.url);
    await o.getByLabel(dog.text).check();
    await o.getByRole('button', { name: 'Next' }).click();
    await o.locator('.qtitle').first().waitFor();
    expect(await o.locator('.question').count()).toBe(1);
    expect((await o.locator('.qtitle').allTextContents()).join('|')).toContain('What does it like?');
    await other.close();
  }, 180_000);

  it('sets a page’s question order in its settings; a respondent keeps the same order on reload', async () => {
    const heads = ['Alpha?', 'Bravo?', 'Charlie?', 'Delta?', 'Echo?', 'Foxtrot?'];
    const ok = await server.client.post(
      '/v3/surveys',
      {
        title: 'Shuffled page',
        pages: [
          {
            questions: heads.map((heading) => ({
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading }],
            })),
          },
        ],
      },
      { token: owner.token },
    );
    expect(ok.status).toBe(201);
    const edit = new URL(ok.body.edit_url);
    await page.goto(`${server.url}${edit.pathname}${edit.search}`);
    await page.getByText('Page 1 settings').click();
    await page
      .getByLabel('Order of questions for respondents')
      .selectOption({ label: 'Random, last question kept last' });
    await page.getByRole('button', { name: 'Save page' }).click();
    expect(await page.locator('.notice').allTextContents()).toEqual(['The page was saved.']);
    const pages = await server.client.get(`/v3/surveys/${ok.body.id}/pages`, { token: owner.token });
    expect(pages.body.data[0].sorting).toEqual({ type: 'random', ignore_last: true });
    await jsPage.goto(`${server.url}${edit.pathname}${edit.search}`);
    await jsPage.getByText('Page 1 settings').click();
    expect(await jsPage.getByLabel('Order of questions for respondents').inputValue()).toBe('random_last');
    await checkPage(jsPage, 'builder-page-order');

    const c = await server.client.post(
      `/v3/surveys/${ok.body.id}/collectors`,
      { type: 'weblink' },
      { token: owner.token },
    );
    const respondent = await browser.newContext();
    const r = await respondent.newPage();
    await r.goto(c.body.url);
    const titles = async () =>
      (await r.locator('.qtitle').allTextContents()).map((t) => t.replace(/^\d+\.\s*/, ''));
    const order = await titles();
    expect([...order].sort()).toEqual([...heads].sort());
    expect(order.at(-1)).toBe('Foxtrot?');
    await r.reload();
    expect(await titles()).toEqual(order);
    await checkPage(r, 'respond-page-order');
    await respondent.close();
  }, 180_000);
});
