// GET /v3/surveys: an unfiltered list's total is the owner's survey count kept beside the surveys
// (survey_totals, migration 0041), exact after create, copy, delete and concurrent creates, with
// workgroup shares added on top; and a list's remembered answer (deps.caches.surveyAnswers) is
// never served after a change, whoever made it: this process, another one, or SQL by hand.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api } from '../sharing/fixtures.js';
import { makeTeam } from '../teams/fixtures.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const total = async (token: string, query = 'per_page=1') =>
  (await server.client.get(`/v3/surveys?${query}`, { token })).body.total as number;

describe('the total of GET /v3/surveys', () => {
  it('follows create, copy, delete and concurrent creates exactly', async () => {
    const a = await server.account();
    const other = await server.account();
    expect(await total(a.token)).toBe(0);
    const make = async (title: string, token = a.token) => {
      const res = await server.client.post('/v3/surveys', { title }, { token });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const first = await make('First');
    await make('Second');
    await make('Not mine', other.token);
    expect(await total(a.token)).toBe(2);
    const copy = await server.client.post('/v3/surveys', { from_survey_id: first }, { token: a.token });
    expect(copy.status).toBe(201);
    expect(await total(a.token)).toBe(3);
    expect((await server.client.delete(`/v3/surveys/${first}`, { token: a.token })).status).toBe(200);
    expect(await total(a.token)).toBe(2);

    await Promise.all(Array.from({ length: 12 }, (_, i) => make(`Concurrent ${i}`)));
    expect(await total(a.token)).toBe(14);
    // The count is the owner's row, and agrees with walking the list and with the other filters.
    const all = await server.client.get('/v3/surveys?per_page=1000', { token: a.token });
    expect(all.body.data).toHaveLength(14);
    expect(await total(a.token, 'per_page=1&include=owned')).toBe(14);
    expect(await total(a.token, 'per_page=1&title=concurrent')).toBe(12);
    expect(await total(other.token)).toBe(1);
    const [row] = (
      await sql<{
        surveys: number | string;
      }>`select surveys from survey_totals where owner_id = ${a.user.id}`.execute(server.deps.db.kysely)
    ).rows;
    expect(Number(row.surveys)).toBe(14);
  });

  it('adds the surveys shared with the user through a workgroup', async () => {
    const t = await makeTeam(server);
    const a = api(server);
    const staff = await a.survey(t.owner.token, 'Staff survey');
    await a.survey(t.regular.token, 'Own one');
    await a.survey(t.regular.token, 'Own two');
    const wg = await a.workgroup(t.owner.token, 'Readers', [t.regular.user.id]);
    expect(await total(t.regular.token)).toBe(2);
    await a.share(t.owner.token, wg.id, staff.id);
    expect(await total(t.regular.token)).toBe(3);
    expect(await total(t.regular.token, 'per_page=1&include=shared_with')).toBe(1);
    expect(await total(t.regular.token, 'per_page=1&include=owned')).toBe(2);
    const page = await server.client.get('/v3/surveys?per_page=2&page=2', { token: t.regular.token });
    expect(page.body.data).toHaveLength(1);
  });
});

describe('a remembered list answer', () => {
  it('is never served after a change by this process, another process or SQL by hand', async () => {
    const a = await server.account();
    const url = '/v3/surveys?per_page=10&include=date_modified,question_count';
    const titles = async (from = server) =>
      ((await from.client.get(url, { token: a.token })).body.data as Array<{ title: string }>).map(
        (s) => s.title,
      );
    const id = (await server.client.post('/v3/surveys', { title: 'Before' }, { token: a.token })).body.id;
    expect(await titles()).toEqual(['Before']);
    expect(await titles()).toEqual(['Before']);
    expect(server.deps.caches.surveyAnswers.size).toBeGreaterThan(0);

    await server.client.patch(`/v3/surveys/${id}`, { title: 'Renamed' }, { token: a.token });
    expect(await titles()).toEqual(['Renamed']);

    // Another process over the same database (its own caches) renames it; this one sees it at once.
    const second = await startServer({ databaseUrl: server.config.databaseUrl });
    try {
      const patched = await second.client.patch(
        `/v3/surveys/${id}`,
        { title: 'From elsewhere' },
        { token: a.token },
      );
      expect(patched.status, patched.text).toBe(200);
      expect(await titles()).toEqual(['From elsewhere']);
      await second.client.post('/v3/surveys', { title: 'Added elsewhere' }, { token: a.token });
      expect((await titles()).sort()).toEqual(['Added elsewhere', 'From elsewhere']);
    } finally {
      await second.close();
    }

    await sql`update surveys set title = 'By hand' where id = ${id}`.execute(server.deps.db.kysely);
    expect(await titles()).toContain('By hand');
  });

  it('shows a response count that is always current (such lists are not remembered)', async () => {
    const a = await server.account();
    const survey = (await server.client.post('/v3/surveys', { title: 'Counted' }, { token: a.token })).body;
    const count = async () =>
      (await server.client.get('/v3/surveys?include=response_count', { token: a.token })).body.data[0]
        .response_count as number;
    expect(await count()).toBe(0);
    await sql`update surveys set response_count = 5 where id = ${survey.id}`.execute(server.deps.db.kysely);
    expect(await count()).toBe(5);
  });
});
