// No secrets or answers in logs: `survey-service serve` runs as operators run it, at its most
// verbose level, while a person signs in with a password, an app exchanges an OAuth code, API
// calls carry bearer tokens (good and bad), and answers arrive through the API and the respondent
// page. Nothing the process writes to stdout or stderr may contain any of those values.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { WebSession } from '../helpers/fixtures.js';
import { freePort } from '../helpers/ports.js';
import { answerThrough } from '../invite/helpers.js';
import { authorize, exchange } from '../oauth/flow.js';

const REDIRECT = 'http://localhost:9/callback';
const PASSWORD = 'log-check password Vb8';
const API_ANSWER = 'api-answer-3f9c unmistakable';
const PAGE_ANSWER = 'page-answer-7d2e unmistakable';
let db: TestDatabase;
let serve: ReturnType<typeof startServeProcess>;
let url: string;
let output = '';
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  env = {
    DATABASE_URL: db.url,
    SECRET_KEY: 'log-test-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    PUBLIC_URL: url,
    PORT: String(port),
    // the test posts a respondent page at once: no time check, or the answer is kept aside as flagged
    RESPONDENT_MIN_PAGE_MS: '0',
  };
  runCliJson(['migrate'], env);
  serve = startServeProcess({ ...env, LOG_LEVEL: 'trace' });
  serve.child.stdout.on('data', (c) => {
    output += c;
  });
  serve.child.stderr.on('data', (c) => {
    output += c;
  });
  await serve.ready;
});
afterAll(async () => {
  await serve?.stop();
  await db.drop();
});

it('logs no password, token, client secret, code, session, Authorization header or answer', async () => {
  const secrets: Record<string, string> = {
    password: PASSWORD,
    'API answer': API_ANSWER,
    'page answer': PAGE_ANSWER,
  };
  runCliJson(
    [
      'user',
      'create',
      '--username',
      'logger',
      '--email',
      'logger@example.com',
      '--password',
      PASSWORD,
      '--plan',
      'premier',
    ],
    env,
  );
  const app = runCliJson(
    ['app', 'create', '--owner', 'logger', '--name', 'Log app', '--redirect-uri', REDIRECT],
    env,
  );
  secrets['client secret'] = app.client_secret;
  secrets['CLI token'] = app.access_token;

  // Sign-in: a wrong password first (a failure is recorded), then the right one.
  const web = new WebSession(url);
  expect((await web.signIn('logger', `${PASSWORD}-wrong`)).status).toBe(401);
  secrets['wrong password'] = `${PASSWORD}-wrong`;
  expect((await web.signIn('logger', PASSWORD)).status).toBe(303);
  secrets.session = web.cookies.get('ss_session')!;

  // OAuth: consent, code, exchange (and a failed exchange with a wrong secret).
  const code = (await authorize(web, { clientId: app.client_id, redirectUri: REDIRECT })).searchParams.get(
    'code',
  )!;
  secrets.code = code;
  const fields = { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: REDIRECT };
  expect((await exchange(url, { ...fields, client_secret: `${app.client_secret}x` })).status).toBe(401);
  const exchanged = await exchange(url, { ...fields, client_secret: app.client_secret });
  expect(exchanged.status).toBe(200);
  const token = exchanged.body.access_token as string;
  secrets['OAuth token'] = token;
  secrets['Authorization header'] = `bearer ${token}`;

  // API calls with good and bad tokens, and a response with a distinctive answer.
  const client = new ApiClient(url);
  const t = { token };
  expect((await client.get('/v3/users/me', t)).status).toBe(200);
  expect((await client.get('/v3/users/me', { token: `${token}x` })).status).toBe(401);
  const survey = await client.post(
    '/v3/surveys',
    {
      title: 'Logs',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Say' }] }] }],
    },
    t,
  );
  expect(survey.status, survey.text).toBe(201);
  const details = await client.get(`/v3/surveys/${survey.body.id}/details`, t);
  const page = details.body.pages[0];
  const question = page.questions[0];
  const collector = await client.post(`/v3/surveys/${survey.body.id}/collectors`, { type: 'weblink' }, t);
  const answer = (text: string) => ({
    pages: [{ id: page.id, questions: [{ id: question.id, answers: [{ text }] }] }],
  });
  const viaApi = await client.post(`/v3/collectors/${collector.body.id}/responses`, answer(API_ANSWER), t);
  expect(viaApi.status, viaApi.text).toBe(201);
  const bad = await client.post(
    `/v3/collectors/${collector.body.id}/responses`,
    { ...answer(API_ANSWER), x: 1 },
    t,
  );
  expect(bad.status).toBe(400);

  // The respondent page, as a browser without JavaScript.
  const link = new URL(collector.body.url);
  const viaPage = await answerThrough(`${url}${link.pathname}`, question.id, PAGE_ANSWER);
  expect(viaPage.status).toBeLessThan(400);
  const responses = await client.get(`/v3/surveys/${survey.body.id}/responses/bulk`, t);
  expect(responses.text).toContain(API_ANSWER);
  expect(responses.text).toContain(PAGE_ANSWER);

  // Give the process a moment to flush its logs, then read all it wrote.
  await new Promise((r) => setTimeout(r, 300));
  expect(output).toContain('listening');
  const leaked = Object.entries(secrets)
    .filter(([, value]) => value && output.includes(value))
    .map(([what]) => what);
  expect(leaked).toEqual([]);
  expect(Object.keys(secrets).length).toBeGreaterThanOrEqual(10);
});
