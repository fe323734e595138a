// The PDF report and the PowerPoint deck of the analyze page, through the exports API, the
// analyze page's report link (its filter and compare ride along) and the CLI. The PDF is read back by
// poppler (pdftotext for its words, pdffonts for the fonts it embeds), the deck by unzipping it
// (jszip) and counting its slides and chart parts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { runCliAsync } from '../helpers/cli.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type OfficeMove, seedOfficeMove } from '../web/fixtures.js';

let server: TestServer;
let owner: TestAccount;
let surveyId: string;
let analyze: string;
let q: OfficeMove['q'];
const dir = mkdtempSync(join(tmpdir(), 'report-'));

/** Eight responses: floor alternates ground/top; drink is tea for i < 3; age 20 + 5i; the last partial. */
beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  const seeded = await seedOfficeMove(server, owner, {
    questions: ['floor', 'drink', 'age', 'comment'],
    responses: 8,
    comment: (i) => (i % 2 ? 'Quiet rooms please' : 'More light and quiet'),
    status: (i) => (i === 7 ? 'partial' : 'completed'),
  });
  surveyId = seeded.surveyId;
  q = seeded.q;
  analyze = seeded.analyze;
});
afterAll(async () => {
  await server?.close();
});

async function apiExport(id: string, body: Record<string, unknown>): Promise<Buffer> {
  const res = await server.client.post(`/v3/surveys/${id}/exports`, body, { token: owner.token });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('completed');
  const file = await fetch(res.body.download_url.replace('http://localhost', server.url), {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

/** The PDF's text as poppler reads it, page layout kept (table rows stay on one line). */
function pdfText(pdf: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

function pdfFonts(pdf: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

/** A file the signed-in page session downloads (WebSession reads text only). */
async function download(web: Awaited<ReturnType<typeof signIn>>, path: string) {
  const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(path, server.url), { headers: { cookie } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A table row of the PDF: its cells in order, separated by spaces. */
const row = (...cells: string[]) =>
  new RegExp(cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));

describe('PDF report', () => {
  it('names every question with its counts and percentages, and the title page figures (API)', async () => {
    const pdf = await apiExport(surveyId, { format: 'pdf' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Office move');
    expect(text).toContain('All responses');
    for (const t of ['Q1. Which floor?', 'Q2. Which drink?', 'Q3. Your age', 'Q4. Anything else?'])
      expect(text).toContain(t);
    expect(text).toMatch(row('Total', '8'));
    expect(text).toMatch(row('Completed', '7'));
    expect(text).toMatch(row('Partial', '1'));
    expect(text).toMatch(row('Completion rate', '87.5%'));
    expect(text).toMatch(/Median time to complete\s+\d+ ?s/);
    // where respondents stopped: the partial response was left on page 1
    expect(text).toMatch(row('Stopped on page 1', '1', '12.5%'));
    expect(text).toMatch(row('Finished', '7', '87.5%'));
    expect(text).toMatch(row('Ground floor', '4', '50%'));
    expect(text).toMatch(row('Top floor', '4', '50%'));
    expect(text).toMatch(row('Tea', '3', '37.5%'));
    expect(text).toMatch(row('Coffee', '5', '62.5%'));
    expect(text).toMatch(row('Mean', '37.5'));
    expect(text).toContain('Minimum 20, maximum 55, mean 37.5, median 37.5');
    expect(text).toContain('Most used words');
    expect(text).toMatch(/quiet \(8\)/);
    expect(text).toContain('Quiet rooms please');
    expect(pdfFonts(pdf)).toMatch(/NotoSans-Regular/);
  });

  it('the analyze page links a report of the page as it stands: its filter and compare', async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`${analyze}?compare=${q.floor}&min_${q.age}=30`);
    const href = /<a href="([^"]+)" id="report-pdf">/.exec(page.text)?.[1].replaceAll('&amp;', '&');
    expect(href).toContain(`min_${q.age}=30`);
    expect(href).toContain(`compare=${q.floor}`);
    expect(page.text).toContain('id="median-time"');
    const { res, bytes } = await download(web, href ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('Office_move_report.pdf');
    const text = pdfText(bytes);
    // age ≥ 30 → i = 2 … 7: ground 2, 4, 6 (tea: 2), top 3, 5, 7
    expect(text).toContain('“Your age” at least 30');
    expect(text).toContain('Compared by “Which floor?”: Ground floor (3), Top floor (3)');
    expect(text).toMatch(row('Total', '6'));
    expect(text).toMatch(row('Tea', '1', '16.67%', '1 (33.33%)', '0 (0%)'));
    expect(text).toMatch(row('Coffee', '5', '83.33%', '2 (66.67%)', '3 (100%)'));
    // a filter on a choice, in words
    const drank = await download(web, `${analyze}/export?format=pdf&a=${q.drink}:${q.tea}`);
    const tea = pdfText(drank.bytes);
    expect(tea).toContain('“Which drink?” answered “Tea”');
    expect(tea).toMatch(row('Total', '3'));
    expect(tea).toMatch(row('Ground floor', '2', '66.67%'));
  });

  it('sets Greek, Cyrillic, CJK and Arabic headings in fonts that have them', async () => {
    const tk = { token: owner.token };
    const headings = ['Πόσο ικανοποιημένοι είστε;', 'Как вам офис?', '你喜欢新办公室吗', 'هل يعجبك المكتب؟'];
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Έρευνα Опрос 调查',
        pages: [
          {
            questions: headings.map((heading) => ({
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading }],
              answers: { choices: [{ text: 'Ναι Да 是' }, { text: 'لا' }] },
            })),
          },
        ],
      },
      tk,
    );
    expect(created.status, created.text).toBe(201);
    const text = pdfText(await apiExport(created.body.id, { format: 'pdf' }));
    for (const h of headings.slice(0, 3)) expect(text).toContain(h);
    expect(text).toContain('Έρευνα Опрос 调查');
    const fonts = pdfFonts(await apiExport(created.body.id, { format: 'pdf' }));
    expect(fonts).toMatch(/NotoSans-Regular/);
    expect(fonts).toMatch(/NotoSansArabic/);
    // CJK from Debian's fonts-droid-fallback (.ci/run installs it)
    expect(fonts).toMatch(/DroidSansFallback/);
  });

  it('is refused with a compare question that cannot split it', async () => {
    const res = await server.client.post(
      `/v3/surveys/${surveyId}/exports`,
      { format: 'pdf', compare_question_id: q.age },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1002');
  });
});

async function slides(pptx: Buffer) {
  const zip = await JSZip.loadAsync(pptx);
  const names = Object.keys(zip.files);
  const read = (n: string) => zip.file(n)?.async('string') ?? Promise.resolve('');
  return {
    slides: names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length,
    charts: names.filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n)),
    read,
  };
}

describe('PowerPoint deck', () => {
  it('has a title slide, a drop-off slide and one slide per question with a native chart (API)', async () => {
    const deck = await slides(await apiExport(surveyId, { format: 'pptx' }));
    // title, where respondents stopped, four questions
    expect(deck.slides).toBe(6);
    // a chart for drop-off, floor, drink and the comment's words (the number question has none)
    expect(deck.charts).toHaveLength(4);
    const charts = await Promise.all(deck.charts.map(deck.read));
    const floor = charts.find((c) => c.includes('Ground floor'));
    expect(floor).toContain('<c:barChart>');
    expect(floor).toMatch(/<c:v>4<\/c:v>/);
    const s1 = await deck.read('ppt/slides/slide1.xml');
    expect(s1).toContain('Office move');
    expect(s1).toContain('8 responses: 7 completed, 1 partial');
    const all = (await Promise.all([3, 4, 5, 6].map((n) => deck.read(`ppt/slides/slide${n}.xml`)))).join('');
    for (const t of ['Q1. Which floor?', 'Q2. Which drink?', 'Q3. Your age', 'Q4. Anything else?'])
      expect(all).toContain(t);
    expect(all).toContain('62.5%');
  });
});

describe('command line', () => {
  it('writes the PDF report and the deck (--format pdf|pptx), compared', { timeout: 120_000 }, async () => {
    const env = {
      DATABASE_URL: server.config.databaseUrl,
      SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    };
    const pdfFile = join(dir, 'cli.pdf');
    const pptxFile = join(dir, 'cli.pptx');
    const [pdf, pptx] = await Promise.all([
      runCliAsync(
        ['export', '--survey', surveyId, '--format', 'pdf', '--compare', q.floor, '--to', pdfFile],
        env,
      ),
      runCliAsync(['export', '--survey', surveyId, '--format', 'pptx', '--to', pptxFile], env),
    ]);
    expect(pdf.status, pdf.stderr).toBe(0);
    const text = pdfText(readFileSync(pdfFile));
    expect(text).toContain('Compared by “Which floor?”: Ground floor (4), Top floor (4)');
    expect(text).toMatch(row('Tea', '3', '37.5%', '2 (50%)', '1 (25%)'));
    expect(pptx.status, pptx.stderr).toBe(0);
    expect((await slides(readFileSync(pptxFile))).slides).toBe(6);
  });
});
