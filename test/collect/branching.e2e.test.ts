// Taking a survey with branching in a real browser, with JavaScript and without: every path of the
// fixture's rules, the pages seen, page_path, logic_path and the final status read through the API,
// Back along the path taken, the progress bar, and Exit saving a partial response that resumes.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type Branching, branchingSurvey } from './branching-fixture.js';

let server: TestServer;
let browser: Browser;
let owner: TestAccount;
let b: Branching;
let url: string;

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#7a1fa2"/></svg>';

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account();
  b = await branchingSurvey(server.client, owner.token);
  const styled = await server.client.patch(
    `/v3/surveys/${b.surveyId}`,
    { logo_url: 'https://logo.example/brand.svg', theme_color: '#C040F0' },
    { token: owner.token },
  );
  expect(styled.status, JSON.stringify(styled.body)).toBe(200);
  const c = await server.client.post(
    `/v3/surveys/${b.surveyId}/collectors`,
    { type: 'weblink', disqualification_message: 'Sorry, this survey is not for you.' },
    { token: owner.token },
  );
  url = c.body.url;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function newContext(js: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ javaScriptEnabled: js });
  await context.route('https://logo.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO }),
  );
  return context;
}

const title = (page: Page) => page.locator('h2.page-title').textContent();

/** Answers the page now shown as `answers` says, then presses its forward button. */
async function answer(page: Page, answers: { choice?: string; text?: string }) {
  const heading = await title(page);
  const i = ['Start', 'Two', 'Three', 'Four', 'Five'].indexOf(heading ?? '');
  const name = `q_${b.questions[i]}`;
  if (i === 0) await page.check(`input[name="${name}"][value="${answers.choice}"]`);
  else if (i === 1) await page.selectOption(`select[name="${name}"]`, answers.choice!);
  else await page.fill(`[name="${name}"]`, answers.text ?? heading!);
  await Promise.all([page.waitForNavigation(), page.click('nav.survey-nav button:not(.secondary)')]);
}

/** Takes the survey from its first page, choosing `route` then `fork`; answers the pages seen. */
async function take(js: boolean, route: keyof Branching['route'], fork?: keyof Branching['fork']) {
  const context = await newContext(js);
  const page = await context.newPage();
  try {
    await page.goto(url);
    const seen: string[] = [];
    while ((await page.locator('h2.page-title').count()) > 0) {
      const heading = (await title(page))!;
      seen.push(heading);
      await answer(page, { choice: heading === 'Start' ? b.route[route] : fork ? b.fork[fork] : undefined });
    }
    return { seen, end: (await page.locator('[role=status]').textContent())?.trim() };
  } finally {
    await context.close();
  }
}

/** The latest response, with its details (current_page_id is only there). */
async function latestResponse() {
  const list = await server.client.get(
    `/v3/surveys/${b.surveyId}/responses?sort_order=DESC&sort_by=date_modified&per_page=1`,
    { token: owner.token },
  );
  const id = list.body.data[0].id;
  return (
    await server.client.get(`/v3/surveys/${b.surveyId}/responses/${id}/details`, { token: owner.token })
  ).body;
}

const P = (i: number) => () => b.pages[i];

describe('branching in the respondent pages', () => {
  for (const js of [true, false])
    it(`follows every path ${js ? 'with' : 'without'} JavaScript`, async () => {
      const paths = [
        { route: 'A', seen: ['Start', 'Three', 'Five'], path: [0, 2, 4], fired: [0, 2], status: 'completed' },
        { route: 'B', seen: ['Start'], path: [0], fired: [0], status: 'completed' },
        { route: 'C', seen: ['Start'], path: [0], fired: [0], status: 'disqualified' },
        {
          route: 'D',
          fork: 'X',
          seen: ['Start', 'Two', 'Four', 'Five'],
          path: [0, 1, 3, 4],
          fired: [1],
          status: 'completed',
        },
        {
          route: 'D',
          fork: 'Y',
          seen: ['Start', 'Two', 'Three', 'Five'],
          path: [0, 1, 2, 4],
          fired: [2],
          status: 'completed',
        },
      ] as const;
      for (const p of paths) {
        const got = await take(js, p.route, 'fork' in p ? p.fork : undefined);
        const where = `${p.route}${'fork' in p ? p.fork : ''}`;
        expect(got.seen, where).toEqual(p.seen);
        expect(got.end, where).toBe(
          p.status === 'disqualified'
            ? 'Sorry, this survey is not for you.'
            : 'Thank you for completing our survey!',
        );
        const r = await latestResponse();
        expect(r.response_status, where).toBe(p.status);
        expect(r.page_path, where).toEqual(p.path.map((i) => P(i)()));
        expect(Object.keys(r.logic_path).sort(), where).toEqual(p.fired.map((i) => P(i)()).sort());
      }
      const r = await latestResponse();
      expect(r.logic_path[b.pages[2]]).toEqual({ action: 'go_to_page', page_id: b.pages[4] });
    });

  it('goes Back along the path taken, shows progress by the path, and resumes after Exit', async () => {
    const context = await newContext(true);
    const page = await context.newPage();
    try {
      await page.goto(url);
      expect(await page.locator('.progress label').textContent()).toBe('Page 1 of up to 5');
      expect(await page.locator('header.respondent .brand').textContent()).toBe('Branching');
      expect(await page.locator('header a').count()).toBe(0);
      expect(await page.locator('a[href*="/docs"], a[href*="/developer"]').count()).toBe(0);
      expect(await page.locator('link[href^="/r/theme/c040f0.css"]').count()).toBe(1);
      await checkPage(page, 'respond-branching-start');
      await answer(page, { choice: b.route.A });
      expect(await title(page)).toBe('Three');
      // page 2 is skipped: page 2 of at most 4 (Three, Four, Five still ahead at most)
      expect(await page.locator('.progress label').textContent()).toBe('Page 2 of up to 4');
      expect(await page.locator('progress').getAttribute('value')).toBe('1');
      await Promise.all([page.waitForNavigation(), page.click('button[value=prev]')]);
      expect(await title(page)).toBe('Start');
      // choose D instead: Two, then Exit with X chosen
      await answer(page, { choice: b.route.D });
      expect(await title(page)).toBe('Two');
      await page.selectOption(`select[name="q_${b.questions[1]}"]`, b.fork.X);
      await Promise.all([page.waitForNavigation(), page.click('button[value=exit]')]);
      expect(await page.locator('[role=status]').textContent()).toContain('Your answers are saved');
      await checkPage(page, 'respond-branching-exit');
      const saved = await latestResponse();
      expect(saved).toMatchObject({
        response_status: 'partial',
        page_path: [b.pages[0]],
        current_page_id: b.pages[1],
      });
      expect(saved.pages.find((p: any) => p.id === b.pages[1]).questions[0].answers).toEqual([
        { choice_id: b.fork.X },
      ]);

      // the same browser comes back: page Two, X still chosen
      await page.goto(url);
      expect(await title(page)).toBe('Two');
      expect(await page.inputValue(`select[name="q_${b.questions[1]}"]`)).toBe(b.fork.X);
      await checkPage(page, 'respond-branching-resume');
      await answer(page, { choice: b.fork.X });
      expect(await title(page)).toBe('Four');
      await answer(page, {});
      expect(await title(page)).toBe('Five');
      expect(await page.locator('.progress label').textContent()).toBe('Page 4 of 4');
      await answer(page, {});
      const done = await latestResponse();
      expect(done.id).toBe(saved.id);
      expect(done.response_status).toBe('completed');
      expect(done.page_path).toEqual([b.pages[0], b.pages[1], b.pages[3], b.pages[4]]);
      // the answers of page Three (the abandoned path) are not kept
      expect(done.pages.map((p: any) => p.id)).toEqual([b.pages[0], b.pages[1], b.pages[3], b.pages[4]]);
    } finally {
      await context.close();
    }
  });

  it('shows the disqualification message on a checked page', async () => {
    const context = await newContext(true);
    const page = await context.newPage();
    try {
      await page.goto(url);
      await answer(page, { choice: b.route.C });
      expect(await page.locator('.disqualified').textContent()).toBe('Sorry, this survey is not for you.');
      await checkPage(page, 'respond-branching-disqualified');
    } finally {
      await context.close();
    }
  });
});
