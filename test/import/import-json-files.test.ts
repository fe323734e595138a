// Importing Typeform, Google Forms and Formbricks exports through `survey-service import-file`
// (the fixtures: test/import/files/<tool>/README.md): every response arrives, each question's
// rollup counts the responses that answered it at the source (counted here from the source files),
// what is not carried over is reported, and bad input is refused with nothing written.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DIR = 'test/import/files';
const path = (tool: string, name: string) => join(DIR, tool, name);
const json = (tool: string, name: string): any => JSON.parse(readFileSync(path(tool, name), 'utf8'));

let server: TestServer;
let token: string;
let username: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  const a = await server.account();
  token = a.token;
  username = a.user.username;
  env = {
    DATABASE_URL: server.config.databaseUrl,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    SCRYPT_LOG_N: '10',
  };
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const cli = (args: string[]) => runCliAsync(['import-file', '--owner', username, ...args], env);

/** Responses answering each question, by its title, counted from the source's own files. */
type Counts = { responses: number; answered: Record<string, number> };

function tally(responses: Array<Set<string>>): Counts {
  const answered: Record<string, number> = {};
  for (const titles of responses) for (const t of titles) answered[t] = (answered[t] ?? 0) + 1;
  return { responses: responses.length, answered };
}

function typeformCounts(): Counts {
  const form = json('typeform', 'form.json');
  const titleOf = new Map<string, string>();
  const walk = (fields: any[], parent?: string) => {
    for (const f of fields) {
      if (f.type === 'group' || f.type === 'inline_group') walk(f.properties.fields);
      else if (['matrix', 'contact_info', 'address'].includes(f.type)) walk(f.properties.fields, f.title);
      else titleOf.set(f.id, parent ?? f.title);
    }
  };
  walk(form.fields);
  const items = json('typeform', 'responses.json').flatMap((p: any) => p.items);
  return tally(
    items.map((r: any) => new Set(r.answers.map((a: any) => titleOf.get(a.field.id)).filter(Boolean))),
  );
}

function googleCounts(): Counts {
  const form = json('google-forms', 'form.json');
  const titleOf = new Map<string, string>();
  for (const item of form.items) {
    if (item.questionItem) titleOf.set(item.questionItem.question.questionId, item.title);
    for (const q of item.questionGroupItem?.questions ?? []) titleOf.set(q.questionId, item.title);
  }
  const items = json('google-forms', 'responses.json').flatMap((p: any) => p.responses);
  return tally(
    items.map(
      (r: any) =>
        new Set(
          Object.keys(r.answers)
            .map((k) => titleOf.get(k))
            .filter(Boolean),
        ),
    ),
  );
}

function formbricksCounts(): Counts {
  const survey = json('formbricks', 'survey.json').data;
  // a call to action and a payment hold no answer here (reported)
  const titleOf = new Map<string, string>(
    survey.questions
      .filter((q: any) => !['cta', 'payment'].includes(q.type))
      .map((q: any) => [q.id, q.headline.default]),
  );
  const items = json('formbricks', 'responses.json').flatMap((p: any) => p.data);
  return tally(
    items.map(
      (r: any) =>
        new Set(
          Object.entries(r.data)
            .filter(([, v]) => v !== '')
            .map(([k]) => titleOf.get(k))
            .filter(Boolean),
        ),
    ),
  );
}

/** The imported survey's responses and each question's answered count, by its title. */
async function countsHere(surveyId: string): Promise<Counts> {
  const details = (await server.client.get(`/v3/surveys/${surveyId}/details`, { token })).body;
  const rollups = (await server.client.get(`/v3/surveys/${surveyId}/rollups?per_page=100`, { token })).body;
  const answered = new Map<string, number>(rollups.data.map((r: any) => [r.id, r.summary[0]?.answered ?? 0]));
  const out: Record<string, number> = {};
  for (const page of details.pages)
    for (const q of page.questions) {
      const n = answered.get(q.id) ?? 0;
      if (n > 0) out[q.headings[0].heading] = n;
    }
  return { responses: details.response_count, answered: out };
}

const TOOLS = [
  { tool: 'typeform', file: 'form.json', counts: typeformCounts, lost: 1 },
  { tool: 'google-forms', file: 'form.json', counts: googleCounts, lost: 1 },
  { tool: 'formbricks', file: 'survey.json', counts: formbricksCounts, lost: 2 },
];

describe.each(TOOLS)('import-file --from $tool', ({ tool, file, counts, lost }) => {
  it("lands every response, and each question's rollup equals the source's count", async () => {
    const r = await cli([
      '--from',
      tool,
      '--file',
      path(tool, file),
      '--responses',
      path(tool, 'responses.json'),
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.state).toBe('done');
    const source = counts();
    expect(out.responses_copied).toBe(source.responses);
    expect(await countsHere(out.survey_id)).toEqual(source);
    // the answers left out are each reported (a deleted question's, a payment, calls to action)
    expect(out.skipped.filter((s: any) => s.kind === 'answer')).toHaveLength(lost);
  });
});

describe('bad input', () => {
  it("refuses a truncated file and another tool's file, writing nothing", async () => {
    const before = (await server.client.get('/v3/surveys', { token })).body.total;
    const cut = join(mkdtempSync(join(tmpdir(), 'import-json-')), 'cut-form.json');
    writeFileSync(cut, readFileSync(path('typeform', 'form.json')).subarray(0, 400));
    const truncated = await cli(['--from', 'typeform', '--file', cut, '--json']);
    expect(truncated.status).not.toBe(0);
    expect(truncated.stderr + truncated.stdout).toMatch(/not JSON.*complete/);
    const wrong = await cli(['--from', 'google-forms', '--file', path('typeform', 'form.json'), '--json']);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr + wrong.stdout).toMatch(/not what the tool exports/);
    expect((await server.client.get('/v3/surveys', { token })).body.total).toBe(before);
  });
});

describe('import-file --form-id: the same documents fetched from the API with a token', () => {
  let api: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    const tf = json('typeform', 'responses.json');
    const gf = json('google-forms', 'responses.json');
    // A real HTTP server answering as the tools' APIs do, from the fixture files.
    const routes: Record<string, unknown> = {
      '/forms/tfFORM01': json('typeform', 'form.json'),
      '/forms/tfFORM01/responses?page_size=1000': { items: tf.flatMap((p: any) => p.items) },
      '/forms/1FAIpQLSfGoogleForm': json('google-forms', 'form.json'),
      '/forms/1FAIpQLSfGoogleForm/responses': gf[0],
      '/forms/1FAIpQLSfGoogleForm/responses?pageToken=token-2': gf[1],
    };
    api = createServer((req, res) => {
      seen.push(req.url ?? '');
      const body = routes[req.url ?? ''];
      if (req.headers.authorization !== 'Bearer right-token') res.writeHead(401).end('{}');
      else if (!body) res.writeHead(404).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((ok) => api.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => api.close(() => ok())));

  it.each([
    { tool: 'typeform', id: 'tfFORM01', counts: typeformCounts },
    { tool: 'google-forms', id: '1FAIpQLSfGoogleForm', counts: googleCounts },
  ])('$tool: every page of responses lands, the rollups equal the source', async ({ tool, id, counts }) => {
    const r = await cli([
      '--from',
      tool,
      '--form-id',
      id,
      '--token',
      'right-token',
      '--api-url',
      base,
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(await countsHere(out.survey_id)).toEqual(counts());
  });

  it('refuses a wrong token, writing nothing', async () => {
    const before = (await server.client.get('/v3/surveys', { token })).body.total;
    const r = await cli([
      '--from',
      'typeform',
      '--form-id',
      'tfFORM01',
      '--token',
      'wrong',
      '--api-url',
      base,
      '--json',
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/answered 401 to \/forms\/tfFORM01: is the token right/);
    expect((await server.client.get('/v3/surveys', { token })).body.total).toBe(before);
    expect(seen).toContain('/forms/1FAIpQLSfGoogleForm/responses?pageToken=token-2');
  });
});
