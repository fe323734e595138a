// Personal links on the respondent page: only recipients open an email collector's survey, the
// response carries its recipient (also in the response_completed webhook), and the response's
// edit_url continues at the recipient's link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';
import { answerThrough, emailCollector } from './helpers.js';

let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await server.close();
});

const onServer = (u: string) => {
  const url = new URL(u);
  return `${server.url}${url.pathname}${url.search}`;
};

describe('personal links', () => {
  it('open the survey only for recipients, tie the response to them and reopen it through edit_url', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { surveyId, collectorId, questionId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    expect((await server.client.patch(c, { edit_response_type: 'always' }, t)).status).toBe(200);
    const hook = await server.client.post(
      '/v3/webhooks',
      {
        name: 'done',
        event_type: 'response_completed',
        object_type: 'collector',
        object_ids: [collectorId],
        subscription_url: receiver.url,
      },
      t,
    );
    expect(hook.status).toBe(201);
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    const r = await server.client.post(
      `${c}/messages/${msg.body.id}/recipients`,
      { email: 'dana@example.org', first_name: 'Dana', last_name: 'Doe' },
      t,
    );
    expect(r.status).toBe(201);
    const link = onServer(r.body.survey_link);
    const collector = await server.client.get(c, t);
    expect(collector.body.url).toBeNull(); // no public link for an email collector

    const withoutRcp = await fetch(link.replace(/\?.*/, ''));
    expect(withoutRcp.status).toBe(404);

    const answered = await answerThrough(link, questionId, 'First thoughts');
    expect(answered.status).toBe(200);
    const list = await server.client.get(`${c}/responses/bulk`, t);
    const response = list.body.data[0];
    expect(response).toMatchObject({
      recipient_id: r.body.id,
      email_address: 'dana@example.org',
      first_name: 'Dana',
      last_name: 'Doe',
      survey_id: surveyId,
    });
    const status = await server.client.get(`${c}/recipients/${r.body.id}`, t);
    expect(status.body.survey_response_status).toBe('completely_responded');

    const worker = new OutboxWorker(server.deps);
    await worker.drain();
    await worker.stop();
    const posts = receiver.posts();
    expect(posts).toHaveLength(1);
    expect(posts[0].json.resources).toMatchObject({
      survey_id: surveyId,
      collector_id: collectorId,
      respondent_id: response.id,
      recipient_id: r.body.id,
    });

    const edit = await fetch(onServer(response.edit_url), { redirect: 'manual' });
    expect(edit.status).toBe(303);
    const location = edit.headers.get('location')!;
    expect(location).toBe(new URL(link).pathname + new URL(link).search);
    const cookie = (edit.headers.get('set-cookie') ?? '').split(';')[0];
    const reopened = await fetch(`${server.url}${location}`, { headers: { cookie } });
    expect(reopened.status).toBe(200);
    expect(await reopened.text()).toContain('First thoughts');
  });
});
