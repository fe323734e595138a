// Who a reminder or thank-you message reaches, by recipient_status: decided when it is sent,
// from the responses tied to each recipient.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { emailCollector } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } }); // nothing is delivered here
});
afterAll(async () => {
  await server.close();
});

describe('reminder and thank-you audiences', () => {
  it.each([
    ['reminder', undefined, ['none', 'partial']],
    ['reminder', 'partially_responded', ['partial']],
    ['thank_you', undefined, ['done']],
    ['thank_you', 'responded', ['done', 'partial']],
    ['thank_you', 'partially_responded', ['partial']],
  ] as const)('%s with recipient_status %s reaches %j', async (type, recipientStatus, expected) => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId, questionId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const details = await server.client.get(`${c}`, t);
    const invite = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    const bulk = await server.client.post(
      `${c}/messages/${invite.body.id}/recipients/bulk`,
      { contacts: ['none', 'partial', 'done'].map((n) => ({ email: `${n}@example.org` })) },
      t,
    );
    const ids = Object.fromEntries(bulk.body.succeeded.map((r: any) => [r.email.split('@')[0], r.id]));
    expect((await server.client.post(`${c}/messages/${invite.body.id}/send`, {}, t)).status).toBe(200);
    const survey = await server.client.get(`/v3/surveys/${details.body.survey_id}/details`, t);
    const pageId = survey.body.pages[0].id;
    for (const [who, status] of [
      ['partial', 'partial'],
      ['done', 'completed'],
    ] as const) {
      const res = await server.client.post(
        `${c}/responses`,
        {
          recipient_id: ids[who],
          response_status: status,
          pages: [{ id: pageId, questions: [{ id: questionId, answers: [{ text: who }] }] }],
        },
        t,
      );
      expect(res.status, res.text).toBe(201);
    }
    const msg = await server.client.post(
      `${c}/messages`,
      recipientStatus ? { type, recipient_status: recipientStatus } : { type },
      t,
    );
    expect(msg.status, msg.text).toBe(201);
    const sent = await server.client.post(`${c}/messages/${msg.body.id}/send`, {}, t);
    expect(sent.status, sent.text).toBe(200);
    const reached = await server.client.get(`${c}/messages/${msg.body.id}/recipients`, t);
    expect(reached.body.data.map((r: any) => r.email.split('@')[0]).sort()).toEqual([...expected].sort());
    expect(sent.body.recipients).toHaveLength(expected.length);
  });

  it('refuses a recipient_status that does not fit the message type (400/1002)', async () => {
    const a = await server.account();
    const { collectorId } = await emailCollector(server.client, a.token);
    for (const body of [
      { type: 'invite', recipient_status: 'completed' },
      { type: 'reminder', recipient_status: 'completed' },
      { type: 'thank_you', recipient_status: 'has_not_responded' },
      { type: 'sms' },
    ]) {
      const res = await server.client.post(`/v3/collectors/${collectorId}/messages`, body, {
        token: a.token,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
  });
});
