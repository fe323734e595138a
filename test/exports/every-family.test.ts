// Every question family and subtype (and display type: stars, 0–10, slider, image choice, file
// upload) answered, exported as CSV, XLSX, SPSS and summary, text and numeric values: each cell is
// compared with the API's answer (bulk responses) and the choice counts with the analyze rollups.
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

const clock = new TestClock('2026-03-01T10:00:00Z');
let server: TestServer;
let token: string;
let details: any;
let bulk: any[];

const H = (heading: string) => [{ heading }];
const C = (...texts: string[]) => texts.map((text) => ({ text }));
const pages = [
  {
    questions: [
      { family: 'presentation', subtype: 'descriptive_text', headings: H('Hello') },
      ...['vertical', 'horiz', 'menu', 'vertical_two_col', 'vertical_three_col'].map((subtype) => ({
        family: 'single_choice',
        subtype,
        headings: H(`Single ${subtype}`),
        answers: {
          choices: C('Red', 'Blue'),
          ...(subtype === 'vertical' ? { other: [{ text: 'Else' }] } : {}),
        },
      })),
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Single image'),
        display_options: { display_type: 'image_choice' },
        answers: {
          choices: [
            { text: 'Cat', image: { url: 'https://example.com/cat.png' } },
            { text: 'Dog', image: { url: 'https://example.com/dog.png' } },
          ],
        },
      },
      ...['vertical', 'horiz', 'vertical_two_col', 'vertical_three_col'].map((subtype) => ({
        family: 'multiple_choice',
        subtype,
        headings: H(`Multi ${subtype}`),
        answers: { choices: C('Apple', 'Pear', 'Plum') },
      })),
      {
        family: 'matrix',
        subtype: 'single',
        headings: H('Matrix single'),
        answers: { rows: C('Food', 'Staff'), choices: C('Bad', 'Good') },
      },
      {
        family: 'matrix',
        subtype: 'rating',
        headings: H('Matrix rating'),
        answers: {
          rows: C('Speed'),
          choices: [
            { text: 'Low', weight: 1 },
            { text: 'High', weight: 5 },
          ],
        },
      },
      {
        family: 'matrix',
        subtype: 'rating',
        headings: H('Stars'),
        display_options: { display_type: 'emoji', display_subtype: 'star' },
        answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
      },
      {
        family: 'matrix',
        subtype: 'rating',
        headings: H('Recommend'),
        answers: {
          rows: [{ text: '' }],
          choices: [...Array(11).keys()].map((weight) => ({ text: '', weight })),
        },
      },
      {
        family: 'matrix',
        subtype: 'ranking',
        headings: H('Rank'),
        answers: { rows: C('A', 'B'), choices: [{ text: '1' }, { text: '2' }] },
      },
      {
        family: 'matrix',
        subtype: 'menu',
        headings: H('Matrix menu'),
        answers: { rows: C('Mon'), cols: [{ text: 'Meal', choices: C('Soup', 'Salad') }] },
      },
      {
        family: 'matrix',
        subtype: 'multi',
        headings: H('Matrix multi'),
        answers: { rows: C('Home'), choices: C('Wifi', 'TV') },
      },
      { family: 'open_ended', subtype: 'single', headings: H('Nickname') },
      {
        family: 'open_ended',
        subtype: 'single',
        headings: H('Slider'),
        display_options: { display_type: 'slider' },
      },
      {
        family: 'open_ended',
        subtype: 'single',
        headings: H('Upload'),
        display_options: { display_type: 'file_upload' },
      },
      { family: 'open_ended', subtype: 'essay', headings: H('Essay') },
      {
        family: 'open_ended',
        subtype: 'multi',
        headings: H('Two words'),
        answers: { rows: C('One', 'Two') },
      },
      { family: 'open_ended', subtype: 'numerical', headings: H('Numbers'), answers: { rows: C('Age') } },
      ...['us', 'international'].map((subtype) => ({
        family: 'demographic',
        subtype,
        headings: H(`Contact ${subtype}`),
        answers: { rows: [{ type: 'name' }, { type: 'city' }] },
      })),
      ...['both', 'date_only', 'time_only'].map((subtype) => ({
        family: 'datetime',
        subtype,
        headings: H(`When ${subtype}`),
        answers: { rows: C('At') },
      })),
    ],
  },
];

/** Answers to every question for response n (choices rotate with n). */
function answersFor(n: number) {
  return details.pages.map((p: any) => ({
    id: p.id,
    questions: p.questions
      .filter((q: any) => q.family !== 'presentation')
      .map((q: any) => {
        const a = q.answers ?? {};
        const nth = (xs: any[], k = 0) => xs[(n + k) % xs.length];
        let answers: any[];
        if (q.family === 'single_choice')
          answers =
            a.other && n === 2
              ? [{ other_id: a.other.id, text: 'my own' }]
              : [{ choice_id: nth(a.choices).id }];
        else if (q.family === 'multiple_choice')
          answers = [{ choice_id: nth(a.choices).id }, { choice_id: nth(a.choices, 1).id }];
        else if (q.family === 'matrix')
          answers = a.rows.flatMap((r: any, i: number) =>
            q.subtype === 'menu'
              ? a.cols.map((c: any) => ({ row_id: r.id, col_id: c.id, choice_id: nth(c.choices).id }))
              : q.subtype === 'multi'
                ? a.choices.map((c: any) => ({ row_id: r.id, choice_id: c.id }))
                : [{ row_id: r.id, choice_id: nth(a.choices, q.subtype === 'ranking' ? i : 0).id }],
          );
        else if (q.family === 'open_ended' && q.subtype !== 'single' && q.subtype !== 'essay')
          answers = a.rows.map((r: any, i: number) => ({
            row_id: r.id,
            text: q.subtype === 'numerical' ? String(20 + n + i) : `w${n}${i}`,
          }));
        else if (q.family === 'open_ended')
          answers = [
            { text: q.display_options?.display_type === 'slider' ? String(10 * n + 5) : `text ${n}` },
          ];
        else if (q.family === 'demographic')
          answers = a.rows.map((r: any) => ({ row_id: r.id, text: `${r.type} ${n}` }));
        else
          answers = a.rows.map((r: any) => ({
            row_id: r.id,
            text:
              q.subtype === 'time_only'
                ? `0${n + 1}:30 PM`
                : `0${n + 1}/1${n}/2020${q.subtype === 'both' ? ' 09:15 AM' : ''}`,
          }));
        return { id: q.id, answers };
      }),
  }));
}

beforeAll(async () => {
  server = await startServer({ clock, env: { EXPORT_SYNC_MAX_RESPONSES: '100' } });
  token = (await server.account()).token;
  const s = await server.client.post('/v3/surveys', { title: 'Families', pages }, { token });
  expect(s.status, s.text).toBe(201);
  details = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token })).body;
  const c = await server.client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink' }, { token });
  for (const [n, response_status] of ['completed', 'partial', 'disqualified'].entries()) {
    clock.advance(60_000);
    const r = await server.client.post(
      `/v3/collectors/${c.body.id}/responses`,
      { pages: answersFor(n), response_status },
      { token },
    );
    expect(r.status, r.text).toBe(201);
  }
  bulk = (await server.client.get(`/v3/surveys/${details.id}/responses/bulk?per_page=100`, { token })).body
    .data;
}, 60_000);
afterAll(() => server?.close());

async function exportFile(body: Record<string, unknown>): Promise<Buffer> {
  const res = await server.client.post(`/v3/surveys/${details.id}/exports`, body, { token });
  expect(res.status, res.text).toBe(201);
  const file = await fetch(res.body.download_url.replace('http://localhost', server.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

/** The sheet without its Sentiment columns (their cells are tested in test/collect/sentiment.test.ts). */
const withoutSentiment = (rows: string[][]): string[][] => {
  const drop = new Set((rows[1] ?? []).flatMap((d, i) => (d === 'Sentiment' ? [i] : [])));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)));
};

const readCsv = (buf: Buffer): string[][] =>
  withoutSentiment(parse(buf, { bom: true, record_delimiter: '\r\n' }));

async function readXlsx(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const ws = wb.worksheets[0];
  const out: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= ws.columnCount; i++) {
      const v = row.getCell(i).value;
      cells.push(v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v));
    }
    out.push(cells);
  });
  return withoutSentiment(out);
}

/** A choice as the test reads it: its text, or (textless) "4 stars" / "9". */
function choiceWords(q: any, c: any): string {
  if (c.text) return c.text;
  const w = c.weight ?? c.position;
  return q.display_options?.display_type === 'emoji' ? `${w} star${w === 1 ? '' : 's'}` : String(w);
}

/** The header and value the API's answer `a` to question `q` should give in the sheet. */
function expectedCell(q: any, a: any, numeric: boolean): { detail: string; value: string } {
  const x = q.answers ?? {};
  const row = x.rows?.find((r: any) => r.id === a.row_id);
  const col = x.cols?.find((c: any) => c.id === a.col_id);
  const choice = (col?.choices ?? x.choices ?? []).find((c: any) => c.id === a.choice_id);
  const rowWords = row ? row.text || row.type || 'Response' : '';
  let detail: string;
  if (a.other_id) detail = x.other.text;
  else if (q.family === 'single_choice') detail = 'Response';
  else if (q.family === 'multiple_choice') detail = choiceWords(q, choice);
  else if (q.family === 'matrix' && q.subtype === 'menu') detail = `${rowWords} - ${col.text}`;
  else if (q.family === 'matrix' && q.subtype === 'multi') detail = `${rowWords} - ${choiceWords(q, choice)}`;
  else if (row) detail = rowWords;
  else detail = 'Open-Ended Response';
  const numericText =
    q.family === 'open_ended' && (q.subtype === 'numerical' || q.display_options?.display_type === 'slider');
  const value = choice
    ? numeric
      ? String(choice.weight ?? choice.position)
      : choiceWords(q, choice)
    : numeric && numericText
      ? String(Number(a.text))
      : a.text;
  return { detail, value };
}

/** Checks every answer cell of `sheet` against the API's responses: no answer missing, no cell extra. */
function compareSheet(sheet: string[][], numeric: boolean) {
  const [head1, head2, ...rows] = sheet;
  expect(head1.slice(0, 10)).toEqual([
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
  ]);
  const questions = details.pages.flatMap((p: any) => p.questions);
  const byHeading = new Map(questions.map((q: any) => [q.headings[0].heading, q]));
  const column = new Map<string, number>(); // question id|detail → index
  let current: any;
  for (let i = 10; i < head1.length; i++) {
    if (head1[i]) current = byHeading.get(head1[i]);
    expect(current, `column ${i}: ${head1[i]}`).toBeDefined();
    column.set(`${current.id}|${head2[i]}`, i);
  }
  // every answerable question has its columns
  for (const q of questions.filter((x: any) => x.family !== 'presentation'))
    expect(head1, q.headings[0].heading).toContain(q.headings[0].heading);
  expect(rows.length).toBe(bulk.length);
  for (const resp of bulk) {
    const row = rows.find((r) => r[0] === resp.id)!;
    expect(row, resp.id).toBeDefined();
    expect(row[9]).toBe(resp.response_status);
    const want = new Map<number, string>();
    for (const p of resp.pages)
      for (const qa of p.questions) {
        const q = questions.find((x: any) => x.id === qa.id);
        for (const a of qa.answers) {
          const { detail, value } = expectedCell(q, a, numeric);
          const i = column.get(`${q.id}|${detail}`);
          expect(i, `${q.headings[0].heading} / ${detail}`).toBeDefined();
          want.set(i!, value);
        }
      }
    for (let i = 10; i < head1.length; i++)
      expect(row[i], `${resp.response_status}: column ${i} (${head1[i]} / ${head2[i]})`).toBe(
        want.get(i) ?? '',
      );
  }
}

describe('exports of every question family', () => {
  it('CSV and XLSX cells equal the API answers, text and numeric, with the response status', async () => {
    for (const values of ['text', 'numeric']) {
      compareSheet(readCsv(await exportFile({ format: 'csv', values })), values === 'numeric');
      compareSheet(await readXlsx(await exportFile({ format: 'xlsx', values })), values === 'numeric');
    }
  });

  it('the status filter selects by response_status', async () => {
    const sheet = readCsv(await exportFile({ format: 'csv', status: ['partial', 'disqualified'] }));
    expect(sheet.slice(2).map((r) => r[9])).toEqual(['partial', 'disqualified']);
  });

  it('star and 0–10 averages of the numeric export match the analyze rollups', async () => {
    const sheet = readCsv(await exportFile({ format: 'csv', values: 'numeric' }));
    const rollups = (await server.client.get(`/v3/surveys/${details.id}/rollups`, { token })).body.data;
    for (const heading of ['Stars', 'Recommend', 'Matrix rating']) {
      const q = details.pages[0].questions.find((x: any) => x.headings[0].heading === heading);
      const at = sheet[0].indexOf(heading);
      const cells = sheet.slice(2).map((r) => Number(r[at]));
      const row = rollups.find((x: any) => x.id === q.id).summary[0].rows[0];
      let sum = 0;
      let n = 0;
      for (const c of row.choices) {
        const choice = q.answers.choices.find((x: any) => x.id === c.id);
        sum += c.count * (choice.weight ?? choice.position);
        n += c.count;
      }
      expect(cells.length).toBe(n);
      expect(cells.reduce((s, v) => s + v, 0) / cells.length).toBeCloseTo(sum / n);
    }
  });

  it('the summary labels every choice line, counts equal to the rollups', async () => {
    const lines = readCsv(await exportFile({ format: 'summary' }));
    const rollups = (await server.client.get(`/v3/surveys/${details.id}/rollups`, { token })).body.data;
    for (const q of details.pages[0].questions.filter((x: any) => x.family !== 'presentation')) {
      const head = q.headings[0].heading;
      const mine = lines.filter((l) => l[0] === head);
      expect(mine.length, head).toBeGreaterThan(0);
      const s = rollups.find((x: any) => x.id === q.id).summary[0];
      for (const c of s.choices ?? []) {
        const choice = q.answers.choices.find((x: any) => x.id === c.id);
        const line = mine.find((l) => l[2] === choiceWords(q, choice));
        expect(line, `${head}: ${choiceWords(q, choice)}`).toBeDefined();
        expect(line![3]).toBe(String(c.count));
      }
      for (const r of s.rows ?? [])
        for (const c of r.choices ?? []) {
          const row = q.answers.rows.find((x: any) => x.id === r.id);
          const choice = q.answers.choices.find((x: any) => x.id === c.id);
          const line = mine.find(
            (l) => l[1] === (row.text || row.type || 'Response') && l[2] === choiceWords(q, choice),
          );
          expect(line, `${head}: ${row.text} ${choiceWords(q, choice)}`).toBeDefined();
          expect(line![3]).toBe(String(c.count));
        }
      // no line of a choice question without its answer's words
      if (['single_choice', 'multiple_choice', 'matrix'].includes(q.family))
        for (const l of mine) expect(l[2], `${head}: ${l.join(',')}`).not.toBe('');
    }
  });

  it('SPSS labels the status column and the star codes', async () => {
    const sps = (await exportFile({ format: 'spss' })).toString();
    expect(sps).toContain("response_status 'Response Status'");
    expect(sps).toMatch(/VALUE LABELS[\s\S]*1 '1 star' 2 '2 stars' 3 '3 stars' 4 '4 stars' 5 '5 stars'/);
    expect(sps).toMatch(/0 '0' 1 '1' 2 '2'/);
  });
});
