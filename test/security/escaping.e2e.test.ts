// Every page escapes user text: script payloads in survey, page and question titles, choices, the
// "other" text, a required-answer message, collector names, message subjects, recipient names,
// respondent answers (API and page) and an app's name are shown as text on every page that shows
// them, in a real browser, and never run (no window.__xss, no dialog, no injected element).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { otherSite, releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { linksIn } from '../invite/helpers.js';
import { authorizePath } from '../oauth/flow.js';

const SCRIPT = '<script>window.__xss=1;alert(1)</script>';
const ATTR = '"><img src=x onerror="window.__xss=1;alert(1)">';
/** A payload naming where it was put, so a page shows which text it escaped. */
const X = (where: string) => `${where}${SCRIPT}${ATTR}`;
/** The app's own site, where the consent page sends the browser back. */
const appSite = otherSite('<!doctype html><title>app</title><p>back at the app</p>');
const redirect = () => `${appSite.origin}/callback`;

let server: TestServer;
let browser: Browser;
let mailDir: string;
let owner: TestAccount;
let survey: any;
let weblink: any;
let responseId: string;
let personalLink: string;
let optOutLink: string;
let appClientId: string;

beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'ss-escape-mail-'));
  server = await startServer({ env: { MAIL_DIR: mailDir } });
  browser = await sharedBrowser();
  owner = await server.account();
  const t = { token: owner.token };
  const c = server.client;
  const created = await c.post(
    '/v3/surveys',
    {
      title: X('SurveyTitle'),
      pages: [
        {
          title: X('PageTitle'),
          description: X('PageDescription'),
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: X('ChoiceHeading') }],
              answers: {
                choices: [{ text: X('ChoiceA') }, { text: 'Plain' }],
                other: [{ text: X('OtherLabel') }],
              },
            },
            {
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading: X('TextHeading') }],
              required: { text: X('RequiredText'), type: 'all', amount: '0' },
            },
          ],
        },
      ],
    },
    t,
  );
  expect(created.status, created.text).toBe(201);
  survey = (await c.get(`/v3/surveys/${created.body.id}/details`, t)).body;
  const w = await c.post(
    `/v3/surveys/${survey.id}/collectors`,
    { type: 'weblink', name: X('CollectorName') },
    t,
  );
  expect(w.status, w.text).toBe(201);
  weblink = w.body;
  const [choiceQ, textQ] = survey.pages[0].questions;
  const answered = await c.post(
    `/v3/collectors/${weblink.id}/responses`,
    {
      pages: [
        {
          id: survey.pages[0].id,
          questions: [
            { id: choiceQ.id, answers: [{ other_id: choiceQ.answers.other.id, text: X('ApiOther') }] },
            { id: textQ.id, answers: [{ text: X('ApiAnswer') }] },
          ],
        },
      ],
    },
    t,
  );
  expect(answered.status, answered.text).toBe(201);
  responseId = answered.body.id;

  // An email invitation to a recipient whose name is a payload; its links come from the .eml file.
  const email = await c.post(
    `/v3/surveys/${survey.id}/collectors`,
    { type: 'email', name: X('EmailCollector') },
    t,
  );
  const m = await c.post(
    `/v3/collectors/${email.body.id}/messages`,
    { type: 'invite', subject: X('Subject') },
    t,
  );
  expect(m.status, m.text).toBe(201);
  const base = `/v3/collectors/${email.body.id}/messages/${m.body.id}`;
  const r = await c.post(
    `${base}/recipients`,
    { email: 'payload@example.org', first_name: X('FirstName'), last_name: X('LastName') },
    t,
  );
  expect(r.status, r.text).toBe(201);
  expect((await c.post(`${base}/send`, {}, t)).status).toBe(200);
  const worker = new OutboxWorker(server.deps, { pollMs: 5 });
  await worker.drain();
  await worker.stop();
  const eml = readdirSync(mailDir).find((f) => f.endsWith('.eml'))!;
  const links = linksIn(readFileSync(join(mailDir, eml), 'utf8'), server.url);
  personalLink = links.survey!;
  optOutLink = links.optOut!;

  const app = await createApp(server.deps, owner.user, { name: X('AppName'), redirectUris: [redirect()] });
  appClientId = app.app.client_id;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  rmSync(mailDir, { recursive: true, force: true });
});

/** A browser context that records every dialog; signed in as the owner when asked. */
async function visitor(
  signedIn: boolean,
): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  if (signedIn) await signInPage(page, server.url, owner);
  return { context, page, dialogs };
}

/** Nothing ran or was injected, and each named payload is on the page as text. */
async function expectEscaped(page: Page, dialogs: string[], shows: string[]) {
  const where = page.url();
  const state = await page.evaluate(() => {
    // runs in the page: the DOM is not in this project's TypeScript lib
    const { window, document } = globalThis as any;
    return {
      xss: window.__xss,
      injected: document.querySelectorAll('img[src="x"], [onerror], [onload], a[href^="javascript:" i]')
        .length,
      scripts: [...document.scripts].filter((s: any) => s.text.includes('__xss')).length,
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person sees
      text: document.body.innerText as string,
    };
  });
  expect(state.xss, `${where}: a payload ran`).toBeUndefined();
  expect(dialogs, `${where}: a dialog opened`).toEqual([]);
  expect(state.injected, `${where}: an element was injected`).toBe(0);
  expect(state.scripts, `${where}: a script element was injected`).toBe(0);
  for (const name of shows)
    expect(state.text, `${where}: ${name} shown as text`).toContain(`${name}${SCRIPT}`);
}

describe('pages show script payloads as text', () => {
  it('the respondent page, its required-answer message, and answering with payloads', async () => {
    const { context, page, dialogs } = await visitor(false);
    await page.goto(weblink.url.replace(/^https?:\/\/[^/]+/, server.url));
    await expectEscaped(page, dialogs, [
      'SurveyTitle',
      'PageTitle',
      'ChoiceHeading',
      'ChoiceA',
      'OtherLabel',
      'TextHeading',
    ]);
    const [choiceQ, textQ] = survey.pages[0].questions;
    // Submitting without the required answer shows its message (set by script through textContent).
    await page.locator(`button[name="nav"][value="done"]`).click();
    await expectEscaped(page, dialogs, ['RequiredText']);
    await page.locator(`input[value="${choiceQ.answers.other.id}"]`).check();
    await page.locator(`[name="q_${choiceQ.id}_other"]`).fill(X('PageOther'));
    await page.locator(`[name="q_${textQ.id}"]`).fill(X('PageAnswer'));
    await Promise.all([page.waitForNavigation(), page.locator(`button[name="nav"][value="done"]`).click()]);
    await expectEscaped(page, dialogs, ['SurveyTitle']);
    await context.close();
  });

  it('the preview, a personal invitation link and the opt-out page', async () => {
    const { context, page, dialogs } = await visitor(false);
    await page.goto(survey.preview.replace(/^https?:\/\/[^/]+/, server.url));
    await expectEscaped(page, dialogs, ['SurveyTitle', 'PageTitle', 'ChoiceA', 'OtherLabel']);
    await page.goto(personalLink);
    await expectEscaped(page, dialogs, ['SurveyTitle', 'TextHeading']);
    await page.goto(optOutLink);
    await expectEscaped(page, dialogs, []);
    await context.close();
  });

  it('the home, edit, collect, analyze, browse, summary and responses pages', async () => {
    const { context, page, dialogs } = await visitor(true);
    const local = (u: string) => u.replace(/^https?:\/\/[^/]+/, server.url);
    await page.goto(`${server.url}/`);
    await expectEscaped(page, dialogs, ['SurveyTitle']);
    await page.goto(local(survey.edit_url));
    await expectEscaped(page, dialogs, ['SurveyTitle', 'PageTitle', 'ChoiceHeading', 'TextHeading']);
    await page.goto(local(survey.collect_url));
    await expectEscaped(page, dialogs, ['SurveyTitle', 'CollectorName', 'EmailCollector']);
    await page.goto(local(survey.analyze_url));
    await expectEscaped(page, dialogs, ['SurveyTitle', 'ApiAnswer', 'PageAnswer']);
    const browse = local(survey.analyze_url).replace('/analyze/', '/analyze/browse/');
    await page.goto(`${browse}?respondent_id=${responseId}`);
    await expectEscaped(page, dialogs, ['SurveyTitle', 'ApiOther', 'ApiAnswer']);
    await page.goto(local(survey.analyze_url).replace('/analyze/', '/summary/'));
    await expectEscaped(page, dialogs, ['SurveyTitle']);
    await page.goto(`${local(survey.analyze_url)}/responses`);
    await expectEscaped(page, dialogs, ['SurveyTitle', 'CollectorName']);
    await page.goto(`${local(survey.analyze_url)}/responses/${responseId}`);
    await expectEscaped(page, dialogs, ['SurveyTitle', 'CollectorName', 'ApiOther', 'ApiAnswer']);
    await context.close();
  });

  it('the mail outbox and one email', async () => {
    const { context, page, dialogs } = await visitor(false);
    await page.goto(`${server.url}/outbox/mail`);
    await expectEscaped(page, dialogs, ['Subject']);
    await Promise.all([
      page.waitForURL(/\/outbox\/mail\/\d+/),
      page.getByRole('link', { name: /^Subject/ }).click(),
    ]);
    await expectEscaped(page, dialogs, ['Subject']);
    await context.close();
  });

  it('the OAuth consent page, the developer’s apps and the linked apps with an app named by a payload', async () => {
    const { context, page, dialogs } = await visitor(true);
    await page.goto(`${server.url}${authorizePath({ clientId: appClientId, redirectUri: redirect() })}`);
    await expectEscaped(page, dialogs, ['AppName']);
    // Allowing redirects to the app (its stub site answers); the next pages open in a new tab
    // of the same session, so that redirect cannot interrupt them.
    await page.getByRole('button', { name: /allow/i }).click();
    await page.waitForURL((url) => url.href.startsWith(appSite.origin));
    expect(await page.textContent('p')).toBe('back at the app');
    await page.close();
    const next = await context.newPage();
    next.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await next.goto(`${server.url}/developer/apps`);
    await expectEscaped(next, dialogs, ['AppName']);
    await Promise.all([
      next.waitForURL(/\/developer\/apps\/\d+/),
      next.getByRole('link', { name: /^AppName/ }).click(),
    ]);
    await expectEscaped(next, dialogs, ['AppName']);
    await next.goto(`${server.url}/account/apps`);
    await expectEscaped(next, dialogs, ['AppName']);
    await context.close();
  });

  it('refuses javascript: URLs where a collector sends respondents on', async () => {
    for (const field of ['redirect_url', 'disqualification_url']) {
      const res = await server.client.patch(
        `/v3/collectors/${weblink.id}`,
        { redirect_type: 'url', [field]: 'javascript:window.__xss=1' },
        { token: owner.token },
      );
      expect(res.status, `${field}: ${res.text}`).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
  });
});
