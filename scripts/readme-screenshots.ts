// Makes the README's screenshots (docs/images/): the builder, a respondent's page on a phone and the
// analyze page, from a real server over a fresh SQLite database and Debian's Chromium.
// Run: npx tsx scripts/readme-screenshots.ts
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../test/helpers/server.js';

const OUT = join(process.cwd(), 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
try {
  mkdirSync(OUT, { recursive: true });
  const owner = await server.account();
  const tk = { token: owner.token };
  const choices = (texts: string[]) => ({ choices: texts.map((text) => ({ text })) });
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Office move: your views',
      pages: [
        {
          title: 'Your workplace',
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'How do you get to the office?' }],
              answers: choices(['Walk', 'Bike', 'Public transport', 'Car']),
            },
            {
              family: 'matrix',
              subtype: 'rating',
              headings: [{ heading: 'How would you rate the new office?' }],
              answers: {
                rows: [{ text: 'Light' }, { text: 'Quiet' }, { text: 'Meeting rooms' }],
                choices: ['Poor', 'Fair', 'Good', 'Excellent'].map((text, weight) => ({
                  text,
                  weight: weight + 1,
                })),
              },
            },
            {
              family: 'multiple_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Which days will you come in?' }],
              answers: choices(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']),
            },
            {
              family: 'open_ended',
              subtype: 'essay',
              headings: [{ heading: 'What would make the move easier?' }],
            },
          ],
        },
      ],
    },
    tk,
  );
  if (created.status !== 201) throw new Error(created.text);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const page1 = details.pages[0];
  const [travel, rating, days, comment] = page1.questions;
  const collector = (
    await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
  ).body;
  const comments = [
    'A quiet room for calls',
    'Bike parking',
    'Better coffee',
    'Quiet desks',
    'More bike racks',
  ];
  // a fixed pseudo-random sequence, so each run draws the same varied answers
  let seed = 7;
  const pick = (weights: number[]) => {
    seed = (seed * 16807) % 2147483647;
    const r = (seed / 2147483647) * weights.reduce((a, b) => a + b, 0);
    let sum = 0;
    return weights.findIndex((w) => {
      sum += w;
      return r < sum;
    });
  };
  for (let i = 0; i < 40; i++) {
    const questions = [
      { id: travel.id, answers: [{ choice_id: travel.answers.choices[pick([3, 4, 6, 2])].id }] },
      {
        id: rating.id,
        answers: rating.answers.rows.map((row: { id: string }, r: number) => ({
          row_id: row.id,
          choice_id:
            rating.answers.choices[
              pick(
                [
                  [1, 2, 5, 4],
                  [3, 4, 3, 1],
                  [2, 5, 3, 1],
                ][r],
              )
            ].id,
        })),
      },
      {
        id: days.id,
        answers: days.answers.choices
          .filter((_: unknown, d: number) => pick([1, 1]) === 0 || d === 1)
          .map((c: { id: string }) => ({ choice_id: c.id })),
      },
      ...(i % 4 === 0 ? [{ id: comment.id, answers: [{ text: comments[(i / 4) % comments.length] }] }] : []),
    ];
    const r = await server.client.post(
      `/v3/collectors/${collector.id}/responses`,
      { response_status: 'completed', pages: [{ id: page1.id, questions }] },
      tk,
    );
    if (r.status !== 201) throw new Error(r.text);
  }

  const shoot = async (page: Page, name: string, width: number, height: number) => {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(OUT, `${name}.png`) });
  };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill(owner.user.username);
  await page.getByLabel('Password').fill(owner.password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.goto(`${server.url}${new URL(details.edit_url).pathname}${new URL(details.edit_url).search}`);
  await shoot(page, 'builder', 1280, 900);
  await page.goto(`${server.url}${new URL(details.analyze_url).pathname}`);
  await page
    .getByRole('heading', { name: 'How do you get to the office?' })
    .evaluate((h) => h.scrollIntoView());
  await shoot(page, 'analyze', 1280, 900);
  const phone = await (await browser.newContext({ isMobile: true, hasTouch: true })).newPage();
  await phone.goto(`${server.url}${new URL(collector.url).pathname}`);
  await shoot(phone, 'respondent-phone', 390, 844);
  console.log(`written to ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
