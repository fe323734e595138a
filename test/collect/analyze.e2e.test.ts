// The owner's analyze, response and summary pages in a real browser.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { createEveryFamilySurvey } from './fixtures.js';

let server: TestServer;
let browser: Browser;
const clock = new TestClock('2026-06-10T12:00:00Z');

serverAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { clock },
);

describe('analyze and summary pages', () => {
  it('charts each question, filters by date and collector, lists text answers, and sums up', async () => {
    const a = await server.account();
    const details = await createEveryFamilySurvey(server.client, a.token, 'Results <please>');
    const survey = (await server.client.get(`/v3/surveys/${details.id}`, { token: a.token })).body;
    const [p1, p2, p3] = details.pages;
    const colour = p1.questions[1];
    const matrix = p2.questions[0];
    const nick = p3.questions[0];
    const c1 = (
      await server.client.post(
        `/v3/surveys/${details.id}/collectors`,
        { type: 'weblink', name: 'Site' },
        { token: a.token },
      )
    ).body;
    const c2 = (
      await server.client.post(
        `/v3/surveys/${details.id}/collectors`,
        { type: 'weblink', name: 'Mail' },
        { token: a.token },
      )
    ).body;
    const answer = async (
      cid: string,
      choice: number,
      nickname: string,
      day: string,
      status = 'completed',
    ) => {
      clock.set(`${day}T12:00:00Z`);
      const res = await server.client.post(
        `/v3/collectors/${cid}/responses`,
        {
          response_status: status,
          date_created: `${day}T11:58:00Z`,
          pages: [
            {
              id: p1.id,
              questions: [{ id: colour.id, answers: [{ choice_id: colour.answers.choices[choice].id }] }],
            },
            {
              id: p2.id,
              questions: [
                {
                  id: matrix.id,
                  answers: [
                    { row_id: matrix.answers.rows[0].id, choice_id: matrix.answers.choices[choice].id },
                  ],
                },
              ],
            },
            { id: p3.id, questions: [{ id: nick.id, answers: [{ text: nickname }] }] },
          ],
        },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const first = await answer(c1.id, 0, 'Zed', '2026-06-08');
    await answer(c1.id, 1, '<script>alert(1)</script>', '2026-06-09');
    await answer(c2.id, 1, 'Kay', '2026-06-10', 'partial');

    const page = await browser.newPage();
    try {
      // Signed out, the analyze URL leads to sign-in; a stranger signed in gets not found.
      await page.goto(survey.analyze_url);
      expect(new URL(page.url()).pathname).toBe('/login');
      const stranger = await server.account();
      await signInPage(page, server.url, stranger);
      expect((await page.goto(survey.analyze_url))?.status()).toBe(404);
      expect((await page.goto(survey.summary_url))?.status()).toBe(404);
      await page.context().clearCookies();
      await signInPage(page, server.url, a, survey.analyze_url);
      const res = await page.goto(survey.analyze_url);
      expect(res?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe('Results <please>');
      expect(await page.locator('#total strong').textContent()).toBe('3');
      const colourSection = page.locator(`#r${colour.id}`);
      expect(await colourSection.locator('svg.bars g.bar').count()).toBe(3); // Red, Blue, Other colour
      expect(await colourSection.locator('svg.bars title').first().textContent()).toBe('Favourite colour?');
      expect(await colourSection.locator('svg.bars g.bar title').nth(1).textContent()).toBe(
        'Blue: 2 (66.7%)',
      );
      const grid = page.locator(`#r${matrix.id} svg.grid g.cell`);
      expect(await grid.count()).toBe(4);
      expect(await grid.first().locator('title').textContent()).toBe('Speed / Bad: 1');
      const texts = page.locator(`#r${nick.id} ul.texts li`);
      expect(await texts.allTextContents()).toEqual(['Kay', '<script>alert(1)</script>', 'Zed']);

      await page.selectOption('#collector', c1.id);
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/collector=/);
      expect(await page.locator('#total strong').textContent()).toBe('2');
      expect(await page.locator(`#r${nick.id} ul.texts li`).count()).toBe(2);
      await page.fill('#start', '2026-06-09');
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/start=2026-06-09/);
      expect(await page.locator('#total strong').textContent()).toBe('1');
      expect(await page.locator(`#r${colour.id} svg.bars g.bar title`).nth(1).textContent()).toBe(
        'Blue: 1 (100%)',
      );

      const one = await server.client.get(`/v3/surveys/${details.id}/responses/${first}`, { token: a.token });
      await page.goto(one.body.analyze_url);
      // the API's analyze_url leads to the responses page's view of that response
      await page.waitForURL(/\/analyze\/[^/]+\/responses\/\d+$/);
      const answers = await page.locator('main').textContent();
      expect(answers).toContain('Red');
      expect(answers).toContain('Speed | Bad');

      await page.goto(survey.summary_url);
      expect(await page.locator('#f-total .n').textContent()).toBe('3');
      expect(await page.locator('#f-completed .n').textContent()).toBe('2');
      expect(await page.locator('#f-partial .n').textContent()).toBe('1');
      expect(await page.locator('#f-rate .n').textContent()).toBe('67%');
      expect(await page.locator('#f-rate').textContent()).toBe('67%Completion rate (2 of 3)');
      expect(await page.locator('#f-time .n').textContent()).toBe('2 min 0 s');
      expect(await page.locator('#f-collectors .n').textContent()).toBe('2 (2)');
      expect(await page.locator('svg.columns g.col').count()).toBe(14);
      // Dates as the other pages write them (2026-11-21 05:24 UTC), the exact time in <time datetime>.
      const dates = await page.locator('main p time').allTextContents();
      expect(dates).toHaveLength(2);
      for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      expect(await page.locator('main p time').first().getAttribute('datetime')).toMatch(/\+00:00$/);

      const bad = await page.goto(`${server.url}/analyze/not-a-real-token-at-all`);
      expect(bad?.status()).toBe(404);
      const badSummary = await page.goto(`${server.url}/summary/xxxxxxxxxxxxxxxxxxxxxxxx`);
      expect(badSummary?.status()).toBe(404);
    } finally {
      await page.close();
    }
  });
});
