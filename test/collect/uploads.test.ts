// File-upload answers through the real respondent form (multipart): the CSRF token is checked
// before any file is kept, size and type limits (by extension and by the file's first bytes) come
// back as the question's message on the page, a kept file reaches the API as
// {text, download_url, content_type}, downloads only for those who may analyze the survey, and
// goes with its response or survey. Also: the API takes text only on a file-upload question.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepFile, receiveFile } from '../../src/domain/uploads/uploads.js';
import { pruneOnce } from '../../src/outbox/retention.js';
import type { TestAccount } from '../helpers/accounts.js';
import { errorCode } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let stranger: TestAccount;
const clock = new TestClock();

beforeAll(async () => {
  server = await startServer({ clock, env: { UPLOAD_MAX_BYTES: '2000' } });
  owner = await server.account();
  stranger = await server.account();
});
afterAll(async () => {
  await server.close();
});

const tk = () => ({ token: owner.token });
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300, 0x41), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** Every file under UPLOAD_DIR, tmp included. */
function storedFiles(): string[] {
  const dir = server.config.uploads.dir;
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'tmp') out.push(...readdirSync(join(dir, 'tmp')).map((n) => `tmp/${n}`));
    else out.push(name);
  }
  return out;
}

/** A survey with a required file-upload question and a text question, and a weblink collector. */
async function uploadSurvey() {
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Job application',
      pages: [
        {
          questions: [
            {
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading: 'Your CV' }],
              display_options: { display_type: 'file_upload' },
              required: { text: 'Please attach your CV.', type: 'all', amount: '0' },
            },
            { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Your name' }] },
          ],
        },
      ],
    },
    tk(),
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk())).body;
  const collector = await server.client.post(
    `/v3/surveys/${created.body.id}/collectors`,
    { type: 'weblink' },
    tk(),
  );
  expect(collector.status, collector.text).toBe(201);
  const [file, name] = details.pages[0].questions.map((q: any) => q.id);
  return {
    surveyId: created.body.id as string,
    manageToken: new URL(details.analyze_url).pathname.split('/').pop() as string,
    collectorId: collector.body.id as string,
    path: new URL(collector.body.url).pathname,
    pageId: details.pages[0].id as string,
    file,
    name,
  };
}

type Survey = Awaited<ReturnType<typeof uploadSurvey>>;

/** A respondent's browser: the survey page's cookie and hidden fields. */
async function respondent(s: Survey) {
  const first = await fetch(`${server.url}${s.path}`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  return { cookie, page, csrf: field('csrf'), p: field('p'), started: field('started') };
}

/** Posts the page as the browser's multipart form would: hidden fields first, then the questions. */
async function post(
  s: Survey,
  r: Awaited<ReturnType<typeof respondent>>,
  file: { name: string; bytes: Buffer } | null,
  options: { csrf?: string | null; name?: string } = {},
) {
  const form = new FormData();
  if (options.csrf !== null) form.append('csrf', options.csrf ?? r.csrf);
  form.append('p', r.p);
  form.append('started', r.started);
  form.append(
    `q_${s.file}`,
    new Blob([file?.bytes ?? Buffer.alloc(0)], { type: 'application/octet-stream' }),
    file?.name ?? '',
  );
  form.append(`q_${s.name}`, options.name ?? 'Ada');
  form.append('nav', 'done');
  const res = await fetch(`${server.url}${s.path}`, {
    method: 'POST',
    headers: { cookie: r.cookie },
    body: form,
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

async function download(web: WebSession | null, path: string) {
  const cookie = web ? [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('file-upload answers on the respondent page', () => {
  it('refuses without CSRF, too big, wrong type or mismatched contents, keeping nothing', async () => {
    const s = await uploadSurvey();
    const r = await respondent(s);
    expect(r.page).toContain('enctype="multipart/form-data"');
    expect(r.page).toMatch(/type="file"[^>]*accept="\.pdf,\.png/);
    const before = storedFiles().length;

    const noCsrf = await post(s, r, { name: 'cv.pdf', bytes: PDF }, { csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.text).toContain('could not be accepted');
    const wrongCsrf = await post(s, r, { name: 'cv.pdf', bytes: PDF }, { csrf: 'forged' });
    expect(wrongCsrf.status).toBe(403);

    const cases: Array<[string, Buffer, string]> = [
      [
        'big.pdf',
        Buffer.concat([PDF, Buffer.alloc(2000, 0x41)]),
        'The file is too large: files of at most 2 KB',
      ],
      ['tool.exe', Buffer.from('MZ\x90\x00'), 'Files of this type are not accepted'],
      ['photo.pdf', PNG, 'contents are not what its name says (a PDF file)'],
      ['notes.txt', PNG, 'contents are not what its name says'],
    ];
    for (const [name, bytes, message] of cases) {
      const res = await post(s, r, { name, bytes });
      expect(res.status, name).toBe(422);
      // the question's own message, at the question and in the summary
      expect(res.text).toContain(message);
      expect(res.text).toMatch(new RegExp(`id="q${s.file}-err"`));
    }
    // a required upload with no file: the question's required text
    const none = await post(s, r, null);
    expect(none.status).toBe(422);
    expect(none.text).toContain('Please attach your CV.');

    expect(storedFiles()).toHaveLength(before);
    const rows = await server.deps.db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('survey_id', '=', s.surveyId)
      .execute();
    expect(rows).toHaveLength(0);
    const list = await server.client.get(`/v3/collectors/${s.collectorId}/responses`, tk());
    expect(list.body.total).toBe(0);
  });

  it('keeps an accepted file: API answer, owner download, nobody else, gone with the response', async () => {
    const s = await uploadSurvey();
    const r = await respondent(s);
    const done = await post(s, r, { name: 'My CV (final).pdf', bytes: PDF });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('thank-you');

    const bulk = await server.client.get(`/v3/collectors/${s.collectorId}/responses/bulk`, tk());
    const response = bulk.body.data[0];
    const answer = response.pages[0].questions.find((q: any) => q.id === s.file).answers[0];
    expect(answer).toEqual({
      text: 'My CV (final).pdf',
      content_type: 'application/pdf',
      download_url: expect.stringMatching(new RegExp(`/analyze/${s.manageToken}/files/\\d+$`)),
    });
    const row = await server.deps.db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('response_id', '=', response.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      owner_id: owner.user.id,
      survey_id: s.surveyId,
      question_id: s.file,
      file_name: 'My CV (final).pdf',
      content_type: 'application/pdf',
      size: PDF.length,
    });
    expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(storedFiles()).toContain(row.storage_key);
    expect(storedFiles().filter((f) => f.startsWith('tmp/'))).toEqual([]);

    const path = new URL(answer.download_url).pathname;
    const web = await signIn(server, owner);
    const got = await download(web, path);
    expect(got.status).toBe(200);
    expect(got.body.equals(PDF)).toBe(true);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="My CV (final).pdf"; filename*=UTF-8''My%20CV%20(final).pdf`,
    );
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');

    // the owner's one-response view links the file by its name
    const view = await web.get(`/analyze/${s.manageToken}/responses/${response.id}`);
    expect(view.text).toContain(`href="${path}" download>My CV (final).pdf</a>`);
    // the CSV export's cell is the file's name
    const csv = await web.get(`/analyze/${s.manageToken}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('My CV (final).pdf');

    // someone else, signed in: not found; nobody signed in: not the file
    expect((await download(await signIn(server, stranger), path)).status).toBe(404);
    expect((await download(null, path)).status).not.toBe(200);
    // another survey's token does not reach it
    const other = await uploadSurvey();
    expect((await download(web, path.replace(s.manageToken, other.manageToken))).status).toBe(404);

    // deleting the response removes the file and its row
    const del = await server.client.delete(`/v3/surveys/${s.surveyId}/responses/${response.id}`, tk());
    expect(del.status, del.text).toBe(200);
    expect(storedFiles()).not.toContain(row.storage_key);
    expect((await download(web, path)).status).toBe(404);
  });

  it('removes the files of a deleted survey', async () => {
    const s = await uploadSurvey();
    expect((await post(s, await respondent(s), { name: 'a.png', bytes: PNG })).status).toBe(200);
    const row = await server.deps.db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('survey_id', '=', s.surveyId)
      .executeTakeFirstOrThrow();
    expect(row.content_type).toBe('image/png');
    expect(storedFiles()).toContain(row.storage_key);
    expect((await server.client.delete(`/v3/surveys/${s.surveyId}`, tk())).status).toBe(200);
    expect(storedFiles()).not.toContain(row.storage_key);
  });

  it('takes text only on a file-upload question through the API (400/1002 naming the field)', async () => {
    const s = await uploadSurvey();
    const send = (answer: Record<string, string>) =>
      server.client.post(
        `/v3/collectors/${s.collectorId}/responses`,
        { pages: [{ id: s.pageId, questions: [{ id: s.file, answers: [answer] }] }] },
        tk(),
      );
    for (const [answer, field] of [
      [{ download_url: 'https://example.com/cv.pdf', content_type: 'application/pdf' }, 'download_url'],
      [{ text: 'cv', content_type: 'application/pdf' }, 'content_type'],
    ] as const) {
      const res = await send(answer);
      expect(res.status, res.text).toBe(400);
      expect(errorCode(res as never)).toBe('1002');
      expect(res.body.error.message).toContain(`answers.0.${field}`);
    }
    // required is a respondent-page rule: the API stores what it is sent (here, no file at all)
    const ok = await send({ text: 'Sent by post' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.pages[0].questions[0].answers).toEqual([{ text: 'Sent by post' }]);
  });

  it('sweeps, an hour on, a kept file whose response never committed and a stray tmp file', async () => {
    const s = await uploadSurvey();
    // a committed upload, which stays
    expect((await post(s, await respondent(s), { name: 'kept.pdf', bytes: PDF })).status).toBe(200);
    // a crash after the file was kept but before its response committed
    const file = await receiveFile(server.deps, s.file, 'lost.pdf', Readable.from([PDF]));
    const lost = await keepFile(
      server.deps,
      { ownerId: owner.user.id, surveyId: s.surveyId, collectorId: s.collectorId, responseId: '999999999' },
      file,
    );
    writeFileSync(join(server.config.uploads.dir, 'tmp', 'stray.part'), 'half a file');
    const keys = async () =>
      (
        await server.deps.db.kysely
          .selectFrom('uploads')
          .select(['id', 'storage_key'])
          .where('survey_id', '=', s.surveyId)
          .execute()
      ).map((r) => r.id);
    expect(await keys()).toContain(lost.id);
    await pruneOnce(server.deps);
    expect(await keys()).toHaveLength(2); // not yet: its response may still be on its way
    clock.advance(2 * 60 * 60 * 1000);
    expect((await pruneOnce(server.deps)).uploads).toBeGreaterThanOrEqual(2);
    expect(await keys()).toHaveLength(1);
    expect(await keys()).not.toContain(lost.id);
    expect(storedFiles()).not.toContain('tmp/stray.part');
  });

  it('keeps the uploaded file when the page is answered again without one, and replaces it with a new one', async () => {
    const tk2 = tk();
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Two pages',
        pages: [
          {
            questions: [
              {
                family: 'open_ended',
                subtype: 'single',
                headings: [{ heading: 'Photo' }],
                display_options: { display_type: 'file_upload' },
                required: { text: 'Please add a photo.', type: 'all', amount: '0' },
              },
            ],
          },
          { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Caption' }] }] },
        ],
      },
      tk2,
    );
    const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk2)).body;
    const c = await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk2);
    const s = {
      path: new URL(c.body.url).pathname,
      file: details.pages[0].questions[0].id,
      name: details.pages[1].questions[0].id,
    } as Survey;
    const r = await respondent(s);
    const page1 = async (file: { name: string; bytes: Buffer } | null) => {
      const form = new FormData();
      form.append('csrf', r.csrf);
      form.append('p', details.pages[0].id);
      form.append(`q_${s.file}`, new Blob([file?.bytes ?? Buffer.alloc(0)]), file?.name ?? '');
      form.append('nav', 'next');
      const res = await fetch(`${server.url}${s.path}`, {
        method: 'POST',
        headers: { cookie: r.cookie },
        body: form,
        redirect: 'manual',
      });
      return res.status;
    };
    const rows = () =>
      server.deps.db.kysely
        .selectFrom('uploads')
        .select(['file_name', 'storage_key'])
        .where('survey_id', '=', created.body.id)
        .execute();
    expect(await page1({ name: 'first.png', bytes: PNG })).toBe(303);
    const [first] = await rows();
    expect(first.file_name).toBe('first.png');
    // back on page 1: the file is named, and Next without a new one keeps it (required is met)
    const back = await fetch(`${server.url}${s.path}?p=${details.pages[0].id}`, {
      headers: { cookie: r.cookie },
    });
    expect(await back.text()).toContain('Uploaded: <strong>first.png</strong>');
    expect(await page1(null)).toBe(303);
    expect(await rows()).toEqual([first]);
    // a new file replaces it, and the old one goes
    expect(await page1({ name: 'second.pdf', bytes: PDF })).toBe(303);
    const now = await rows();
    expect(now.map((x) => x.file_name)).toEqual(['second.pdf']);
    expect(storedFiles()).not.toContain(first.storage_key);
    expect(storedFiles()).toContain(now[0].storage_key);
  });
});
