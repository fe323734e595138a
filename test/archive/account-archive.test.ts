// The whole-account archive through the command line: `account export` on one server, `account
// import` into an empty account on a second server (its own database), `account export` again: the
// two archives are the same once ids and times are numbered and blanked. Bad archives (not a zip,
// another format version, a path outside the archive, a zip bomb, a file that fails its schema, a
// reference to nothing) are refused with their reason and write nothing.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { ArchiveRefused, importAccount } from '../../src/domain/archive/import.js';
import { collectorById } from '../../src/domain/collectors/collectors.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import { createResponse } from '../../src/domain/responses/responses.js';
import { checkTheme, saveTheme } from '../../src/domain/themes/themes.js';
import { keepFile, receiveFile } from '../../src/domain/uploads/uploads.js';
import { runCliAsync, runCliJsonAsync } from '../helpers/cli.js';
import { openEnded, type SeededSurvey, seedSurvey, singleChoice } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { entries, normalised } from './helpers.js';

let a: TestServer;
let b: TestServer;
let hook: Server;
const dir = mkdtempSync(join(tmpdir(), 'account-archive-'));
const env = (s: TestServer) => ({
  DATABASE_URL: s.config.databaseUrl,
  UPLOAD_DIR: s.config.uploads.dir,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300, 0x41), Buffer.from('\n%%EOF\n')]);

beforeAll(async () => {
  const options = { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } };
  [a, b] = await Promise.all([startServer(options), startServer(options)]);
  hook = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
}, 60_000);
afterAll(async () => {
  hook?.close();
  await Promise.all([a?.close(), b?.close()]);
});

/** An account on server A with a bit of everything the archive holds. */
async function seedAccount() {
  const owner = await a.account();
  const t = { token: owner.token };
  const api = a.client;
  const folder = await api.post('/v3/survey_folders', { title: 'Research' }, t);
  expect(folder.status, folder.text).toBe(201);
  await seedSurvey(a, owner, { title: 'Every kind', collector: 'weblink' });
  const s: SeededSurvey = await seedSurvey(a, owner, {
    title: 'Applicants',
    body: { folder_id: folder.body.id, custom_variables: { ref: 'Referrer' } },
    questions: {
      age: singleChoice('Your age?', ['Under 30', '30 or over']),
      note: openEnded('Anything else?'),
      cv: { ...openEnded('Your CV'), display_options: { display_type: 'file_upload' } },
    },
    collector: { type: 'weblink', name: 'Main link', thank_you_message: 'Thanks a lot!' },
  });
  const ok = (res: { status: number; text: string }, status = 200) =>
    expect(res.status, res.text).toBe(status);
  ok(
    await api.post(
      `/v3/surveys/${s.id}/quotas`,
      {
        name: 'Young',
        limit: 50,
        conditions: [{ question_id: s.questions.age, choice_id: s.choices.age[0] }],
        action: { type: 'end_survey', message: 'We have enough.' },
      },
      t,
    ),
    201,
  );
  ok(
    await api.patch(
      `/v3/surveys/${s.id}`,
      { calculated_variables: [{ name: 'older', formula: `question("${s.questions.age}") + 1` }] },
      t,
    ),
  );
  ok(
    await api.post(
      `/v3/surveys/${s.id}/languages/de`,
      {
        translations: [
          { context: 'survey_title_html', resource_id: s.id, translation: 'Bewerber' },
          { context: 'question_option_text', resource_id: s.choices.age[0], translation: 'Unter 30' },
        ],
      },
      t,
    ),
  );
  const row = await a.deps.db.kysely
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', s.id)
    .executeTakeFirstOrThrow();
  await saveTheme(
    a.deps,
    row,
    checkTheme({
      primary_color: '#114477',
      background_color: '#ffffff',
      text_color: '#111111',
      font: 'serif',
      button_shape: 'pill',
    }),
  );
  for (let i = 0; i < 5; i++)
    ok(
      await api.post(
        `/v3/collectors/${s.collector.id}/responses`,
        {
          custom_variables: { ref: `news${i}` },
          response_status: i === 4 ? 'partial' : 'completed',
          pages: [
            {
              id: s.pages[0],
              questions: [
                { id: s.questions.age, answers: [{ choice_id: s.choices.age[i % 2] }] },
                { id: s.questions.note, answers: [{ text: `note ${i}` }] },
              ],
            },
          ],
        },
        t,
      ),
      201,
    );
  // A file answer as the respondent form keeps it (the upload, then the response naming it).
  const fresh = await a.deps.db.kysely
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', s.id)
    .executeTakeFirstOrThrow();
  const collector = (await collectorById(a.deps, s.collector.id))!;
  const [responseId] = await a.deps.ids.take(1);
  const file = await receiveFile(a.deps, s.questions.cv, 'cv.pdf', Readable.from([PDF]));
  const kept = await keepFile(
    a.deps,
    { ownerId: owner.user.id, surveyId: s.id, collectorId: collector.id, responseId },
    file,
  );
  await createResponse(
    a.deps,
    { userId: null, ip: '10.0.0.1' },
    fresh,
    collector,
    await designIndex(a.deps, fresh),
    {
      pages: [
        {
          id: s.pages[0],
          questions: [
            {
              id: s.questions.cv,
              answers: [{ upload_id: kept.id, content_type: kept.contentType, text: 'cv.pdf' }],
            },
          ],
        },
      ],
    },
    undefined,
    { id: responseId, metadata: { contact: { first_name: { type: 'string', value: 'Ada' } } } },
  );
  ok(await api.patch('/v3/contact_fields/1', { label: 'Company' }, t));
  const contacts = [];
  for (const [i, email] of ['ada@example.org', 'bob@example.org', 'cy@example.org'].entries()) {
    const c = await api.post(
      '/v3/contacts',
      { first_name: `N${i}`, last_name: 'L', email, custom_fields: { '1': `Firm ${i}` } },
      t,
    );
    ok(c, 201);
    contacts.push(c.body.id);
  }
  const list = await api.post('/v3/contact_lists', { name: 'Friends' }, t);
  ok(list, 201);
  await a.deps.db.kysely
    .insertInto('contact_list_members')
    .values(
      contacts.slice(0, 2).map((id) => ({
        list_id: list.body.id,
        contact_id: id,
        owner_id: owner.user.id,
        added_at: new Date().toISOString(),
      })),
    )
    .execute();
  ok(
    await api.post(
      '/v3/webhooks',
      {
        name: 'Completed',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [s.id],
        subscription_url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      },
      t,
    ),
    201,
  );
  return { owner, survey: s };
}

let archiveA = '';

describe('account export and import', () => {
  it('round-trips an account to another server: the second export equals the first but for ids and times', async () => {
    const { owner, survey } = await seedAccount();
    archiveA = join(dir, 'a.zip');
    const out = await runCliJsonAsync(
      ['account', 'export', '--owner', owner.user.username, '--to', archiveA],
      env(a),
    );
    expect(out).toMatchObject({
      surveys: 2,
      responses: 6,
      files: 1,
      contacts: 3,
      contact_lists: 1,
      webhooks: 1,
      folders: 1,
    });

    const target = await b.account();
    const report = await runCliJsonAsync(
      ['account', 'import', '--owner', target.user.username, '--from', archiveA],
      env(b),
    );
    expect(report.skipped).toEqual([]);
    expect(report.counts).toMatchObject({
      surveys: 2,
      responses: 6,
      files: 1,
      contacts: 3,
      contact_lists: 1,
      webhooks: 1,
    });

    const archiveB = join(dir, 'b.zip');
    await runCliJsonAsync(['account', 'export', '--owner', target.user.username, '--to', archiveB], env(b));
    const [first, second] = await Promise.all([normalised(archiveA), normalised(archiveB)]);
    for (const m of [first, second]) delete m['manifest.json'].account;
    expect(second).toEqual(first);

    // The copy works on server B: its responses read through the API, with their dates and file.
    const t = { token: target.token };
    const list = await b.client.get('/v3/surveys?title=Applicants', t);
    const copy = list.body.data.find((x: { title: string }) => x.title === 'Applicants');
    expect(copy.id).not.toBe(survey.id);
    const bulk = await b.client.get(`/v3/surveys/${copy.id}/responses/bulk`, t);
    expect(bulk.body.total).toBe(6);
    const original = await a.client.get(`/v3/surveys/${survey.id}/responses/bulk`, { token: owner.token });
    expect(bulk.body.data.map((r: { date_created: string }) => r.date_created).sort()).toEqual(
      original.body.data.map((r: { date_created: string }) => r.date_created).sort(),
    );
    const fileAnswer = bulk.body.data
      .flatMap((r: any) => r.pages.flatMap((p: any) => p.questions.flatMap((q: any) => q.answers)))
      .find((x: any) => x.download_url);
    expect(fileAnswer.text).toBe('cv.pdf');
  }, 120_000);

  it('imports into an account that already has surveys, with new ids each time', async () => {
    const target = await b.account();
    for (let i = 0; i < 2; i++) await importAccount(b.deps, target.user.id, archiveA);
    const list = await b.client.get('/v3/surveys', { token: target.token });
    expect(list.body.total).toBe(4);
    expect(new Set(list.body.data.map((s: { id: string }) => s.id)).size).toBe(4);
  }, 60_000);
});

/** A zip of these entries (a name may be given as bytes written over a placeholder of its length). */
async function zipOf(
  files: Array<{ name: string; data: Buffer }>,
  rename?: [string, string],
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(Buffer.from(c));
  let bytes = Buffer.concat(chunks);
  if (rename) {
    const [from, to] = rename.map((n) => Buffer.from(n));
    let at = bytes.indexOf(from);
    while (at >= 0) {
      bytes = Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)]);
      at = bytes.indexOf(from, at + to.length);
    }
  }
  const path = join(dir, `bad-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  return path;
}

describe('refused archives', () => {
  const edit = async (name: string, change: (text: string) => string) =>
    (await entries(archiveA)).map((e) =>
      e.name === name ? { name, data: Buffer.from(change(e.data.toString())) } : e,
    );

  it('refuses each bad archive with its reason and writes nothing', async () => {
    const target = await b.account();
    const notZip = join(dir, 'not.zip');
    writeFileSync(notZip, 'hello, I am not a zip');
    const cases: Array<[string, RegExp]> = [
      [notZip, /not a zip archive/],
      [
        await zipOf(await edit('manifest.json', (t) => t.replace('"version": 1', '"version": 2'))),
        /format version 2 is not one this server reads/,
      ],
      [
        await zipOf(
          [...(await entries(archiveA)), { name: 'XX/evil.txt', data: Buffer.from('x') }],
          ['XX/evil.txt', '../evil.txt'],
        ),
        /unsafe entry|invalid relative path/,
      ],
      [
        await zipOf([
          ...(await entries(archiveA)).filter((e) => e.name !== 'contacts.jsonl'),
          { name: 'contacts.jsonl', data: Buffer.alloc(20_000_000) },
        ]),
        /zip bomb/,
      ],
      [
        await zipOf(
          await edit('surveys/2/survey.json', (t) => t.replace('"title": "Applicants"', '"title": 42')),
        ),
        /surveys\/2\/survey\.json does not match its schema: \/title/,
      ],
      [
        await zipOf(
          await edit('surveys/2/responses.jsonl', (t) =>
            t.replace(/"collector_id":"\d+"/, '"collector_id":"123456789"'),
          ),
        ),
        /line 1: collector 123456789 is not in survey\.json/,
      ],
      [
        await zipOf([...(await entries(archiveA)), { name: 'notes.txt', data: Buffer.from('x') }]),
        /a file this format does not have: "notes.txt"/,
      ],
    ];
    // The command line says why and fails; the rest are the same domain call it makes.
    const r = await runCliAsync(
      ['account', 'import', '--owner', target.user.username, '--from', notZip],
      env(b),
    );
    expect(r.status, r.stdout).toBe(1);
    expect(r.stderr).toMatch(/^survey-service: not a zip archive/);
    for (const [path, reason] of cases) {
      const refused = await importAccount(b.deps, target.user.id, path).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ArchiveRefused);
      expect(String(refused)).toMatch(reason);
    }
    const t = { token: target.token };
    expect((await b.client.get('/v3/surveys', t)).body.total).toBe(0);
    expect((await b.client.get('/v3/contacts', t)).body.total).toBe(0);
    expect((await b.client.get('/v3/survey_folders', t)).body.total).toBe(0);
    expect(readFileSync(notZip, 'utf8')).toContain('hello');
  }, 120_000);
});
