// Nobody fills the upload disk: on every upload form (a survey's theme, a respondent page with a
// file question, the contacts import) a post that is not allowed (signed out, no CSRF token, no
// access, a closed collector) is answered before its body is read and leaves no byte under
// UPLOAD_DIR; a post cut off mid-file leaves nothing; the hourly byte caps hold under concurrent
// posts; and uploads stop, with a clear page, while the disk is short of UPLOAD_MIN_FREE_MB.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A logo of about `kb` KB that passes the PNG check (its signature first). */
const bigPng = (kb: number) => Buffer.concat([PNG, Buffer.alloc(kb * 1024, 0x41)]);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(50 * 1024, 0x41),
  Buffer.from('\n%%EOF\n'),
]);

/** Every byte under UPLOAD_DIR, tmp included. */
function storedBytes(server: TestServer): number {
  const walk = (dir: string): number =>
    existsSync(dir)
      ? readdirSync(dir).reduce((n, name) => {
          const path = join(dir, name);
          const s = statSync(path);
          return n + (s.isDirectory() ? walk(path) : s.size);
        }, 0)
      : 0;
  return walk(server.config.uploads.dir);
}

const cookieOf = (web: WebSession | null) =>
  web ? [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';

/** A multipart body as a browser sends it, and its headers. */
async function multipart(fields: Array<[string, string]>, file?: [string, string, Buffer]) {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  if (file) form.append(file[0], new Blob([file[2]]), file[1]);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

async function post(
  server: TestServer,
  path: string,
  web: WebSession | null,
  body: Awaited<ReturnType<typeof multipart>>,
) {
  const headers: Record<string, string> = { 'content-type': body.type };
  if (web) headers.cookie = cookieOf(web);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: body.body,
    redirect: 'manual',
  });
  return {
    status: res.status,
    headers: res.headers,
    text: await res.text(),
    location: res.headers.get('location'),
  };
}

/**
 * Sends the headers and only the first `sent` bytes of `body`, and resolves with the answer's
 * status once one comes: it can only come before the rest of the body if the server answered
 * without reading it. The connection is closed afterwards.
 */
function answeredBeforeBody(
  server: TestServer,
  path: string,
  cookie: string,
  body: Awaited<ReturnType<typeof multipart>>,
  sent: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': body.type,
        'content-length': String(body.body.length),
        ...(cookie ? { cookie } : {}),
      },
    });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    req.on('error', (err) => {
      if (!(err as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(err);
    });
    req.write(body.body.subarray(0, sent));
  });
}

/** Waits for a condition the server reaches on its own (bounded, so a failure is reported). */
async function until(what: string, condition: () => boolean) {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}

interface Fixture {
  server: TestServer;
  owner: TestAccount;
  web: WebSession;
  sm: string;
  respondent: { path: string; page: string; file: string };
}

async function fixture(
  env: Record<string, string> = {},
  collectorOptions: Record<string, unknown> = {},
): Promise<Fixture> {
  const server = await startServer({ env });
  const owner = await server.account();
  const tk = { token: owner.token };
  const web = await signIn(server, owner);
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Applications',
      pages: [
        {
          questions: [
            {
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading: 'Your CV' }],
              display_options: { display_type: 'file_upload' },
            },
          ],
        },
      ],
    },
    tk,
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const collector = await server.client.post(
    `/v3/surveys/${created.body.id}/collectors`,
    { type: 'weblink', ...collectorOptions },
    tk,
  );
  expect(collector.status, collector.text).toBe(201);
  return {
    server,
    owner,
    web,
    sm: new URL(created.body.edit_url).searchParams.get('sm')!,
    respondent: {
      path: new URL(collector.body.url).pathname,
      page: details.pages[0].id,
      file: details.pages[0].questions[0].id,
    },
  };
}

/** A respondent's browser on the survey: its cookie and the page's hidden fields. */
async function respondentForm(f: Fixture, bytes: Buffer) {
  const first = await fetch(`${f.server.url}${f.respondent.path}`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const csrf = /name="csrf" value="([^"]*)"/.exec(page)?.[1] ?? '';
  const body = await multipart(
    [
      ['csrf', csrf],
      ['p', f.respondent.page],
      ['nav', 'done'],
    ],
    [`q_${f.respondent.file}`, 'cv.pdf', bytes],
  );
  return { cookie, csrf, body };
}

const themeFields = (csrf: string): Array<[string, string]> => [
  ['_csrf', csrf],
  ['primary_color', '#6a1b9a'],
  ['background_color', '#fdf8ff'],
  ['text_color', '#211a24'],
  ['font', 'serif'],
  ['button_shape', 'pill'],
  ['intent', 'preview'],
];

describe('refused uploads leave nothing', () => {
  let f: Fixture;
  let stranger: WebSession;
  beforeAll(async () => {
    f = await fixture();
    const other = await f.server.account();
    stranger = await signIn(f.server, other);
  });
  afterAll(() => f.server.close());

  it('theme: signed out, without a CSRF token, or without access: refused, no byte stored', async () => {
    const before = storedBytes(f.server);
    const themePath = `/create/theme?sm=${f.sm}`;
    const logo: [string, string, Buffer] = ['logo', 'logo.png', bigPng(400)];
    // anonymous posts, as in the finding: each answered with the sign-in redirect
    const anonymous = await multipart(themeFields('x'), logo);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post(f.server, themePath, null, anonymous)),
    );
    for (const a of answers)
      expect([a.status, a.location]).toEqual([303, `/login?next=${encodeURIComponent(themePath)}`]);
    // answered without reading the body: the answer comes while most of it is unsent
    expect(await answeredBeforeBody(f.server, themePath, '', anonymous, 1000)).toBe(303);

    // signed in, no CSRF token (or a forged one): the form's refusal
    const noCsrf = await post(
      f.server,
      themePath,
      f.web,
      await multipart(themeFields('forged').slice(1), logo),
    );
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.text).toContain('This form could not be verified');
    const forged = await post(f.server, themePath, f.web, await multipart(themeFields('forged'), logo));
    expect(forged.status).toBe(403);

    // someone else's survey: not found, before the body is read
    const csrf = await stranger.csrf('/contacts/import');
    const other = await multipart(themeFields(csrf), logo);
    const noAccess = await post(f.server, themePath, stranger, other);
    expect(noAccess.status).toBe(404);
    expect(await answeredBeforeBody(f.server, themePath, cookieOf(stranger), other, 1000)).toBe(404);

    expect(storedBytes(f.server)).toBe(before);
    // the owner's own post still works (a preview: the logo is read, checked and not kept)
    const mine = await post(
      f.server,
      themePath,
      f.web,
      await multipart(themeFields(await f.web.csrf(themePath)), logo),
    );
    expect(mine.status, mine.text).toBe(200);
    expect(mine.text).toContain('Preview (not saved)');
    expect(storedBytes(f.server)).toBe(before);
  });

  it('respondent page: no session or a wrong token: refused, no byte stored', async () => {
    const before = storedBytes(f.server);
    const r = await respondentForm(f, PDF);
    // no session cookie: the expired-page answer, before the body is read
    expect(await answeredBeforeBody(f.server, f.respondent.path, '', r.body, 1000)).toBe(403);
    const noSession = await fetch(`${f.server.url}${f.respondent.path}`, {
      method: 'POST',
      headers: { 'content-type': r.body.type },
      body: r.body.body,
    });
    expect(noSession.status).toBe(403);
    // a wrong token: the file part is drained unread
    const forged = await multipart(
      [
        ['csrf', 'forged'],
        ['p', f.respondent.page],
        ['nav', 'done'],
      ],
      [`q_${f.respondent.file}`, 'cv.pdf', PDF],
    );
    const wrong = await fetch(`${f.server.url}${f.respondent.path}`, {
      method: 'POST',
      headers: { 'content-type': forged.type, cookie: r.cookie },
      body: forged.body,
    });
    expect(wrong.status).toBe(403);
    expect(storedBytes(f.server)).toBe(before);
  });

  it('contacts import: signed out or without a CSRF token: refused before the file is read', async () => {
    const csv = Buffer.from(`email\n${'a@example.com\n'.repeat(20_000)}`);
    const anonymous = await multipart([['_csrf', 'x']], ['file', 'contacts.csv', csv]);
    expect(await answeredBeforeBody(f.server, '/contacts/import/preview', '', anonymous, 1000)).toBe(303);
    const noCsrf = await post(
      f.server,
      '/contacts/import/preview',
      f.web,
      await multipart([], ['file', 'c.csv', csv]),
    );
    expect(noCsrf.status).toBe(403);
    // the owner's import still previews
    const csrf = await f.web.csrf('/contacts/import');
    const ok = await post(
      f.server,
      '/contacts/import/preview',
      f.web,
      await multipart(
        [['_csrf', csrf]],
        ['file', 'c.csv', Buffer.from('email,first_name\nada@example.com,Ada\n')],
      ),
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.text).toContain('1 row to import');
  });

  it('a post cut off in the middle of its file leaves no partial file', async () => {
    const themePath = `/create/theme?sm=${f.sm}`;
    const body = await multipart(themeFields(await f.web.csrf(themePath)), ['logo', 'logo.png', bigPng(500)]);
    const tmp = join(f.server.config.uploads.dir, 'tmp');
    const partial = () => (existsSync(tmp) ? readdirSync(tmp) : []);
    expect(partial()).toEqual([]);
    const req = httpRequest(new URL(themePath, f.server.url), {
      method: 'POST',
      headers: {
        'content-type': body.type,
        'content-length': String(body.body.length),
        cookie: cookieOf(f.web),
      },
    });
    req.on('error', () => {});
    req.write(body.body.subarray(0, 300 * 1024));
    // the file is being received; then the client goes away
    await until('the logo arrives in tmp', () => partial().length === 1);
    req.destroy();
    await until('the partial file is removed', () => partial().length === 0);
  });
});

describe('hourly upload byte caps', () => {
  let f: Fixture;
  // each post below declares the same length; the account may upload two and a half of them an hour
  let length = 0;
  beforeAll(async () => {
    const probe = await multipart(themeFields('x'.repeat(52)), ['logo', 'logo.png', bigPng(100)]);
    length = probe.body.length;
    f = await fixture({
      UPLOAD_BYTES_PER_ACCOUNT_HOUR: String(Math.floor(length * 2.5)),
      UPLOAD_BYTES_PER_ADDRESS_HOUR: '0',
    });
  });
  afterAll(() => f.server.close());

  it('admits exactly what the account cap allows out of concurrent posts; the rest get 429 with Retry-After', async () => {
    const themePath = `/create/theme?sm=${f.sm}`;
    const csrf = await f.web.csrf(themePath);
    const body = await multipart(themeFields(csrf), ['logo', 'logo.png', bigPng(100)]);
    const fit = Math.floor(f.server.config.uploads.accountBytesPerHour / body.body.length);
    expect(fit).toBe(2);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(f.server, themePath, f.web, body)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.text).toContain(
      'Too much has been uploaded from this account or connection in the last hour',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // a forged post counts nothing: the room left (half a post) still takes a fifth of one after it
    const forged = await multipart(themeFields('forged'), ['logo', 'logo.png', bigPng(40)]);
    expect((await post(f.server, themePath, f.web, forged)).status).toBe(403);
    const small = await post(
      f.server,
      themePath,
      f.web,
      await multipart(themeFields(csrf), ['logo', 'logo.png', bigPng(20)]),
    );
    expect(small.status, small.text).toBe(200);
  });
});

describe('the address cap on respondent pages', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture({ UPLOAD_BYTES_PER_ADDRESS_HOUR: String(120 * 1024) });
  });
  afterAll(() => f.server.close());

  it('refuses a respondent over the hourly bytes of their address, with a page saying so', async () => {
    const before = storedBytes(f.server);
    const first = await respondentForm(f, PDF);
    const ok = await fetch(`${f.server.url}${f.respondent.path}`, {
      method: 'POST',
      headers: { 'content-type': first.body.type, cookie: first.cookie },
      body: first.body.body,
    });
    expect(ok.status).toBe(200);
    const kept = storedBytes(f.server) - before;
    expect(kept).toBe(PDF.length);
    const second = await respondentForm(f, Buffer.concat([PDF, PDF]));
    const refused = await fetch(`${f.server.url}${f.respondent.path}`, {
      method: 'POST',
      headers: { 'content-type': second.body.type, cookie: second.cookie },
      body: second.body.body,
    });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Your answers on this page could not be accepted');
    expect(storedBytes(f.server) - before).toBe(kept);
  });
});

describe('UPLOAD_MIN_FREE_MB', () => {
  let f: Fixture;
  beforeAll(async () => {
    // more than any disk has: the real disk is "too full"
    f = await fixture({ UPLOAD_MIN_FREE_MB: String(1024 * 1024 * 1024) });
  });
  afterAll(() => f.server.close());

  it('refuses every upload with a clear page while the disk is short of the margin', async () => {
    const before = storedBytes(f.server);
    const themePath = `/create/theme?sm=${f.sm}`;
    const theme = await post(
      f.server,
      themePath,
      f.web,
      await multipart(themeFields(await f.web.csrf(themePath)), ['logo', 'logo.png', bigPng(10)]),
    );
    expect(theme.status).toBe(503);
    expect(theme.text).toContain('Uploads are paused because the server is running out of disk space');
    const r = await respondentForm(f, PDF);
    const respondent = await fetch(`${f.server.url}${f.respondent.path}`, {
      method: 'POST',
      headers: { 'content-type': r.body.type, cookie: r.cookie },
      body: r.body.body,
    });
    expect(respondent.status).toBe(503);
    expect(await respondent.text()).toContain('running out of disk space');
    const contacts = await post(
      f.server,
      '/contacts/import/preview',
      f.web,
      await multipart(
        [['_csrf', await f.web.csrf('/contacts/import')]],
        ['file', 'c.csv', Buffer.from('email\na@b.co\n')],
      ),
    );
    expect(contacts.status).toBe(503);
    expect(storedBytes(f.server)).toBe(before);
    // forms without files still work
    const page = await f.web.get(themePath);
    expect(page.status).toBe(200);
  });
});
