import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage, screenshot } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { questionOfEachKind } from './fixtures.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function countRows() {
  const k = server.deps.db.kysely;
  const [events, questions] = await Promise.all([
    k
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('survey_questions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return [Number(events.n), Number(questions.n)];
}

describe('survey preview page', () => {
  it('shows the survey page by page as a respondent sees it, without saving anything', async () => {
    const a = await server.account();
    const kinds = Object.values(questionOfEachKind);
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Preview <me>',
        language: 'fr',
        buttons_text: {
          next_button: 'Suivant',
          prev_button: 'Retour',
          done_button: 'Terminé',
          exit_button: '',
        },
        pages: [
          { title: 'Page one', description: 'Choices first', questions: kinds.slice(0, 10) },
          { title: 'Page two', questions: kinds.slice(10) },
        ],
      },
      { token: a.token },
    );
    expect(created.status).toBe(201);
    const before = await countRows();
    const preview = new URL(created.body.preview);
    expect(preview.pathname).toBe('/r/Preview/');
    const page = await browser.newPage();
    const res = await page.goto(`${server.url}${preview.pathname}${preview.search}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['referrer-policy']).toBe('no-referrer');
    expect(await page.locator('h1').textContent()).toBe('Preview <me>');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.locator('.preview-banner').textContent()).toMatch(/not saved/);
    expect(await page.locator('h2.page-title').textContent()).toBe('Page one');
    expect(await page.locator('.progress').textContent()).toBe('Page 1 of 2');
    // Every question of the page is there, with accessible controls.
    expect(await page.locator('.question').count()).toBe(10);
    await page.getByLabel('Blue').check();
    expect(await page.getByLabel('Blue').isChecked()).toBe(true);
    await page.getByLabel('Pear').check();
    await page.getByLabel('Something else').check();
    await page.locator('select[name^="q_"]').first().selectOption({ label: 'DE' });
    expect(await page.locator('img[alt="A"]').count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Speed: Good' }).count()).toBe(1);
    expect(await page.locator('.stars input[type=radio]').count()).toBe(5);
    expect(await page.locator('[data-subtype="ranking"] select').count()).toBe(3);
    expect(await page.locator('[data-subtype="menu"] table select').count()).toBe(4);
    expect(await page.getByRole('button', { name: 'Retour' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Exit' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Suivant' }).click();
    await page.waitForLoadState();
    expect(await page.locator('h2.page-title').textContent()).toBe('Page two');
    expect(await page.locator('.progress').textContent()).toBe('Page 2 of 2');
    // Numbers continue across pages; presentation blocks take none.
    expect(await page.locator('.qnum').first().textContent()).toBe('11.');
    await page.getByLabel('Your name?').fill('Ada');
    expect(await page.locator('input[type=range]').getAttribute('step')).toBe('5');
    expect(await page.locator('input[type=file]').count()).toBe(1);
    const us = page.locator('[data-subtype="us"]');
    expect(await us.getByLabel('Email Address:').getAttribute('type')).toBe('email');
    expect(await us.getByLabel('Email Address:').getAttribute('autocomplete')).toBe('email');
    expect(await us.getByLabel('Company:').count()).toBe(0);
    expect(await page.locator('[data-subtype="international"]').getByLabel('Company:').count()).toBe(1);
    expect(await page.getByLabel('Start (date)').getAttribute('type')).toBe('date');
    expect(await page.getByLabel('Start (time)').getAttribute('type')).toBe('time');
    expect(await page.locator('.presentation b').textContent()).toBe('Welcome');
    expect(await page.locator('figure img').getAttribute('src')).toBe('https://example.com/logo.png');
    await page.getByRole('button', { name: 'Retour' }).click();
    await page.waitForLoadState();
    expect(await page.locator('h2.page-title').textContent()).toBe('Page one');
    await page.getByRole('button', { name: 'Suivant' }).click();
    await page.waitForLoadState();
    await page.getByRole('button', { name: 'Terminé' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('status').last().textContent()).toMatch(/nothing was saved/);
    expect(await countRows()).toEqual(before);
    const survey = await server.client.get(`/v3/surveys/${created.body.id}`, { token: a.token });
    expect(survey.body).toMatchObject({ response_count: 0, date_modified: created.body.date_modified });
    await page.close();
  });

  it('orders choices by the question’s sorting', async () => {
    const a = await server.account();
    const s = (
      await server.client.post(
        '/v3/surveys',
        {
          pages: [
            {
              questions: [
                {
                  family: 'single_choice',
                  subtype: 'vertical',
                  headings: [{ heading: 'Sorted' }],
                  sorting: { type: 'textasc', ignore_last: true },
                  answers: {
                    choices: [
                      { text: 'pear' },
                      { text: 'Apple' },
                      { text: 'fig' },
                      { text: 'None of these' },
                    ],
                  },
                },
              ],
            },
          ],
        },
        { token: a.token },
      )
    ).body;
    const url = new URL(s.preview);
    const page = await browser.newPage();
    await page.goto(`${server.url}${url.pathname}${url.search}`);
    expect(await page.locator('.choice label').allTextContents()).toEqual([
      'Apple',
      'fig',
      'pear',
      'None of these',
    ]);
    await page.close();
  });

  it('answers an unknown or malformed token with a 404 page, and escapes survey text', async () => {
    const page = await browser.newPage();
    for (const sm of ['AAAAAAAAAAAAAAAAAAAAAAAA', '<script>', '']) {
      const res = await page.goto(`${server.url}/r/Preview/?sm=${encodeURIComponent(sm)}`);
      expect(res?.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Survey not found');
    }
    const a = await server.account();
    const s = (
      await server.client.post(
        '/v3/surveys',
        {
          title: 'X',
          pages: [
            {
              questions: [
                {
                  family: 'open_ended',
                  subtype: 'single',
                  headings: [{ heading: '<img src=x onerror="window.hacked=1"><b>bold</b>' }],
                },
              ],
            },
          ],
        },
        { token: a.token },
      )
    ).body;
    const url = new URL(s.preview);
    await page.goto(`${server.url}${url.pathname}${url.search}`);
    expect(await page.locator('.question img').count()).toBe(0);
    expect(await page.locator('.question b').textContent()).toBe('bold');
    expect(await page.evaluate('typeof globalThis.hacked')).toBe('undefined');
    await page.close();
  });

  it('previews a library template from its preview_link', async () => {
    const a = await server.account();
    const list = await server.client.get('/v3/survey_templates?per_page=1', { token: a.token });
    const t = list.body.data[0];
    const page = await browser.newPage();
    const res = await page.goto(t.preview_link.replace(/^https?:\/\/[^/]+/, server.url));
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe(t.title);
    expect(await page.locator('.question').count()).toBe(t.num_questions);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('status').last().textContent()).toMatch(/nothing was saved/);
    expect((await page.goto(`${server.url}/r/Template/99999`))?.status()).toBe(404);
    await page.close();
  });
});

describe('preview for a signed-in owner', () => {
  it('shows the owner’s frame and "Back to design"; others see no way into the builder', async () => {
    const owner = await server.account();
    const created = await server.client.post(
      '/v3/surveys',
      { title: 'Mine', pages: [{ questions: [questionOfEachKind.single_vertical] }] },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const preview = new URL(created.body.preview);
    const url = `${server.url}${preview.pathname}${preview.search}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInPage(page, server.url, owner, '/');
    await page.goto(url);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    await checkPage(page, 'preview-owner');
    await page.getByRole('link', { name: 'Back to design' }).click();
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe('/create/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Mine');
    await context.close();

    // Someone else signed in, with the link: their own frame, no builder link.
    const other = await server.account();
    const otherContext = await browser.newContext();
    const otherPage = await otherContext.newPage();
    await signInPage(otherPage, server.url, other, '/');
    await otherPage.goto(url);
    expect(await otherPage.getByRole('link', { name: 'Back to design' }).count()).toBe(0);
    await otherContext.close();
  });
});

describe('phones', () => {
  it('bring up the keyboard a textbox asks for, and stack a wide grid', async () => {
    const a = await server.account();
    const box = (heading: string, type: string) => ({
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading }],
      validation: { type, min: null, max: null },
    });
    const cols = ['Awful', 'Poor', 'Fair', 'Good', 'Excellent'].map((text, i) => ({ text, weight: i + 1 }));
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'On a phone',
        pages: [
          {
            questions: [
              box('Your email', 'email'),
              box('Nights', 'integer'),
              box('Budget', 'decimal'),
              {
                family: 'matrix',
                subtype: 'rating',
                headings: [{ heading: 'Rate each' }],
                answers: {
                  rows: [{ text: 'The breakfast buffet' }, { text: 'Room cleaning' }],
                  choices: cols,
                },
              },
            ],
          },
        ],
      },
      { token: a.token },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const preview = new URL(created.body.preview);
    const page = await browser.newPage();
    await page.goto(`${server.url}${preview.pathname}${preview.search}`);
    const input = (label: string) => page.getByRole('textbox', { name: new RegExp(label) });
    expect(await input('Your email').getAttribute('type')).toBe('email');
    expect(await input('Your email').getAttribute('autocomplete')).toBe('email');
    expect(await input('Nights').getAttribute('inputmode')).toBe('numeric');
    expect(await input('Budget').getAttribute('inputmode')).toBe('decimal');
    await checkPage(page, 'respond-phone-inputs');
    // At 390 px each row of the five columns is a list, every choice named beside its button: no
    // sideways scroll, and the far column ("Excellent") in view.
    await page.setViewportSize({ width: 390, height: 800 });
    const grid = `document.querySelector('.matrix-scroll')`;
    expect(await page.evaluate(`${grid}.scrollWidth <= ${grid}.clientWidth`)).toBe(true);
    const excellent = page.locator('.matrix .cell-text', { hasText: 'Excellent' }).first();
    expect(await excellent.isVisible()).toBe(true);
    const where = await excellent.boundingBox();
    expect(where && where.x + where.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'respond-wide-grid-390', false);
    await page.close();
  });
});
