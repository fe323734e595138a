// The analyze page's Download form in a real browser: the file carries the page's filters and is
// read back with an independent reader (exceljs's workbook reader; csv-parse, strict).
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { downloaded, serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('analyze page download', () => {
  it('downloads XLSX and CSV of the filtered responses; a stranger gets not found', async () => {
    const a = await server.account();
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Download me',
        pages: [
          {
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Pick' }],
                answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
              },
              { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why' }] },
            ],
          },
        ],
      },
      { token: a.token },
    );
    const d = (await server.client.get(`/v3/surveys/${created.body.id}/details`, { token: a.token })).body;
    const [pick, why] = d.pages[0].questions;
    const collector = async (name: string) =>
      (
        await server.client.post(
          `/v3/surveys/${d.id}/collectors`,
          { type: 'weblink', name },
          { token: a.token },
        )
      ).body.id as string;
    const c1 = await collector('Site');
    const c2 = await collector('Mail');
    const answer = async (cid: string, choice: number, text: string) =>
      (
        await server.client.post(
          `/v3/collectors/${cid}/responses`,
          {
            pages: [
              {
                id: d.pages[0].id,
                questions: [
                  { id: pick.id, answers: [{ choice_id: pick.answers.choices[choice].id }] },
                  { id: why.id, answers: [{ text }] },
                ],
              },
            ],
          },
          { token: a.token },
        )
      ).body.id as string;
    const r1 = await answer(c1, 0, '=1+1');
    await answer(c2, 1, 'other collector');
    const r3 = await answer(c1, 1, 'plain');
    const survey = (await server.client.get(`/v3/surveys/${d.id}`, { token: a.token })).body;

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    try {
      await signInPage(page, server.url, a, survey.analyze_url);
      await page.goto(`${survey.analyze_url}?collector=${c1}`);
      const form = page.getByRole('form', { name: 'Download responses' });
      await form.getByLabel('File').selectOption('xlsx');
      await form.getByLabel('Numerical value').check();
      const [xlsx] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(xlsx.suggestedFilename()).toBe('Download_me.xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await downloaded(xlsx)) as never);
      const rows = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
      // exceljs rows are 1-based arrays
      expect(rows[0].slice(1)).toEqual([
        'Respondent ID',
        'Collector ID',
        'Start Date',
        'End Date',
        'IP Address',
        'Email Address',
        'First Name',
        'Last Name',
        'Custom Data 1',
        'Response Status',
        'Pick',
        'Why',
      ]);
      expect(rows[1].slice(11)).toEqual(['Response', 'Open-Ended Response', 'Sentiment']);
      expect(rows.slice(2).map((r) => [r[1], r[2], r[11], r[12]])).toEqual([
        [r1, c1, 1, "'=1+1"],
        [r3, c1, 2, 'plain'],
      ]);

      await page.goto(`${survey.analyze_url}?collector=${c1}`);
      await form.getByLabel('Byte order mark (Excel)').check();
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(csv.suggestedFilename()).toBe('Download_me.csv');
      const lines: string[][] = parse(await downloaded(csv), {
        bom: true,
        record_delimiter: '\r\n',
        relax_quotes: false,
        relax_column_count: false,
      });
      expect(lines.slice(2).map((l) => [l[0], l[10], l[11]])).toEqual([
        [r1, 'Yes', "'=1+1"],
        [r3, 'No', 'plain'],
      ]);

      const stranger = await server.account();
      await context.clearCookies();
      await signInPage(page, server.url, stranger);
      const res = await page.goto(`${survey.analyze_url}/export?format=csv`);
      expect(res?.status()).toBe(404);
    } finally {
      await context.close();
    }
  });
});
