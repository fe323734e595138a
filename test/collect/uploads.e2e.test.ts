// A file-upload question answered in a real browser at a phone's width: a refused file comes back
// with the question's message, an accepted one finishes the survey, and the owner downloads it by
// its name from the response's page.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { downloaded, serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

describe('a file upload on the respondent page', () => {
  it('refuses a wrong file at its question, keeps a right one, and the owner downloads it', async () => {
    const owner = await server.account({ plan: 'premier' });
    const tk = { token: owner.token };
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Expense claim',
        pages: [
          {
            questions: [
              {
                family: 'open_ended',
                subtype: 'single',
                headings: [{ heading: 'Attach your receipt' }],
                display_options: { display_type: 'file_upload' },
                required: { text: 'Please attach the receipt.', type: 'all', amount: '0' },
              },
            ],
          },
        ],
      },
      tk,
    );
    expect(s.status, s.text).toBe(201);
    const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, tk);
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(c.body.url.replace('http://localhost', server.url));
      const input = page.getByLabel('Attach your receipt');
      await checkPage(page, 'upload-question');

      // the wrong kind of file: refused by the server, at the question
      await input.setInputFiles({ name: 'receipt.exe', mimeType: 'application/octet-stream', buffer: PDF });
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.locator('.question .error').textContent()).toMatch(
        /Files of this type are not accepted/,
      );
      await checkPage(page, 'upload-refused');

      await page.getByLabel('Attach your receipt').setInputFiles({
        name: 'receipt.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('.thank-you').waitFor();

      // the owner's response page: the file's name, downloading the file
      await signInPage(page, server.url, owner);
      const list = await server.client.get(`/v3/surveys/${s.body.id}/responses`, tk);
      const manage = new URL(
        (await server.client.get(`/v3/surveys/${s.body.id}/details`, tk)).body.analyze_url,
      ).pathname;
      await page.goto(`${server.url}${manage}/responses/${list.body.data[0].id}`);
      const link = page.getByRole('link', { name: 'receipt.pdf' });
      await checkPage(page, 'upload-response');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('receipt.pdf');
      expect((await downloaded(download)).equals(PDF)).toBe(true);
    } finally {
      await page.close();
    }
  });
});
