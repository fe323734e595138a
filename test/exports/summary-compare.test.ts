// The summary export compared by a question: each
// summary line gets, per answer of the compare question, the count and percent within the responses
// that gave it — CSV and XLSX, through the API (compare_question_id) and the analyze page's download
// form (which carries the page's `compare` and filter). Number questions get their minimum, maximum,
// mean and median per group. Checked cell by cell.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { runCliAsync } from '../helpers/cli.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { seedOfficeMove } from '../web/fixtures.js';

let server: TestServer;
let owner: TestAccount;
let surveyId: string;
let analyze: string;
let q: { floor: string; drink: string; age: string };

/** Eight responses: floor alternates ground/top; drink is tea for i < 3, coffee otherwise; age 20 + 5i. */
beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  const seeded = await seedOfficeMove(server, owner, { questions: ['floor', 'drink', 'age'], responses: 8 });
  surveyId = seeded.surveyId;
  q = seeded.q;
  analyze = seeded.analyze;
});
afterAll(async () => {
  await server?.close();
});

async function apiExport(body: Record<string, unknown>): Promise<Buffer> {
  const res = await server.client.post(`/v3/surveys/${surveyId}/exports`, body, { token: owner.token });
  expect(res.status, res.text).toBe(201);
  expect(res.body.compare_question_id).toBe(body.compare_question_id ?? null);
  const file = await fetch(res.body.download_url.replace('http://localhost', server.url), {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

const readCsv = (buf: Buffer | string): string[][] => parse(buf, { bom: true, record_delimiter: '\r\n' });

async function readXlsx(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const out: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= ws.columnCount; i++) {
      const v = row.getCell(i).value;
      cells.push(v === null || v === undefined ? '' : String(v));
    }
    out.push(cells);
  });
  return out;
}

/** Every cell of the summary of all eight responses compared by floor. */
const COMPARED = [
  [
    'Question',
    'Row',
    'Answer',
    'Responses',
    'Percent',
    'Answered',
    'Skipped',
    'Ground floor: Responses',
    'Ground floor: Percent',
    'Top floor: Responses',
    'Top floor: Percent',
  ],
  ['Compared by: Which floor?', '', 'Responses in the group', '8', '100', '', '', '4', '50', '4', '50'],
  ['Which floor?', '', 'Ground floor', '4', '50', '8', '0', '', '', '', ''],
  ['Which floor?', '', 'Top floor', '4', '50', '8', '0', '', '', '', ''],
  // tea: i = 0, 1, 2 → ground 0 and 2 (2 of 4), top 1 (1 of 4)
  ['Which drink?', '', 'Tea', '3', '37.5', '8', '0', '2', '50', '1', '25'],
  ['Which drink?', '', 'Coffee', '5', '62.5', '8', '0', '2', '50', '3', '75'],
  ['Your age', 'Age', '', '8', '100', '8', '0', '4', '100', '4', '100'],
  // ages 20 + 5i: ground 20, 30, 40, 50; top 25, 35, 45, 55
  ['Your age', 'Age', 'Minimum', '20', '', '8', '0', '20', '', '25', ''],
  ['Your age', 'Age', 'Maximum', '55', '', '8', '0', '50', '', '55', ''],
  ['Your age', 'Age', 'Mean', '37.5', '', '8', '0', '35', '', '40', ''],
  ['Your age', 'Age', 'Median', '37.5', '', '8', '0', '35', '', '40', ''],
];

describe('summary export compared by a question', () => {
  it('writes the counts and percents per group in the CSV (API)', async () => {
    expect(readCsv(await apiExport({ format: 'summary', compare_question_id: q.floor }))).toEqual(COMPARED);
  });

  it('writes the same cells in the XLSX summary (API)', async () => {
    expect(await readXlsx(await apiExport({ format: 'summary_xlsx', compare_question_id: q.floor }))).toEqual(
      COMPARED,
    );
    // Without a compare question: the plain summary's seven columns.
    const plain = await readXlsx(await apiExport({ format: 'summary_xlsx' }));
    expect(plain).toEqual(COMPARED.filter((_, i) => i !== 1).map((line) => line.slice(0, 7)));
  });

  it('the CLI writes the same compared summary (--compare) and refuses an unfit question', {
    timeout: 120_000,
  }, async () => {
    const env = {
      DATABASE_URL: server.config.databaseUrl,
      SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    };
    const xlsxFile = join(mkdtempSync(join(tmpdir(), 'summary-compare-')), 'summary.xlsx');
    const [csv, xlsx, unfit] = await Promise.all([
      runCliAsync(['export', '--survey', surveyId, '--format', 'summary', '--compare', q.floor], env),
      runCliAsync(
        ['export', '--survey', surveyId, '--format', 'summary_xlsx', '--compare', q.floor, '--to', xlsxFile],
        env,
      ),
      runCliAsync(['export', '--survey', surveyId, '--format', 'summary', '--compare', q.age], env),
    ]);
    expect(csv.status, csv.stderr).toBe(0);
    expect(readCsv(csv.stdout)).toEqual(COMPARED);
    expect(xlsx.status, xlsx.stderr).toBe(0);
    expect(await readXlsx(readFileSync(xlsxFile))).toEqual(COMPARED);
    expect(unfit.status).not.toBe(0);
    expect(unfit.stderr).toContain('compare_question_id');
  });

  it('refuses a compare question that is not a choice question, or with a non-summary format', async () => {
    for (const body of [
      { format: 'summary', compare_question_id: q.age },
      { format: 'summary', compare_question_id: '999999' },
      { format: 'csv', compare_question_id: q.floor },
    ]) {
      const res = await server.client.post(`/v3/surveys/${surveyId}/exports`, body, { token: owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
      expect(res.body.error.message).toContain('compare_question_id');
    }
  });

  it('the analyze page download carries the compare and the filter', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?compare=${q.floor}&min_${q.age}=30`);
    const form = /<form class="filters" method="get" action="[^"]*\/export"[\s\S]*?<\/form>/.exec(
      page.text,
    )?.[0];
    expect(form).toContain(`<input type="hidden" name="compare" value="${q.floor}">`);
    expect(form).toContain(`<input type="hidden" name="min_${q.age}" value="30">`);
    expect(form).toContain('<option value="summary_xlsx">');
    // What the form sends: age ≥ 30 → i = 2 … 7: ground 2, 4, 6 (tea: 2), top 3, 5, 7.
    const csv = await web.get(`${analyze}/export?format=summary&compare=${q.floor}&min_${q.age}=30`);
    expect(csv.status).toBe(200);
    const lines = readCsv(csv.text);
    expect(lines[1]).toEqual([
      'Compared by: Which floor?',
      '',
      'Responses in the group',
      '6',
      '100',
      '',
      '',
      '3',
      '50',
      '3',
      '50',
    ]);
    expect(lines[4]).toEqual(['Which drink?', '', 'Tea', '1', '16.67', '6', '0', '1', '33.33', '0', '0']);
    expect(lines[5]).toEqual([
      'Which drink?',
      '',
      'Coffee',
      '5',
      '83.33',
      '6',
      '0',
      '2',
      '66.67',
      '3',
      '100',
    ]);
    // The number question's figures per group under the filter (ground 30, 40, 50; top 35, 45, 55).
    expect(lines.slice(7, 11)).toEqual([
      ['Your age', 'Age', 'Minimum', '30', '', '6', '0', '30', '', '35', ''],
      ['Your age', 'Age', 'Maximum', '55', '', '6', '0', '50', '', '55', ''],
      ['Your age', 'Age', 'Mean', '42.5', '', '6', '0', '40', '', '45', ''],
      ['Your age', 'Age', 'Median', '42.5', '', '6', '0', '40', '', '45', ''],
    ]);
    // A group nobody in the filter is in (age ≥ 51: only i = 7, top floor): its figures are empty.
    const one = readCsv(
      (await web.get(`${analyze}/export?format=summary&compare=${q.floor}&min_${q.age}=51`)).text,
    );
    expect(one.slice(6)).toEqual([
      ['Your age', 'Age', '', '1', '100', '1', '0', '0', '0', '1', '100'],
      ['Your age', 'Age', 'Minimum', '55', '', '1', '0', '', '', '55', ''],
      ['Your age', 'Age', 'Maximum', '55', '', '1', '0', '', '', '55', ''],
      ['Your age', 'Age', 'Mean', '55', '', '1', '0', '', '', '55', ''],
      ['Your age', 'Age', 'Median', '55', '', '1', '0', '', '', '55', ''],
    ]);
    // An unfit compare (a number question) is ignored by the page: the plain summary.
    const plain = readCsv((await web.get(`${analyze}/export?format=summary&compare=${q.age}`)).text);
    expect(plain[0]).toHaveLength(7);
  });
});
