// The end-to-end webhook check: a real receiver subscribes to response_completed of a real
// survey; a response is submitted through the API and through the respondent page (plain HTTP
// form posts, as a browser without JavaScript sends them); the receiver gets a POST signed as
// documented whose object is the response and whose resources name the survey and collector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from './helpers/receiver.js';
import { verifySmSignature } from './helpers/verify.js';

let server: TestServer;
let worker: OutboxWorker;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  worker = new OutboxWorker(server.deps);
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await worker.stop();
  await receiver.stop();
  await server.close();
});

/** A one-question survey with a weblink collector, and a webhook on its completed responses. */
async function watchedSurvey(a: TestAccount, path: string) {
  const token = a.token;
  const s = await server.client.post(
    '/v3/surveys',
    {
      title: 'Feedback',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] }] }],
    },
    { token },
  );
  expect(s.status).toBe(201);
  const details = await server.client.get(`/v3/surveys/${s.body.id}/details`, { token });
  const page = details.body.pages[0];
  const question = page.questions[0];
  const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, { token });
  expect(c.status).toBe(201);
  const hook = await server.client.post(
    '/v3/webhooks',
    {
      name: 'Completed',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [s.body.id],
      subscription_url: `${receiver.url}/${path}`,
    },
    { token },
  );
  expect(hook.status).toBe(201);
  return {
    surveyId: s.body.id as string,
    collectorId: c.body.id as string,
    url: c.body.url as string,
    pageId: page.id as string,
    questionId: question.id as string,
  };
}

async function deliveredTo(path: string) {
  await worker.drain();
  return receiver.posts().filter((p) => p.path === `/hook/${path}`);
}

function expectSignedFor(
  got: Awaited<ReturnType<typeof deliveredTo>>[number],
  a: TestAccount,
  w: { surveyId: string; collectorId: string },
  responseId: string,
) {
  expect(got.headers['content-type']).toBe('application/json');
  expect(got.headers['sm-apikey']).toBe(a.app.client_id);
  // As a receiver verifies it: HMAC-SHA1 of the raw body keyed "client_id&client_secret".
  expect(
    verifySmSignature(got.raw, a.app.client_id, a.clientSecret, String(got.headers['sm-signature'])),
  ).toBe(true);
  expect(
    verifySmSignature(`${got.raw} `, a.app.client_id, a.clientSecret, String(got.headers['sm-signature'])),
  ).toBe(false);
  expect(got.json).toMatchObject({
    name: 'Completed',
    filter_type: 'survey',
    filter_id: w.surveyId,
    event_type: 'response_completed',
    object_type: 'response',
    object_id: responseId,
    resources: {
      survey_id: w.surveyId,
      collector_id: w.collectorId,
      user_id: a.user.id,
      respondent_id: responseId,
      recipient_id: '',
    },
  });
}

describe('response_completed reaches a real receiver', () => {
  it('for a response created with POST /collectors/{id}/responses', async () => {
    const a = await server.account();
    const w = await watchedSurvey(a, 'api');
    const res = await server.client.post(
      `/v3/collectors/${w.collectorId}/responses`,
      { pages: [{ id: w.pageId, questions: [{ id: w.questionId, answers: [{ text: 'Because' }] }] }] },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    const posts = await deliveredTo('api');
    expect(posts).toHaveLength(1);
    expectSignedFor(posts[0], a, w, res.body.id);
  });

  it('for a response submitted on the respondent page /r/<token>', async () => {
    const a = await server.account();
    const w = await watchedSurvey(a, 'page');
    const path = new URL(w.url).pathname;
    expect(path).toMatch(/^\/r\/./);
    const first = await fetch(`${server.url}${path}`);
    expect(first.status).toBe(200);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await first.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
    const form = new URLSearchParams({
      csrf: field('csrf'),
      p: field('p'),
      started: field('started'),
      nav: 'next',
      [`q_${w.questionId}`]: 'From the page',
    });
    const post = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(post.status).toBe(200);
    expect(await post.text()).toMatch(/Thank you/i);
    const responses = await server.client.get(`/v3/collectors/${w.collectorId}/responses`, {
      token: a.token,
    });
    expect(responses.body.total).toBe(1);
    const posts = await deliveredTo('page');
    expect(posts).toHaveLength(1);
    expectSignedFor(posts[0], a, w, responses.body.data[0].id);
  });
});
