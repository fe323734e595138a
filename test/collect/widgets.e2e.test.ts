// Every question family in a real browser at a phone's width; the star and 0–10 widgets by mouse,
// touch and keyboard; a quiz taken in the browser; the analyze page's NPS, average and quiz scores.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { everyFamilyPages } from './fixtures.js';
import { createQuiz } from './quiz-fixture.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const H = (heading: string) => [{ heading }];
const STARS = {
  family: 'matrix',
  subtype: 'rating',
  headings: H('Rate our service'),
  display_options: { display_type: 'emoji', display_subtype: 'star' },
  answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
};
const NPS = {
  family: 'matrix',
  subtype: 'rating',
  headings: H('How likely are you to recommend us?'),
  display_options: { left_label: 'Not at all likely', right_label: 'Extremely likely' },
  answers: {
    rows: [{ text: '' }],
    choices: Array.from({ length: 11 }, (_, i) => ({ text: String(i), weight: i })),
  },
};
const WIDE_MATRIX = {
  family: 'matrix',
  subtype: 'rating',
  headings: H('How do you rate each?'),
  answers: {
    rows: [{ text: 'Speed of the checkout' }, { text: 'Price' }],
    choices: ['Very poor', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent', 'N/A'].map((text, i) => ({
      text,
      weight: i + 1,
    })),
  },
};
const SLIDER = {
  family: 'open_ended',
  subtype: 'single',
  headings: H('How many hours?'),
  display_options: { display_type: 'slider', left_label: 'None', right_label: 'All day' },
  validation: { type: 'integer', min: 0, max: 24 },
};

async function survey(pages: unknown[], title = 'Widgets') {
  const a = await server.account({ plan: 'premier' });
  const s = await server.client.post('/v3/surveys', { title, pages }, { token: a.token });
  expect(s.status).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: a.token })).body;
  const c = await server.client.post(
    `/v3/surveys/${s.body.id}/collectors`,
    { type: 'weblink' },
    { token: a.token },
  );
  return { a, details, collector: c.body };
}

/** The fill of each symbol of a star question, as the browser paints it. */
type Styles = { getComputedStyle(e: unknown): { fill: string } };
const fills = (page: Page, qid: string): Promise<boolean[]> =>
  page
    .locator(`#q${qid} .star path`)
    .evaluateAll((paths) =>
      paths.map((p) => (globalThis as unknown as Styles).getComputedStyle(p).fill !== 'none'),
    );

const responses = async (a: { token: string }, sid: string) =>
  (await server.client.get(`/v3/surveys/${sid}/responses/bulk`, { token: a.token })).body.data;

describe('question widgets', () => {
  it('answers every family at 390 px without the page scrolling sideways', async () => {
    const pages = [...everyFamilyPages, { title: 'Widgets', questions: [STARS, NPS, WIDE_MATRIX, SLIDER] }];
    const { a, details, collector } = await survey(pages);
    const [stars, nps, wide] = details.pages[3].questions;
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(collector.url);
      await page.getByLabel('Blue').check();
      await page.getByLabel('Country?').selectOption({ label: 'Germany' });
      await page.getByLabel('Pear').check();
      await page.getByLabel('Name:').fill('Ann');
      await checkPage(page, 'widgets-families-1');
      await page.click('button:has-text("Next")');
      await page.getByLabel('Speed: Good').check();
      await page.getByLabel('Weekend: Pm').check();
      await page.getByLabel('Staff: High').check();
      await checkPage(page, 'widgets-families-2');
      await page.click('button:has-text("Next")');
      await page.getByLabel('Your nickname').fill('annie');
      await page.getByRole('spinbutton', { name: 'Age' }).fill('42');
      await checkPage(page, 'widgets-families-3');
      await page.click('button:has-text("Next")');
      await page.locator(`#q${stars.id} label`).nth(3).click();
      await page.locator(`#q${nps.id} label`).nth(9).click();
      await page.getByLabel('Price: Excellent').check();
      await checkPage(page, 'widgets-families-4');
      // the wide grid stacks on a phone: each row lists its choices, the last ("Excellent")
      // named inside the screen, with nothing to scroll sideways
      const box = await page
        .locator(`#q${wide.id} .matrix-scroll`)
        .evaluate((el) => el.scrollWidth > el.clientWidth);
      expect(box).toBe(false);
      const excellent = page.locator(`#q${wide.id} label.cell`).filter({ hasText: 'Excellent' }).last();
      expect(await excellent.isVisible()).toBe(true);
      const edge = await excellent.boundingBox();
      expect(edge!.x + edge!.width).toBeLessThanOrEqual(390);
      await page.click('button:has-text("Done")');
      await page.waitForSelector('.thank-you');
    } finally {
      await page.close();
    }
    const [r] = await responses(a, details.id);
    const answered = r.pages[3].questions;
    expect(answered.find((q: any) => q.id === stars.id).answers).toEqual([
      { row_id: stars.answers.rows[0].id, choice_id: stars.answers.choices[3].id },
    ]);
    expect(answered.find((q: any) => q.id === nps.id).answers[0].choice_id).toBe(nps.answers.choices[9].id);
  });

  it('star and 0–10 widgets work by mouse, touch and keyboard', async () => {
    const { a, details, collector } = await survey([{ questions: [STARS, NPS] }]);
    const [stars, nps] = details.pages[0].questions;
    const weightOf = (q: any, id: string) => q.answers.choices.find((c: any) => c.id === id).weight;

    // Mouse: pointing fills up to the star pointed at; a click chooses.
    const mouse = await browser.newPage();
    await mouse.goto(collector.url);
    await mouse.locator(`#q${stars.id} .star label`).nth(1).hover();
    expect(await fills(mouse, stars.id)).toEqual([true, true, false, false, false]);
    await mouse.locator(`#q${stars.id} .star label`).nth(3).click();
    await mouse.mouse.move(0, 0);
    expect(await fills(mouse, stars.id)).toEqual([true, true, true, true, false]);
    await mouse.locator(`#q${nps.id} label`).nth(10).click();
    await mouse.click('button:has-text("Done")');
    await mouse.waitForSelector('.thank-you');
    await mouse.close();

    // Touch: a phone context, tapped.
    const phone = await browser.newContext({
      hasTouch: true,
      isMobile: true,
      viewport: { width: 390, height: 800 },
    });
    const touch = await phone.newPage();
    await touch.goto(collector.url);
    await touch.locator(`#q${stars.id} .star label`).nth(2).tap();
    expect(await fills(touch, stars.id)).toEqual([true, true, true, false, false]);
    await touch.locator(`#q${nps.id} label`).nth(6).tap();
    await checkPage(touch, 'widgets-touch');
    await touch.locator('button:has-text("Done")').tap();
    await touch.waitForSelector('.thank-you');
    await phone.close();

    // Keyboard: Tab into the stars, arrows move the choice; the same for the scale.
    const keys = await browser.newPage();
    await keys.goto(collector.url);
    await keys.locator(`#q${stars.id} input`).first().focus();
    expect(await fills(keys, stars.id)).toEqual([true, false, false, false, false]); // focus previews
    await keys.keyboard.press('ArrowRight');
    await keys.keyboard.press('ArrowRight');
    expect(await keys.locator(`#q${stars.id} input:checked`).getAttribute('value')).toBe(
      stars.answers.choices[2].id,
    );
    expect(await fills(keys, stars.id)).toEqual([true, true, true, false, false]);
    await keys.keyboard.press('Tab');
    await keys.keyboard.press('ArrowRight');
    await keys.keyboard.press('ArrowRight');
    await keys.keyboard.press('Space');
    expect(await keys.locator(`#q${nps.id} input:checked`).getAttribute('value')).toBe(
      nps.answers.choices[2].id,
    );
    await keys.keyboard.press('Enter');
    await keys.waitForSelector('.thank-you');
    await keys.close();

    const got = (await responses(a, details.id)).map((r: any) =>
      r.pages[0].questions.map((q: any) => weightOf(q.id === stars.id ? stars : nps, q.answers[0].choice_id)),
    );
    expect(got).toEqual([
      [4, 10],
      [3, 6],
      [3, 2],
    ]);
  });

  it('a quiz taken in the browser shows the hand-computed score and feedback', async () => {
    const a = await server.account({ plan: 'premier' });
    const quiz = await createQuiz(server.client, a.token);
    const c = await server.client.post(
      `/v3/surveys/${quiz.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    const page = await browser.newPage();
    try {
      await page.goto(c.body.url);
      await page.getByLabel('Lyon').check(); // 5 of 10: partial
      await page.getByLabel('2', { exact: true }).check(); // 5 of 10: partial
      await page.click('button:has-text("Done")');
      await page.waitForSelector('.quiz-results');
      // 10 of 20 = 50 %, in the range 50–99
      expect(await page.locator('#quiz-score').textContent()).toBe('10 of 20 points (50%)');
      expect(await page.locator('#quiz-message').textContent()).toBe('Well done.');
      const q1 = page.locator(`#qa${quiz.q1.id}`);
      expect(await q1.textContent()).toContain('Partially correct');
      expect(await q1.locator('p', { hasText: 'Correct answer' }).textContent()).toBe(
        'Correct answer: Paris',
      ); // not Lyon, worth less
      expect(await q1.textContent()).toContain('Close.'); // the question's own feedback
      expect(await page.locator(`#qa${quiz.q2.id}`).textContent()).toContain('Almost.'); // the survey's default
      await checkPage(page, 'widgets-quiz-results');
    } finally {
      await page.close();
    }
  });

  it('the analyze page shows the NPS, the average rating and the quiz scores', async () => {
    const { a, details, collector } = await survey([{ questions: [STARS, NPS] }], 'Loyalty');
    const [stars, nps] = details.pages[0].questions;
    const pageId = details.pages[0].id;
    // NPS 10, 9, 7, 3: 2 promoters, 1 passive, 1 detractor = +25; stars 5, 4, 4, 1: average 3.5
    for (const [s, n] of [
      [5, 10],
      [4, 9],
      [4, 7],
      [1, 3],
    ]) {
      const res = await server.client.post(
        `/v3/collectors/${collector.id}/responses`,
        {
          pages: [
            {
              id: pageId,
              questions: [
                {
                  id: stars.id,
                  answers: [{ row_id: stars.answers.rows[0].id, choice_id: stars.answers.choices[s - 1].id }],
                },
                {
                  id: nps.id,
                  answers: [{ row_id: nps.answers.rows[0].id, choice_id: nps.answers.choices[n].id }],
                },
              ],
            },
          ],
        },
        { token: a.token },
      );
      expect(res.status).toBe(201);
    }
    const quiz = await createQuiz(server.client, a.token);
    const qc = await server.client.post(
      `/v3/surveys/${quiz.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    // scores 20, 10 and 0: average 10
    for (const picks of [
      [quiz.c(quiz.q1, 1), quiz.c(quiz.q2, 0), quiz.c(quiz.q2, 1)],
      [quiz.c(quiz.q1, 1)],
      [quiz.c(quiz.q1, 0)],
    ]) {
      const q1 = picks.filter((p) => quiz.q1.answers.choices.some((c: any) => c.id === p));
      const q2 = picks.filter((p) => quiz.q2.answers.choices.some((c: any) => c.id === p));
      await server.client.post(
        `/v3/collectors/${qc.body.id}/responses`,
        {
          pages: [
            {
              id: quiz.pageId,
              questions: [
                { id: quiz.q1.id, answers: q1.map((choice_id) => ({ choice_id })) },
                ...(q2.length ? [{ id: quiz.q2.id, answers: q2.map((choice_id) => ({ choice_id })) }] : []),
              ],
            },
          ],
        },
        { token: a.token },
      );
    }
    const loyalty = (await server.client.get(`/v3/surveys/${details.id}`, { token: a.token })).body;
    const quizSurvey = (await server.client.get(`/v3/surveys/${quiz.id}`, { token: a.token })).body;
    const page = await browser.newPage();
    try {
      await signInPage(page, server.url, a, new URL(loyalty.analyze_url).pathname);
      expect(await page.locator(`#nps${nps.id} .n`).textContent()).toBe('+25');
      const groups = await page
        .locator(`#r${nps.id} svg.bars`)
        .first()
        .locator('g.bar title')
        .allTextContents();
      expect(groups).toEqual([
        'Promoters (9–10): 2 (50%)',
        'Passives (7–8): 1 (25%)',
        'Detractors (0–6): 1 (25%)',
      ]);
      expect(await page.locator(`#avg${stars.id} .n`).textContent()).toBe('3.5');
      expect(await page.locator(`#r${stars.id} svg.bars g.bar title`).first().textContent()).toBe(
        '5 stars: 1 (25%)',
      );
      await checkPage(page, 'widgets-analyze-nps');
      // no text under 12 px at a phone's width
      await page.setViewportSize({ width: 390, height: 800 });
      const smallest = await page
        .locator('svg.chart text')
        .evaluateAll((ts) => Math.min(...ts.map((t) => t.getBoundingClientRect().height)));
      expect(smallest).toBeGreaterThanOrEqual(12);
      await page.setViewportSize({ width: 1280, height: 800 });

      // the owner's view of one response names the star rating (it was blank)
      const [first] = await responses(a, details.id);
      await page.goto(first.analyze_url);
      expect(await page.locator('main').textContent()).toContain('5 stars');

      await page.goto(quizSurvey.analyze_url);
      expect(await page.locator('#quiz-average .n').textContent()).toBe('10');
      const bands = await page.locator('#quiz-distribution svg.bars g.bar title').allTextContents();
      expect(bands).toHaveLength(11); // 0–20 in bands of two
      expect(bands.filter((t) => !t.endsWith(': 0 (0%)'))).toEqual([
        '0–1 points: 1 (33.3%)',
        '10–11 points: 1 (33.3%)',
        '20 points: 1 (33.3%)',
      ]);
      await checkPage(page, 'widgets-analyze-quiz');
    } finally {
      await page.close();
    }
  });
});
