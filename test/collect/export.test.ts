// The spec's "Export survey results" flow at scale: surveys → details → responses/bulk?per_page=100
// → follow links.next, reconstructing every answer of generated responses. EXPORT_RESPONSES sets
// how many (2,000 in the normal suite; the generator handles 100,000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryFamilySurvey, postGeneratedResponses } from './fixtures.js';

const COUNT = Number(process.env.EXPORT_RESPONSES ?? 2000);
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('export flow', () => {
  it(`reconstructs every answer of ${COUNT} generated responses`, { timeout: 600_000 }, async () => {
    const a = await server.account();
    const created = await createEveryFamilySurvey(server.client, a.token, 'Export me');
    const collector = await server.client.post(
      `/v3/surveys/${created.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    const sent = await postGeneratedResponses(server.client, a.token, collector.body.id, created, COUNT);

    // 1. surveys
    const surveys = await server.client.get('/v3/surveys?per_page=1000', { token: a.token });
    const sid = surveys.body.data.find((s: any) => s.title === 'Export me').id;
    // 2. details: the design, cached by the client to decode answers
    const details = await server.client.get(`/v3/surveys/${sid}/details`, { token: a.token });
    const choiceText = new Map<string, string>();
    for (const p of details.body.pages)
      for (const q of p.questions) for (const c of q.answers?.choices ?? []) choiceText.set(c.id, c.text);
    // 3-4. bulk pages, following links.next
    const got = new Map<string, any[]>();
    let url: string | undefined = `/v3/surveys/${sid}/responses/bulk?per_page=100`;
    let pages = 0;
    while (url) {
      const res: any = await server.client.get(url, { token: a.token });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(100);
      for (const r of res.body.data) got.set(r.id, r.pages);
      url = res.body.links.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(COUNT / 100));
    expect(got.size).toBe(COUNT);
    for (const [id, p] of sent) expect(got.get(id), id).toEqual(p);
    // every choice id in the export decodes through the cached design
    for (const p of got.values())
      for (const pg of p)
        for (const q of pg.questions)
          for (const ans of q.answers)
            if (ans.choice_id && !ans.row_id) expect(choiceText.has(ans.choice_id)).toBe(true);
  });
});
