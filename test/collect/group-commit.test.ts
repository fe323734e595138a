// Concurrent responses are written in groups (db/stores/responses-sqlite.ts, insert_responses() on
// PostgreSQL). Whatever happens to one response of a group, the others and every count stay
// exact: a collector's limit refuses exactly the surplus, and a response whose write fails after
// its collector was counted leaves no trace.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function collector(token: string, settings: Record<string, unknown> = {}) {
  const s = await server.client.post('/v3/surveys', { title: 'Group' }, { token });
  const c = await server.client.post(
    `/v3/surveys/${s.body.id}/collectors`,
    { type: 'weblink', ...settings },
    { token },
  );
  expect(c.status).toBe(201);
  return { surveyId: s.body.id as string, collectorId: c.body.id as string };
}

/** `n` responses posted at once (they share groups), each with its custom_value. */
function postAll(token: string, collectorId: string, values: string[]) {
  return Promise.all(
    values.map((custom_value) =>
      server.client.post(
        `/v3/collectors/${collectorId}/responses`,
        { custom_value, response_status: 'completed', pages: [] },
        { token },
      ),
    ),
  );
}

/** What the API says was counted: the collector's and survey's counts and the stored responses. */
async function counted(token: string, surveyId: string, collectorId: string) {
  const c = await server.client.get(`/v3/collectors/${collectorId}`, { token });
  const s = await server.client.get(`/v3/surveys/${surveyId}`, { token });
  const list = await server.client.get(`/v3/collectors/${collectorId}/responses/bulk?per_page=100`, {
    token,
  });
  return {
    collector: c.body.response_count as number,
    survey: s.body.response_count as number,
    stored: (list.body.data as Array<{ custom_value: string }>).map((r) => r.custom_value).sort(),
  };
}

describe('responses written together', () => {
  it("refuses exactly the responses past a collector's limit", async () => {
    const a = await server.account({ plan: 'premier' });
    const { surveyId, collectorId } = await collector(a.token, { response_limit: 5 });
    const values = Array.from({ length: 24 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    const answers = await postAll(a.token, collectorId, values);
    const accepted = values.filter((_, i) => answers[i].status === 201);
    expect(accepted).toHaveLength(5);
    for (const r of answers.filter((r) => r.status !== 201)) expect(r.status).toBe(409);
    expect(await counted(a.token, surveyId, collectorId)).toEqual({
      collector: 5,
      survey: 5,
      stored: accepted,
    });
  });

  it('keeps the rest of a group when one response fails after its collector was counted', async () => {
    const a = await server.account({ plan: 'premier' });
    const { surveyId, collectorId } = await collector(a.token);
    // A fault injected below the service: the responses row of 'boom' cannot be written.
    const k = server.deps.db.kysely;
    if (usingPostgres) {
      await sql`CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.custom_value = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`.execute(
        k,
      );
      await sql`CREATE TRIGGER boom BEFORE INSERT ON responses FOR EACH ROW EXECUTE FUNCTION boom()`.execute(
        k,
      );
    } else
      await sql`CREATE TRIGGER boom BEFORE INSERT ON responses WHEN new.custom_value = 'boom'
        BEGIN SELECT RAISE(ABORT, 'boom'); END`.execute(k);
    try {
      const values = Array.from({ length: 30 }, (_, i) =>
        i % 10 === 5 ? 'boom' : `r${String(i).padStart(2, '0')}`,
      );
      const answers = await postAll(a.token, collectorId, values);
      const accepted = values.filter((_, i) => answers[i].status === 201);
      expect(accepted).toEqual(values.filter((v) => v !== 'boom'));
      expect(await counted(a.token, surveyId, collectorId)).toEqual({
        collector: 27,
        survey: 27,
        stored: accepted,
      });
    } finally {
      await sql`DROP TRIGGER boom${sql.raw(usingPostgres ? ' ON responses' : '')}`.execute(k);
    }
  });
});
