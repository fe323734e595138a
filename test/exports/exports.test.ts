// Response exports through the API: every produced file is opened with an independent reader
// (csv-parse with its strict options; exceljs's workbook reader for XLSX) and every cell is
// compared with the answers the API returns (bulk responses and the survey's details).
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue } from '../../src/outbox/claim.js';
import { pruneOnce } from '../../src/outbox/retention.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { createEveryFamilySurvey, prng, randomAnswers } from '../collect/fixtures.js';
import { errorCode } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

const clock = new TestClock('2026-03-01T10:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'exports-'));
let server: TestServer;
let token: string;
let details: any;
let collectorId: string;
let sent: any[];

// Exports of more than 3 responses go to the worker.
beforeAll(async () => {
  server = await startServer({ clock, env: { EXPORT_DIR: dir, EXPORT_SYNC_MAX_RESPONSES: '3' } });
  const a = await server.account();
  token = a.token;
  details = await createEveryFamilySurvey(server.client, token, 'Export = test');
  const c = await server.client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink' }, { token });
  collectorId = c.body.id;
  const r = prng(7);
  const bodies: any[] = [1, 2, 3].map((n) => ({
    pages: randomAnswers(details, r, n),
    custom_value: `c${n}`,
  }));
  // formula-like text in answers and respondent fields
  const formula = randomAnswers(details, r, 4);
  const nick = details.pages[2].questions[0];
  const numbers = details.pages[2].questions[3];
  // and a line break inside a field (RFC 4180 quotes it)
  const essay = details.pages[2].questions.find((q: any) => q.headings[0].heading === 'Tell us more');
  // and formulas after the separators of semicolon and tab locales (quoted, so one cell)
  const words = details.pages[2].questions.find((q: any) => q.headings[0].heading === 'Two words');
  formula[2].questions = formula[2].questions.map((q: any) =>
    q.id === nick.id
      ? { id: q.id, answers: [{ text: '=HYPERLINK("http://evil","x")' }] }
      : q.id === numbers.id
        ? { id: q.id, answers: [{ row_id: numbers.answers.rows[0].id, text: '-5' }] }
        : q.id === essay.id
          ? { id: q.id, answers: [{ text: 'two\nlines' }] }
          : q.id === words.id
            ? {
                id: q.id,
                answers: [
                  { row_id: words.answers.rows[0].id, text: 'a;=1+1' },
                  { row_id: words.answers.rows[1].id, text: 'b\t=2+2' },
                ],
              }
            : q,
  );
  bodies.push({
    pages: formula,
    custom_value: '@SUM(A1)',
  });
  sent = [];
  for (const b of bodies) {
    clock.advance(60_000);
    const res = await server.client.post(`/v3/collectors/${collectorId}/responses`, b, { token });
    expect(res.status, res.text).toBe(201);
    sent.push(res.body);
  }
});
afterAll(() => server?.close());

const neutral = (s: string) => (/^[=+\-@\t\r]/.test(s) && !/^[-+]?\d+(\.\d+)?$/.test(s) ? `'${s}` : s);
const plain = (s: string) => s.replace(/<[^>]*>/g, '');

/** The expected sheet: header rows from the design, one row per response from the API's answers. */
async function expectedSheet(numeric: boolean): Promise<string[][]> {
  const head1 = [
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
  ];
  const head2 = head1.map(() => '');
  const at = new Map<string, number>(); // question|detail → column
  const add = (q: any, first: boolean, detail: string) => {
    at.set(`${q.id}|${detail}`, head1.length);
    head1.push(first ? plain(q.headings[0].heading) : '');
    head2.push(detail);
  };
  for (const p of details.pages)
    for (const q of p.questions) {
      const a = q.answers ?? {};
      const dets: string[] = [];
      const rowText = (r: any) => r.text || r.type;
      if (q.family === 'presentation') continue;
      if (q.family === 'single_choice') dets.push('Response');
      else if (q.family === 'multiple_choice') for (const c of a.choices) dets.push(c.text);
      else if (q.family === 'matrix')
        for (const r of a.rows) {
          if (q.subtype === 'menu') for (const col of a.cols) dets.push(`${r.text} - ${col.text}`);
          else if (q.subtype === 'multi') for (const c of a.choices) dets.push(`${r.text} - ${c.text}`);
          else dets.push(r.text);
        }
      else if (q.family === 'open_ended' && !['multi', 'numerical'].includes(q.subtype))
        dets.push('Open-Ended Response');
      else for (const r of a.rows) dets.push(rowText(r));
      if (a.other) dets.push(a.other.text);
      dets.forEach((d, i) => {
        add(q, i === 0, d);
      });
    }
  const bulk = await server.client.get(`/v3/surveys/${details.id}/responses/bulk?per_page=100`, { token });
  const questions = new Map(details.pages.flatMap((p: any) => p.questions.map((q: any) => [q.id, q])));
  const rows = bulk.body.data.map((resp: any) => {
    const cells = new Array(head1.length).fill('');
    const date = (d: string) => `${d.slice(0, 10)} ${d.slice(11, 19)}`;
    cells.splice(
      0,
      10,
      resp.id,
      resp.collector_id,
      date(resp.date_created),
      date(resp.date_modified),
      resp.ip_address,
      neutral(resp.email_address),
      neutral(resp.first_name),
      neutral(resp.last_name),
      neutral(resp.custom_value),
      resp.response_status,
    );
    for (const p of resp.pages)
      for (const qa of p.questions) {
        const q: any = questions.get(qa.id);
        const a0 = q.answers ?? {};
        for (const a of qa.answers) {
          const row = a0.rows?.find((r: any) => r.id === a.row_id);
          const col = a0.cols?.find((c: any) => c.id === a.col_id);
          const choice = (col?.choices ?? a0.choices ?? []).find((c: any) => c.id === a.choice_id);
          let detail: string;
          if (a.other_id) detail = a0.other.text;
          else if (q.family === 'single_choice') detail = 'Response';
          else if (q.family === 'multiple_choice') detail = choice.text;
          else if (q.family === 'matrix' && q.subtype === 'menu') detail = `${row.text} - ${col.text}`;
          else if (q.family === 'matrix' && q.subtype === 'multi') detail = `${row.text} - ${choice.text}`;
          else if (row) detail = row.text || row.type;
          else detail = 'Open-Ended Response';
          const value = choice
            ? numeric
              ? String(choice.weight ?? choice.position)
              : choice.text
            : numeric && q.subtype === 'numerical'
              ? String(Number(a.text))
              : neutral(a.text);
          const i = at.get(`${q.id}|${detail}`);
          expect(i, `${q.id}|${detail}`).toBeDefined();
          cells[i!] = value;
        }
      }
    return cells;
  });
  return [head1.map(neutral), head2.map(neutral), ...rows];
}

async function download(url: string): Promise<{ status: number; type: string; body: Buffer }> {
  const res = await fetch(url.replace(/^http:\/\/localhost/, server.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** The sheet without its Sentiment columns (their cells are tested in test/collect/sentiment.test.ts). */
const withoutSentiment = (rows: string[][]): string[][] => {
  const drop = new Set((rows[1] ?? []).flatMap((d, i) => (d === 'Sentiment' ? [i] : [])));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)));
};

const strictCsv = (buf: Buffer): string[][] =>
  withoutSentiment(
    parse(buf, {
      bom: true,
      record_delimiter: '\r\n',
      relax_quotes: false,
      relax_column_count: false,
      skip_empty_lines: false,
    }),
  );

async function readXlsx(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const ws = wb.worksheets[0];
  const out: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= ws.columnCount; i++) {
      const v = row.getCell(i).value;
      cells.push(
        v === null || v === undefined
          ? ''
          : v instanceof Date
            ? `${v.toISOString().slice(0, 10)} ${v.toISOString().slice(11, 19)}`
            : String(v),
      );
    }
    out.push(cells);
  });
  return withoutSentiment(out);
}

const startExport = (body: Record<string, unknown>, t = token) =>
  server.client.post(`/v3/surveys/${details.id}/exports`, body, { token: t });

async function runWorker() {
  const worker = new OutboxWorker(server.deps, { clock });
  await worker.drain();
  await worker.exportsSettled();
  await worker.stop();
}

describe('exports', () => {
  it('writes CSV (with a BOM) in a background job whose every cell matches the API', async () => {
    const res = await startExport({ format: 'csv', bom: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'pending',
      progress: { done: 0, total: 4 },
      download_url: null,
    });
    const early = await download(`${res.body.href}/file`);
    expect(early.status).toBe(409);
    await runWorker();
    const job = await server.client.get(res.body.href.replace('http://localhost', ''), { token });
    expect(job.body).toMatchObject({ status: 'completed', progress: { done: 4, total: 4, percent: 100 } });
    const file = await download(job.body.download_url);
    expect(file.status).toBe(200);
    expect(file.type).toContain('text/csv');
    expect(file.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const got = strictCsv(file.body);
    const want = await expectedSheet(false);
    expect(got).toEqual(want);
    // the formula-like cells are neutralised, a plain negative number is not
    const last = got.at(-1)!;
    expect(last).toContain(`'=HYPERLINK("http://evil","x")`);
    expect(last).toContain(`'@SUM(A1)`);
    expect(last).toContain('-5');
    expect(file.body.toString()).toContain('"two\nlines"');
    // a cell holding `;` or a tab is quoted: Excel in a semicolon locale keeps it one text cell
    expect(file.body.toString()).toContain(',"a;=1+1","b\t=2+2"');
  });

  it('writes a small XLSX at once, numeric values, with the same filters as the pages', async () => {
    const res = await startExport({
      format: 'xlsx',
      values: 'numeric',
      collector_ids: [collectorId],
      end_created_at: sent[2].date_created,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'completed', progress: { total: 3, done: 3 } });
    const file = await download(res.body.download_url);
    expect(file.type).toContain('spreadsheetml');
    const got = await readXlsx(file.body);
    const want = await expectedSheet(true);
    expect(got).toEqual(want.slice(0, 5));
  });

  it('takes over a job whose worker died, then deletes it after the retention time', async () => {
    const res = await startExport({ format: 'csv' });
    expect(res.status).toBe(202);
    // a worker claims it and dies
    const claim = await claimDue(server.deps, 'exports', 1, clock.now());
    expect(claim.ids).toEqual([res.body.id]);
    const path = res.body.href.replace('http://localhost', '');
    await runWorker();
    expect((await server.client.get(path, { token })).body.status).toBe('running');
    clock.advance(server.config.outbox.leaseSeconds * 1000 + 1000);
    await runWorker();
    const job = await server.client.get(path, { token });
    expect(job.body.status).toBe('completed');
    expect(strictCsv((await download(job.body.download_url)).body)).toEqual(await expectedSheet(false));
    expect(readdirSync(dir)).toContain(`${res.body.id}.csv`);
    clock.advance(server.config.exports.retentionHours * 3_600_000 + 1000);
    // The worker's retention pass (once a minute, and `worker --once`).
    await pruneOnce(server.deps);
    const gone = await server.client.get(path, { token });
    expect(gone.status).toBe(404);
    expect(readdirSync(dir)).not.toContain(`${res.body.id}.csv`);
  });

  it('writes the summary and an SPSS syntax file labelling the numeric codes', async () => {
    const summary = await startExport({
      format: 'summary',
      collector_ids: [collectorId],
      status: ['completed'],
    });
    expect(summary.status).toBe(202);
    await runWorker();
    const job = await server.client.get(summary.body.href.replace('http://localhost', ''), { token });
    const lines = strictCsv((await download(job.body.download_url)).body);
    expect(lines[0]).toEqual(['Question', 'Row', 'Answer', 'Responses', 'Percent', 'Answered', 'Skipped']);
    const rollups = await server.client.get(`/v3/surveys/${details.id}/rollups`, { token });
    const fruit = details.pages[0].questions[3];
    const roll = rollups.body.data.find((x: any) => x.id === fruit.id);
    for (const c of fruit.answers.choices) {
      const line = lines.find((l) => l[0] === 'Which fruit?' && l[2] === c.text)!;
      expect(line[3]).toBe(String(roll.summary[0].choices.find((x: any) => x.id === c.id).count));
    }
    await startExport({ format: 'spss' });
    await runWorker();
    const list = readdirSync(dir).filter((f) => f.endsWith('.sps'));
    expect(list.length).toBe(1);
    const sps = (
      await download(`http://localhost/v3/surveys/${details.id}/exports/${list[0].split('.')[0]}/file`)
    ).body.toString();
    expect(sps).toContain("/FILE='responses.csv'");
    const rating = details.pages[1].questions[2];
    expect(sps).toMatch(/VALUE LABELS[\s\S]*1 'Low' 2 'High'/);
    expect(sps).toContain(`'${rating.headings[0].heading}: Staff'`);
  });

  it('needs responses_read_detail and analyze access; the basic plan reads its first 25', async () => {
    const noScope = await server.account({ scopes: ['surveys_read', 'responses_read'] });
    const other = await server.account();
    expect(errorCode(await startExport({}, noScope.token))).toBe('1014');
    const foreign = await startExport({}, other.token);
    expect(foreign.status).toBe(404);
    const basic = await server.account();
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Small',
        pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] }] }],
      },
      { token: basic.token },
    );
    const d = await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: basic.token });
    const qid = d.body.pages[0].questions[0].id;
    const c = await server.client.post(
      `/v3/surveys/${s.body.id}/collectors`,
      { type: 'weblink' },
      { token: basic.token },
    );
    const post = (n: number) => {
      clock.advance(1000);
      return server.client.post(
        `/v3/collectors/${c.body.id}/responses`,
        { pages: [{ id: d.body.pages[0].id, questions: [{ id: qid, answers: [{ text: `a${n}` }] }] }] },
        { token: basic.token },
      );
    };
    for (let n = 0; n < 26; n++) expect((await post(n)).status).toBe(201);
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', basic.user.id)
      .execute();
    const exp = (body: object) =>
      server.client.post(`/v3/surveys/${s.body.id}/exports`, body, { token: basic.token });
    const refused = await exp({});
    expect(refused.status).toBe(402);
    expect(errorCode(refused)).toBe('1005');
    // a selection within the first 25 is allowed
    const first = (
      await server.client.get(`/v3/surveys/${s.body.id}/responses/bulk?per_page=25`, { token: basic.token })
    ).body.data;
    const allowed = await exp({ end_created_at: first[24].date_created, format: 'xlsx' });
    expect(allowed.status).toBe(202);
    expect(allowed.body.progress.total).toBe(25);
  });

  it('is documented in /v3/openapi.json', async () => {
    const doc = await server.client.get('/v3/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v3/surveys/{survey_id}/exports',
        '/v3/surveys/{survey_id}/exports/{export_id}',
        '/v3/surveys/{survey_id}/exports/{export_id}/file',
      ]),
    );
  });
});
