// A response posted finished raises two events, response_created and its status event, though
// they are written as one events row (domain/core/events.ts oneRow): every webhook of either type hears
// of it once, each event with its own id, as for a response finished later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';

let server: TestServer;
let worker: OutboxWorker;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  worker = new OutboxWorker(server.deps, { pollMs: 5 });
});
afterAll(async () => {
  await worker.stop();
  await server.close();
});

const TYPES = ['response_created', 'response_completed', 'response_disqualified', 'response_updated'];

describe('events of a new response', () => {
  it('delivers response_created and the status event of each response, once each', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account({ plan: 'premier' });
      const { surveyId, collectorId } = await surveyWithCollector(server.client, a.token);
      for (const event_type of TYPES) {
        const res = await server.client.post(
          '/v3/webhooks',
          {
            name: event_type,
            event_type,
            object_type: 'survey',
            object_ids: [surveyId],
            subscription_url: `${receiver.url}/${event_type}`,
          },
          { token: a.token },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const post = async (response_status: string) => {
        const res = await server.client.post(
          `/v3/collectors/${collectorId}/responses`,
          { response_status, pages: [] },
          { token: a.token },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.id as string;
      };
      const completed = await post('completed');
      const partial = await post('partial');
      const disqualified = await post('disqualified');
      // The partial one finished later: response_updated and response_completed, as before.
      const patched = await server.client.patch(
        `/v3/surveys/${surveyId}/responses/${partial}`,
        { response_status: 'completed' },
        { token: a.token },
      );
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      await worker.drain();

      const got = receiver.posts().map((p) => ({
        path: p.path.split('/').pop(),
        type: p.json.event_type as string,
        response: p.json.object_id as string,
        eventId: p.json.event_id as string,
      }));
      const seen = (response: string) =>
        got
          .filter((g) => g.response === response)
          .map((g) => `${g.path}:${g.type}`)
          .sort();
      expect(seen(completed)).toEqual([
        'response_completed:response_completed',
        'response_created:response_created',
      ]);
      expect(seen(partial)).toEqual([
        'response_completed:response_completed',
        'response_created:response_created',
        'response_updated:response_updated',
      ]);
      expect(seen(disqualified)).toEqual([
        'response_created:response_created',
        'response_disqualified:response_disqualified',
      ]);
      // Every event its own id; the logs of the webhooks say the same.
      expect(new Set(got.map((g) => g.eventId)).size).toBe(got.length);
      expect(got).toHaveLength(7);
    } finally {
      await receiver.stop();
    }
  });
});
