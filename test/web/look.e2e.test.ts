// A survey's look, embedding and sharing in a real browser: the owner sets a custom theme with a
// logo on the theme page; the respondent page wears it (axe clean, 1280 and 390 px); the collect
// page shows the QR code and snippets; a test host page on another port puts the themed survey
// inline (resized to its content) and in a popup through /embed.js, and a collector that lists
// no origins is refused in a frame.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage, screenshot } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let browser: Browser;
let owner: TestAccount;
let host: Server;
let hostUrl: string;
let survey: { id: string; edit_url: string; collect_url: string };
let framed: { id: string; url: string };
let unframed: { id: string; url: string };
const pages: Record<string, string> = {};

async function newPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account();
  const tk = { token: owner.token };
  survey = (
    await server.client.post(
      '/v3/surveys',
      {
        title: 'Garden centre feedback',
        pages: [
          {
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'How was your visit?' }],
                answers: { choices: [{ text: 'Great' }, { text: 'Fine' }, { text: 'Poor' }] },
              },
              {
                family: 'open_ended',
                subtype: 'essay',
                headings: [{ heading: 'What should we grow next?' }],
              },
            ],
          },
        ],
      },
      tk,
    )
  ).body;
  host = createServer((req, res) => {
    res.writeHead(pages[req.url ?? ''] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages[req.url ?? ''] ?? 'not found');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  framed = (await server.client.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink' }, tk)).body;
  unframed = (await server.client.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink' }, tk)).body;
  const set = await server.client.patch(`/v3/collectors/${framed.id}`, { embed_origins: [hostUrl] }, tk);
  expect(set.status, set.text).toBe(200);
  const shell = (body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Garden centre</title></head><body style="font-family:sans-serif;margin:0;padding:16px;background:#eef3ea"><main><h1>Green Thumb Garden Centre</h1><p>Thanks for visiting. Tell us how it went:</p>${body}<p>Opening hours: 9 to 6.</p></main></body></html>`;
  pages['/inline'] = shell(
    `<script src="${server.url}/embed.js" data-survey="${framed.url}" data-title="Visit survey"></script>`,
  );
  pages['/popup'] = shell(
    `<script src="${server.url}/embed.js" data-survey="${framed.url}" data-mode="popup" data-button="Take our survey" data-title="Visit survey"></script>`,
  );
  pages['/refused'] = shell(
    `<iframe id="f" src="${unframed.url}" title="Survey" width="600" height="400"></iframe>`,
  );
}, 60_000);
afterAll(async () => {
  await releaseBrowser(browser);
  await new Promise((resolve) => host?.close(resolve));
  await server?.close();
});

describe('look, embed and share', () => {
  it('the owner sets a custom theme with a logo; the theme page passes its checks', async () => {
    const page = await newPage();
    const themePath = `/create/theme?sm=${new URL(survey.edit_url).searchParams.get('sm')}`;
    await signInPage(page, server.url, owner, themePath);
    await page.getByLabel('Primary colour').fill('#6a1b9a');
    await page.getByLabel('Background colour').fill('#fdf8ff');
    await page.getByLabel('Text colour').fill('#211a24');
    await page.getByLabel('Font').selectOption('serif');
    await page.getByLabel('Pill').check();
    await page.getByLabel(/^Logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Save theme' }).click()]);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('The theme was saved');
    await checkPage(page, 'theme-page');
    // A refused pair says why, beside the form.
    await page.getByLabel('Text colour').fill('#bbbbbb');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Save theme' }).click()]);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('text_color: its contrast');
  });

  it('the respondent page wears the theme, axe clean at both widths', async () => {
    const page = await newPage();
    await page.goto(framed.url);
    const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(bg).toBe('rgb(253, 248, 255)');
    await expect(page.locator('header.respondent img.survey-logo').count()).resolves.toBe(1);
    await checkPage(page, 'themed-respondent');
  });

  it('the collect page shows the QR code, download buttons and embed snippets', async () => {
    const page = await newPage();
    await signInPage(
      page,
      server.url,
      owner,
      new URL(survey.collect_url).pathname + new URL(survey.collect_url).search,
    );
    await page.locator('details.share summary').first().click();
    await expect(
      page
        .locator('details.share img')
        .first()
        .evaluate((img: any) => img.complete && img.naturalWidth),
    ).resolves.toBeGreaterThan(0);
    await checkPage(page, 'collect-share');
  });

  it('a host page on another origin shows the themed survey inline, resized to its content', async () => {
    const page = await newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${hostUrl}/inline`);
      const frame = page.frameLocator('iframe[title="Visit survey"]');
      await expect(frame.locator('h1').textContent()).resolves.toBe('Garden centre feedback');
      await page.waitForFunction("parseInt(document.querySelector('iframe').style.height) !== 480");
      await screenshot(page, `embed-inline-${width}`);
    }
  });

  it('and in a popup opened by a button; a collector without allowed origins is refused', async () => {
    const page = await newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${hostUrl}/popup`);
      await page.getByRole('button', { name: 'Take our survey' }).click();
      const dialog = page.getByRole('dialog', { name: 'Visit survey' });
      await expect(dialog.isVisible()).resolves.toBe(true);
      await expect(page.frameLocator('iframe').locator('h1').textContent()).resolves.toBe(
        'Garden centre feedback',
      );
      await screenshot(page, `embed-popup-${width}`, false);
      await page.keyboard.press('Escape');
      await expect(dialog.count()).resolves.toBe(0);
    }
    await page.goto(`${hostUrl}/refused`);
    await page.waitForTimeout(500);
    const inside = page.frames().find((f) => f !== page.mainFrame());
    const title = await inside
      ?.evaluate('document.querySelector("h1") && document.querySelector("h1").textContent')
      .catch(() => null);
    expect(title ?? null).not.toBe('Garden centre feedback');
  });
});
