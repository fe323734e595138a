// The survey list's title search (GET /v3/surveys?title=) reads the matching surveys through an
// index (migration 0031), and answers as the account-wide scan did: kept up by create, rename and
// delete, case-insensitive, and exact for terms the index cannot serve (short ones, wildcards).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('GET /v3/surveys?title=', () => {
  it('finds titles containing the term as surveys are created, renamed and deleted', async () => {
    const a = await server.account();
    const b = await server.account();
    const make = async (title: string, token = a.token) =>
      (await server.client.post('/v3/surveys', { title }, { token })).body.id as string;
    const titles = async (term: string) =>
      (
        await server.client.get(`/v3/surveys?per_page=100&sort_by=title&title=${encodeURIComponent(term)}`, {
          token: a.token,
        })
      ).body;
    const q1 = await make('Quarterly review Q1');
    await make('Annual QUARTERLY digest');
    await make('Weekly pulse');
    await make('100% sure_thing');
    await make('Quarterly of someone else', b.token);
    await make('Ünïcödé Straße');

    expect((await titles('quarterly')).data.map((s: any) => s.title)).toEqual([
      'Annual QUARTERLY digest',
      'Quarterly review Q1',
    ]);
    expect((await titles('uarterly r')).total).toBe(1);
    expect((await titles('ly')).total).toBe(3);
    expect((await titles('0%')).data.map((s: any) => s.title)).toEqual(['100% sure_thing']);
    expect((await titles('e_t')).total).toBe(1);
    expect((await titles('straße')).total).toBe(1);
    expect((await titles('nothing like it')).total).toBe(0);

    await server.client.patch(`/v3/surveys/${q1}`, { title: 'Monthly review' }, { token: a.token });
    expect((await titles('quarterly')).total).toBe(1);
    expect((await titles('monthly')).data.map((s: any) => s.id)).toEqual([q1]);
    await server.client.delete(`/v3/surveys/${q1}`, { token: a.token });
    expect((await titles('monthly')).total).toBe(0);
  });

  it('reads the trigram index on SQLite, not every survey of the account', async () => {
    if (server.deps.db.dialect !== 'sqlite') return;
    const rows = await sql<{
      name: string;
    }>`select name from sqlite_master where name = 'surveys_title'`.execute(server.deps.db.kysely);
    expect(rows.rows).toEqual([{ name: 'surveys_title' }]);
    const a = await server.account();
    await server.client.post('/v3/surveys', { title: 'Indexed title' }, { token: a.token });
    const [fromIndex] = (
      await sql<{
        n: number;
      }>`select count(*) as n from surveys_title where title like '%ndexed tit%'`.execute(
        server.deps.db.kysely,
      )
    ).rows;
    expect(fromIndex.n).toBe(1);
  });
});
