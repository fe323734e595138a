// The figures on the analyze and summary pages in the browser at 1280 and 390 px: the completion
// rate with its counts, the trend's 0–100% scale, and a matrix's answered, skipped and hidden.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedSurvey, serverAndBrowser, signInPage, singleChoice } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('figures on the pages', () => {
  it('shows the completion rate with its counts and the hidden matrix apart from skipped', async () => {
    const owner = await server.account();
    const t = { token: owner.token };
    const seeded = await seedSurvey(server, owner, {
      title: 'Tool feedback',
      collector: 'weblink',
      pages: [
        { title: 'You', questions: { uses: singleChoice('Do you use the planner?', ['Yes', 'No']) } },
        { title: 'Planner', questions: {} },
      ],
    });
    const [yes, no] = seeded.choices.uses;
    const m = (
      await server.client.post(
        `/v3/surveys/${seeded.id}/pages/${seeded.pages[1]}/questions`,
        {
          family: 'matrix',
          subtype: 'single',
          headings: [{ heading: 'Rate the planner' }],
          answers: { rows: [{ text: 'Speed' }], choices: [{ text: 'Bad' }, { text: 'Good' }] },
          display_logic: { question_id: seeded.questions.uses, choice_ids: [yes] },
        },
        t,
      )
    ).body;
    const respond = async (status: string, uses: string, rated: boolean) => {
      const pages: any[] = [
        { id: seeded.pages[0], questions: [{ id: seeded.questions.uses, answers: [{ choice_id: uses }] }] },
      ];
      if (rated)
        pages.push({
          id: seeded.pages[1],
          questions: [
            { id: m.id, answers: [{ row_id: m.answers.rows[0].id, choice_id: m.answers.choices[1].id }] },
          ],
        });
      const r = await server.client.post(
        `/v3/collectors/${seeded.collector.id}/responses`,
        { response_status: status, pages },
        t,
      );
      expect(r.status, r.text).toBe(201);
    };
    await respond('completed', yes, true);
    await respond('completed', yes, true);
    await respond('completed', no, false);
    await respond('partial', yes, false);

    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signInPage(page, server.url, owner, new URL(seeded.survey.analyze_url).pathname);
      await page.locator('#trend-rate').waitFor();
      expect(await page.locator('#trend-rate').textContent()).toBe('75% (3 of 4)');
      expect((await page.locator(`#r${m.id} .q-figures`).textContent())?.trim()).toBe(
        'Answered: 2 · Skipped: 1 · Hidden by display logic: 1 · 67% answered',
      );
      await checkPage(page, 'figures-analyze');
      await page.goto(
        `${server.url}${new URL(seeded.survey.analyze_url).pathname.replace('/analyze/', '/summary/')}`,
      );
      expect(await page.locator('#f-rate').textContent()).toBe('75%Completion rate (3 of 4)');
      await checkPage(page, 'figures-summary');
    } finally {
      await context.close();
    }
  });
});
