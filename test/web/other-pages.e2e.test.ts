// The page checks (axe, 390 px, touch targets; test/helpers/pages.ts) on the pages the area tests
// do not visit: the developer, operator and linked-apps pages, the app directory, a survey's summary
// and preview, the mail outbox, and the answers to a bad opt-out or team invitation link.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  owner = await server.account({ plan: 'premier' });
  await setOperator(server.deps, owner.user.id, true);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

describe('every other page passes the page checks', () => {
  it('developer, operator, linked apps and the app directory', async () => {
    await signInPage(page, server.url, owner, '/developer/apps');
    const pages: [string, string][] = [
      ['/developer/apps', 'developer-apps'],
      [`/developer/apps/${owner.app.id}`, 'developer-app'],
      ['/developer/apps/new', 'developer-app-new'],
      ['/apps', 'app-directory'],
      ['/account/apps', 'linked-apps'],
      ['/operator/apps', 'operator-apps'],
      ['/operator/erase', 'operator-erase'],
    ];
    for (const [path, name] of pages) {
      await page.goto(`${server.url}${path}`);
      await checkPage(page, name);
    }
  });

  it("a survey's summary and preview, the mail outbox, and bad opt-out and invitation links", async () => {
    const survey = (
      await server.client.post(
        '/v3/surveys',
        {
          title: 'Checked survey',
          pages: [
            {
              title: 'One',
              questions: [
                {
                  family: 'single_choice',
                  subtype: 'vertical',
                  headings: [{ heading: 'Pick one' }],
                  answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
                },
              ],
            },
          ],
        },
        { token: owner.token },
      )
    ).body as { summary_url: string; preview: string };
    const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, server.url);
    const pages: [string, string][] = [
      [local(survey.summary_url), 'summary'],
      [local(survey.preview), 'preview'],
      [`${server.url}/outbox/mail`, 'mail-outbox'],
      [`${server.url}/optout?sm=not-a-token`, 'optout-bad-link'],
      [`${server.url}/teams/invitations/accept?token=not-a-token`, 'team-accept-bad-link'],
    ];
    for (const [url, name] of pages) {
      await page.goto(url);
      await checkPage(page, name);
    }
  });
});
