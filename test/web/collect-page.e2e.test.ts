// The collect page in a real browser with JavaScript disabled: the owner creates a web link
// collector, opens its respondent URL and sees the survey's first page, closes the collector on the
// page and the URL then shows the closed page; sets a response limit; a Viewer sees the page
// read-only; a stranger gets a 404 page; a signed-out visitor is sent to sign in.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';

let server: TestServer;
let browser: Browser;
let t: TestTeam;
let survey: { id: string; collect_url: string; edit_url: string };
let collectPath: string;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  return page;
}

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  t = await makeTeam(server);
  survey = (
    await server.client.post('/v3/surveys', { title: 'Browser <i>poll</i>' }, { token: t.owner.token })
  ).body;
  const details = await server.client.get(`/v3/surveys/${survey.id}/details`, { token: t.owner.token });
  const q = await server.client.post(
    `/v3/surveys/${survey.id}/pages/${details.body.pages[0].id}/questions`,
    { family: 'open_ended', subtype: 'single', headings: [{ heading: 'What is your favourite tree?' }] },
    { token: t.owner.token },
  );
  expect(q.status).toBe(201);
  const url = new URL(survey.collect_url);
  collectPath = `${url.pathname}${url.search}`;
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await releaseBrowser(browser);
  await server?.close();
});

async function collectors(): Promise<any[]> {
  const res = await server.client.get(`/v3/surveys/${survey.id}/collectors?include=status,url`, {
    token: t.owner.token,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('collect page without JavaScript', () => {
  it('the owner creates a web link collector, answers through it, then closes it', async () => {
    const page = await newPage();
    await signInPage(page, server.url, t.owner, collectPath);
    expect(new URL(page.url()).pathname).toBe('/collect/list');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Browser <i>poll</i>');
    expect(await page.getByRole('link', { name: 'Design' }).getAttribute('href')).toBe(
      `${new URL(survey.edit_url).pathname}${new URL(survey.edit_url).search}`,
    );
    expect(await page.getByRole('link', { name: 'Analyze' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Summary' }).count()).toBe(1);

    await page.getByLabel('Collector name (optional)').fill('Front <script>alert(1)</script> desk');
    await page.getByRole('button', { name: 'Create collector' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain(
      'The web link collector was created.',
    );
    const section = page.locator('section.collector').first();
    expect(await section.getByRole('heading', { level: 2 }).textContent()).toBe(
      'Front <script>alert(1)</script> desk',
    );
    const [made] = await collectors();
    expect(made.name).toBe('Front <script>alert(1)</script> desk');
    const respondentUrl = `${server.url}${new URL(made.url).pathname}`;
    expect(await section.getByLabel(/Copy the link of /).inputValue()).toBe(respondentUrl);
    expect(await section.getByLabel(/Copy the link of /).getAttribute('readonly')).not.toBeNull();

    // Every visible control has a label or an accessible name.
    const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea, button', (els) =>
      els
        .filter((el) => {
          const e = el as unknown as {
            labels?: { length: number } | null;
            tagName: string;
            textContent: string | null;
          };
          return !((e.labels?.length ?? 0) > 0 || (e.tagName === 'BUTTON' && e.textContent?.trim()));
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);

    // The respondent URL, followed from the page's link, shows the survey's first page.
    await section.getByRole('link', { name: respondentUrl }).click();
    expect(page.url()).toBe(respondentUrl);
    expect(await page.getByText('What is your favourite tree?').count()).toBe(1);

    // Close it on the collect page; the same URL now shows the closed page.
    await page.goto(`${server.url}${collectPath}`);
    await page.getByRole('button', { name: 'Close collector 1' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('The collector was closed.');
    expect(await page.locator('section.collector dd[data-status]').textContent()).toBe('Closed');
    expect((await collectors())[0].status).toBe('closed');
    await page.goto(respondentUrl);
    expect(await page.getByText('This survey is closed.').count()).toBe(1);
    expect(await page.getByText('What is your favourite tree?').count()).toBe(0);

    // Open it again and set a response limit and a close date through the labelled fields.
    await page.goto(`${server.url}${collectPath}`);
    await page.getByRole('button', { name: 'Open collector 1' }).click();
    await page.getByText('Close date and response limit of collector 1').click();
    await page.getByLabel('Close date (UTC)').fill('2038-01-01T12:00');
    await page.getByLabel('Response limit').fill('40');
    await page.getByRole('button', { name: 'Save close date and limit' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('were saved');
    const got = await server.client.get(`/v3/collectors/${made.id}`, { token: t.owner.token });
    expect([got.body.status, got.body.close_date, got.body.response_limit]).toEqual([
      'open',
      '2038-01-01T12:00:00+00:00',
      40,
    ]);
  });

  it('with script, deleting asks in a dialog naming the responses lost; the page passes the checks', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signInPage(page, server.url, t.owner, collectPath);
    await checkPage(page, 'collect-weblink');
    await page.getByLabel('Collector name (optional)').fill('Temporary');
    await page.getByRole('button', { name: 'Create collector' }).click();
    await page.waitForURL(/done=created/);
    // Every setting open, two collectors: no id twice, and the checks pass with the forms shown.
    await page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`);
    const duplicates = await page.evaluate(
      `(() => { const ids = [...document.querySelectorAll('[id]')].map((e) => e.id); return ids.filter((id, i) => ids.indexOf(id) !== i); })()`,
    );
    expect(duplicates).toEqual([]);
    await checkPage(page, 'collect-settings-open');
    await page.getByRole('button', { name: 'Delete collector 2 and its responses' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('The collector "Temporary" and its 0 responses.');
    await checkPage(page, 'collect-delete-dialog');
    expect((await collectors()).length).toBe(2);
    await dialog.getByRole('button', { name: 'Delete collector and responses' }).click();
    await page.waitForURL(/done=deleted/);
    expect((await collectors()).map((c) => c.name)).toEqual(['Front <script>alert(1)</script> desk']);
  }, 120_000);

  it('links to the response alerts; with an email collector and a refused form, no id is used twice', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signInPage(page, server.url, t.owner, collectPath);
    const sm = new URL(survey.collect_url).searchParams.get('sm')!;
    expect(await page.getByRole('link', { name: 'Response alerts' }).getAttribute('href')).toBe(
      `/collect/alerts?sm=${encodeURIComponent(sm)}`,
    );
    await page.getByLabel('Email invitation: personal links emailed to your contacts').check();
    await page.getByLabel('Collector name (optional)').fill('Invites');
    await page.getByRole('button', { name: 'Create collector' }).click();
    await page.waitForURL(/done=created/);
    const invites = page.locator('section.collector').filter({ hasText: 'Invites' });
    await invites.locator('summary', { hasText: 'After the last page' }).click();
    await invites.getByRole('radio', { name: 'Send them to a web address' }).check();
    await invites.getByRole('button', { name: 'Save what follows the last page' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toBe('Write the web address to send respondents to.');
    // The refused form is open with its message; every other form opened too: still no id twice.
    await page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`);
    const duplicates = await page.evaluate(
      `(() => { const ids = [...document.querySelectorAll('[id]')].map((e) => e.id); return ids.filter((id, i) => ids.indexOf(id) !== i); })()`,
    );
    expect(duplicates).toEqual([]);
    await checkPage(page, 'collect-email-error');
    const made = (await collectors()).find((c) => c.name === 'Invites');
    const gone = await server.client.delete(`/v3/collectors/${made.id}`, { token: t.owner.token });
    expect(gone.status).toBe(200);
  }, 120_000);

  it('a Viewer sees it read-only; a stranger gets a 404 page; signed out goes to sign-in', async () => {
    const a = api(server);
    const wg = await a.workgroup(t.owner.token, 'Viewers', [t.admin.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const viewer = await newPage();
    await signInPage(viewer, server.url, t.admin, collectPath);
    expect(new URL(viewer.url()).pathname).toBe('/collect/list');
    expect(await viewer.getByText('does not allow changes').count()).toBe(1);
    expect(await viewer.locator('section.collector h2').textContent()).toBe(
      'Front <script>alert(1)</script> desk',
    );
    expect(await viewer.getByRole('button', { name: /Close|Open|Delete|Create/ }).count()).toBe(0);

    const signedOut = await newPage();
    await signedOut.goto(`${server.url}${collectPath}`);
    expect(new URL(signedOut.url()).pathname).toBe('/login');
    expect(new URL(signedOut.url()).searchParams.get('next')).toBe(collectPath);

    const stranger = await server.account();
    const p = await newPage();
    await signInPage(p, server.url, stranger);
    const res = await p.goto(`${server.url}${collectPath}`);
    expect(res?.status()).toBe(404);
    expect(await p.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
  });
});
