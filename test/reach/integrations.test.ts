// The /integrations page over HTTP (a cookie-keeping client) with a real HTTP receiver: all of the
// account's webhooks listed whichever app made them, one made from the page (the API's checks),
// signed with the secret its page shows, paused and resumed, its delivery log and "send again",
// the Slack-compatible format, another account kept out, and deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { responseCompleted } from './helpers/events.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';
import { verifyStandardSignature } from './helpers/verify.js';

let server: TestServer;
let worker: OutboxWorker;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  worker = new OutboxWorker(server.deps, { pollMs: 5 });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await receiver?.stop();
});

async function create(web: WebSession, form: Record<string, string>) {
  const _csrf = await web.csrf('/integrations');
  return web.post('/integrations', {
    _csrf,
    name: 'From the page',
    event_type: 'response_completed',
    object_type: 'survey',
    object_ids: '',
    format: 'surveymonkey',
    ...form,
  });
}

async function act(web: WebSession, hookPath: string, action: string, form: Record<string, string> = {}) {
  const _csrf = await web.csrf(hookPath);
  return web.post(`${hookPath}${action}`, { _csrf, ...form });
}

describe('/integrations', () => {
  it('lists, makes, signs, pauses, resends and deletes webhooks', async () => {
    const a = await server.account();
    const watched = await surveyWithCollector(server.client, a.token, 'Lunch <poll> & more');
    const byApi = await server.client.post(
      '/v3/webhooks',
      {
        name: 'Made by the app',
        event_type: 'survey_created',
        subscription_url: `${receiver.url}/api`,
      },
      { token: a.token },
    );
    expect(byApi.status).toBe(201);
    const web = await signIn(server, a);

    // Refused the way the API refuses: the same domain checks, the error shown beside the form.
    const bad = await create(web, { subscription_url: 'ftp://example.com/x' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('subscription_url must be http or https.');
    receiver.headStatus = 405;
    const unreachable = await create(web, { subscription_url: `${receiver.url}/no-head` });
    expect(unreachable.status).toBe(400);
    expect(unreachable.text).toContain('must answer a HEAD request with 200');
    const notMine = await create(web, { object_ids: '999999999', subscription_url: `${receiver.url}/x` });
    expect(notMine.status).toBeGreaterThanOrEqual(400);

    // The Slack-compatible format takes an address that only takes POSTs.
    const slack = await create(web, {
      name: 'Slack',
      format: 'slack',
      subscription_url: `${receiver.url}/slack`,
    });
    expect(slack.status).toBe(303);
    receiver.headStatus = 200;
    const made = await create(web, {
      object_ids: watched.surveyId,
      subscription_url: `${receiver.url}/page`,
    });
    expect(made.status).toBe(303);
    const hookPath = made.location!.split('?')[0];
    const detail = await web.get(made.location!);
    expect(detail.text).toContain('The webhook is created.');
    const secret = /<code id="secret">(whsec_[^<]+)<\/code>/.exec(detail.text)![1];

    const list = await web.get('/integrations');
    expect(list.text).toContain('Made by the app');
    expect(list.text).toContain('From the page');
    expect(list.text).toContain('<span class="badge accent">Slack</span>');

    // A completed response: the page-made webhook is signed with its shown secret, no app headers.
    const first = await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    const toPage = receiver.posts().filter((p) => p.path === '/hook/page');
    expect(toPage).toHaveLength(1);
    expect(toPage[0].json.event_type).toBe('response_completed');
    expect(toPage[0].headers['sm-apikey']).toBeUndefined();
    expect(verifyStandardSignature(toPage[0].raw, secret, toPage[0].headers)).toBe(true);
    const toSlack = receiver.posts().filter((p) => p.path === '/hook/slack');
    expect(toSlack).toHaveLength(1);
    expect(toSlack[0].json).toEqual({
      text: `A response was completed in survey “Lunch &lt;poll&gt; &amp; more” (${watched.surveyId}) — id ${first.responseId}.`,
    });

    // The log shows the delivery; "send again" sends the same body again.
    let log = await web.get(hookPath);
    expect(log.text).toMatch(/<span class="badge ok">delivered<\/span>/);
    const deliveryAction = /action="(\/integrations\/\d+\/deliveries\/\d+\/again)"/.exec(log.text)![1];
    const again = await act(web, hookPath, deliveryAction.slice(hookPath.length));
    expect(again.location).toContain('done=again');
    await worker.drain();
    const resent = receiver.posts().filter((p) => p.path === '/hook/page');
    expect(resent).toHaveLength(2);
    expect(resent[1].raw).toBe(resent[0].raw);

    // Paused: nothing is made or sent; resumed: sent again.
    expect((await act(web, hookPath, '/pause', { paused: 'yes' })).location).toContain('done=paused');
    log = await web.get(hookPath);
    expect(log.text).toContain('<span class="badge ">paused</span>');
    await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.path === '/hook/page')).toHaveLength(2);
    expect((await act(web, hookPath, '/pause', { paused: 'no' })).location).toContain('done=resumed');
    await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.path === '/hook/page')).toHaveLength(3);

    // Another account sees none of it.
    const b = await server.account();
    const other = await signIn(server, b);
    expect((await other.get(hookPath)).status).toBe(404);
    expect((await other.get('/integrations')).text).not.toContain('From the page');
    const _csrf = await other.csrf('/integrations');
    expect((await other.post(`${hookPath}/pause`, { _csrf, paused: 'yes' })).status).toBe(404);

    // Deleting asks first without script, then deletes the webhook and its log.
    const asked = await act(web, hookPath, '/delete');
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Delete the webhook &quot;From the page&quot;?');
    expect((await act(web, hookPath, '/delete', { confirm: 'yes' })).location).toBe(
      '/integrations?done=deleted',
    );
    expect((await web.get(hookPath)).status).toBe(404);
    const apiView = await server.client.get(`/v3/webhooks/${byApi.body.id}`, { token: a.token });
    expect(apiView.status).toBe(200);
  });
});

describe('the format and the pause through the API (extensions)', () => {
  it('creates a Slack-format webhook, pauses and resumes it with PATCH, and leaves default objects as they were', async () => {
    const a = await server.account();
    const watched = await surveyWithCollector(server.client, a.token, 'API poll');
    const api = (method: 'post' | 'patch' | 'get', path: string, body?: object) =>
      method === 'get'
        ? server.client.get(path, { token: a.token })
        : server.client[method](path, body ?? {}, { token: a.token });
    // A default webhook's object has neither field.
    const plain = await api('post', '/v3/webhooks', {
      name: 'Plain',
      event_type: 'survey_created',
      subscription_url: `${receiver.url}/plain`,
    });
    expect(plain.status).toBe(201);
    expect(plain.body).not.toHaveProperty('format');
    expect(plain.body).not.toHaveProperty('paused');
    // Slack needs no HEAD answer (an incoming webhook takes POSTs only).
    receiver.headStatus = 405;
    const slack = await api('post', '/v3/webhooks', {
      name: 'To Slack',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [watched.surveyId],
      subscription_url: `${receiver.url}/api-slack`,
      format: 'slack',
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    expect(slack.body.format).toBe('slack');
    const bad = await api('post', '/v3/webhooks', {
      name: 'Odd',
      event_type: 'survey_created',
      subscription_url: `${receiver.url}/odd`,
      format: 'teams',
    });
    expect(bad.status).toBe(400);
    // Back to the SurveyMonkey format, the address must answer HEAD again.
    const back = await api('patch', `/v3/webhooks/${slack.body.id}`, { format: 'surveymonkey' });
    expect(back.status).toBe(400);
    expect(back.body.error.id).toBe('1000');
    receiver.headStatus = 200;

    const path = `/v3/webhooks/${slack.body.id}`;
    const paused = await api('patch', path, { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ paused: true, format: 'slack' });
    expect((await api('get', path)).body.paused).toBe(true);
    await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.path === '/hook/api-slack')).toHaveLength(0);
    const resumed = await api('patch', path, { paused: false, name: 'Slack again' });
    expect(resumed.body).not.toHaveProperty('paused');
    expect(resumed.body.name).toBe('Slack again');
    await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    const sent = receiver.posts().filter((p) => p.path === '/hook/api-slack');
    expect(sent).toHaveLength(1);
    expect(sent[0].json.text).toContain('A response was completed in survey “API poll”');
  });
});
