// The numeric rollup: the statistics of a numerical question come from rows kept with
// every response write, edit and delete (response_numbers), and must equal what a scan of the
// responses gives: here, a scan of /v3/surveys/{id}/responses/bulk.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as numericRollup from '../../src/db/migrations/0039_numeric_rollup.js';
import { runCliJsonAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { prng } from './fixtures.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.account({ plan: 'premier' })).token;
});
afterAll(() => server.close());

const pages = [
  {
    title: 'Numbers',
    questions: [
      {
        family: 'open_ended',
        subtype: 'numerical',
        headings: [{ heading: 'Figures' }],
        answers: { rows: [{ text: 'Age' }, { text: 'Income' }] },
      },
    ],
  },
];

interface Setup {
  sid: string;
  pageId: string;
  qid: string;
  rows: string[];
  collectors: string[];
}

async function setup(): Promise<Setup> {
  const created = await server.client.post('/v3/surveys', { title: 'Numbers', pages }, { token });
  expect(created.status).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, { token })).body;
  const q = details.pages[0].questions[0];
  const collectors: string[] = [];
  for (let i = 0; i < 2; i++)
    collectors.push(
      (await server.client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink' }, { token })).body
        .id,
    );
  return {
    sid: details.id,
    pageId: details.pages[0].id,
    qid: q.id,
    rows: q.answers.rows.map((r: any) => r.id),
    collectors,
  };
}

function body(s: Setup, texts: Array<string | undefined>) {
  const answers = texts.flatMap((text, i) => (text === undefined ? [] : [{ row_id: s.rows[i], text }]));
  return { pages: [{ id: s.pageId, questions: answers.length ? [{ id: s.qid, answers }] : [] }] };
}

async function post(s: Setup, collector: string, texts: Array<string | undefined>): Promise<string> {
  const res = await server.client.post(`/v3/collectors/${collector}/responses`, body(s, texts), { token });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The statistics of every row, computed the obvious way from a scan of the bulk responses. */
async function scanned(s: Setup, collector?: string) {
  const values = new Map<string, number[]>(s.rows.map((r) => [r, []]));
  for (let page = 1; ; page++) {
    const res = await server.client.get(
      `/v3/surveys/${s.sid}/responses/bulk?per_page=100&page=${page}${collector ? `&collector_ids=${collector}` : ''}`,
      { token },
    );
    expect(res.status).toBe(200);
    for (const r of res.body.data)
      for (const p of r.pages)
        for (const q of p.questions)
          for (const a of q.answers) {
            const v = Number(a.text);
            if (a.text.trim() !== '' && Number.isFinite(v)) values.get(a.row_id)!.push(v);
          }
    if (!res.body.links.next) break;
  }
  const out = new Map<string, any>();
  for (const [row, vs] of values) {
    if (vs.length === 0) continue;
    const sorted = [...vs].sort((a, b) => a - b);
    const mean = vs.reduce((x, v) => x + v, 0) / vs.length;
    const mid = Math.floor(sorted.length / 2);
    out.set(row, {
      count: vs.length,
      min: sorted[0],
      max: sorted.at(-1),
      mean,
      median: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
      std: Math.sqrt(vs.reduce((x, v) => x + (v - mean) ** 2, 0) / vs.length),
    });
  }
  return out;
}

async function rolledUp(s: Setup, collector?: string) {
  const res = await server.client.get(
    `/v3/surveys/${s.sid}/rollups${collector ? `?collector_ids=${collector}` : ''}`,
    { token },
  );
  expect(res.status).toBe(200);
  const summary = res.body.data.find((d: any) => d.id === s.qid).summary[0];
  return new Map<string, any>(summary.rows.filter((r: any) => r.stats).map((r: any) => [r.id, r.stats]));
}

async function expectSame(s: Setup, collector?: string, medianPrecision?: number) {
  const [want, got] = await Promise.all([scanned(s, collector), rolledUp(s, collector)]);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [row, w] of want) {
    const g = got.get(row);
    expect(g.min).toBe(w.min);
    expect(g.max).toBe(w.max);
    expect(g.mean).toBeCloseTo(w.mean, 6);
    expect(g.std).toBeCloseTo(w.std, 4);
    if (medianPrecision === undefined) expect(g.median).toBe(w.median);
    else expect(Math.abs(g.median - w.median)).toBeLessThanOrEqual(Math.abs(w.median) * medianPrecision);
  }
}

describe('numeric rollup', () => {
  it('stays exact under concurrent posts, edits and deletes, per collector too', async () => {
    const s = await setup();
    const r = prng(29);
    const value = () => {
      const x = r();
      if (x < 0.1) return ' ';
      if (x < 0.2) return undefined;
      if (x < 0.5) return String(Math.floor(r() * 20) - 5);
      return (Math.round(r() * 100000) / 100).toString();
    };
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(s, s.collectors[i % 2], [value(), value()])),
    );
    await expectSame(s);
    // the extremes move: the largest answer raised, the smallest removed, one answer dropped
    const top = (await rolledUp(s)).get(s.rows[1]);
    const patched = await server.client.patch(
      `/v3/surveys/${s.sid}/responses/${ids[3]}`,
      body(s, ['7', String(top.max + 1000.5)]),
      { token },
    );
    expect(patched.status).toBe(200);
    const put = await server.client.put(`/v3/surveys/${s.sid}/responses/${ids[4]}`, body(s, ['-12.25']), {
      token,
    });
    expect(put.status).toBe(200);
    for (const id of ids.slice(10, 16)) {
      const del = await server.client.delete(`/v3/surveys/${s.sid}/responses/${id}`, { token });
      expect(del.status).toBe(200);
    }
    await expectSame(s);
    await expectSame(s, s.collectors[0]);
    await expectSame(s, s.collectors[1]);
    // every answer of a row gone: no statistics for it, as with no answers at all
    for (const id of ids.filter((_, i) => i < 10 || i >= 16)) {
      const del = await server.client.delete(`/v3/surveys/${s.sid}/responses/${id}`, { token });
      expect(del.status).toBe(200);
    }
    expect((await rolledUp(s)).size).toBe(0);
  });

  it('past 1,000 distinct values: count, min, max and mean exact, the median within 1%', async () => {
    const s = await setup();
    const r = prng(7);
    const values = Array.from({ length: 1010 }, () => String(Math.round(r() * 1e7) / 100));
    for (let i = 0; i < values.length; i += 100)
      await Promise.all(values.slice(i, i + 100).map((v) => post(s, s.collectors[0], [v])));
    await expectSame(s, undefined, 0.01);
  });

  it("the migration's backfill sums the responses written before it", async () => {
    const s = await setup();
    for (const v of ['3', '4.5', '-1', '4.5', '100'])
      await post(s, s.collectors[v === '100' ? 1 : 0], [v, String(Number(v) * 2)]);
    // Back to the database as it was before the migration, with the responses in it.
    const k = server.deps.db.kysely;
    await numericRollup.down(k as unknown as Kysely<unknown>);
    await sql`DELETE FROM kysely_migration WHERE name = '0039_numeric_rollup'`.execute(k);
    const migrated = await runCliJsonAsync(['migrate'], { DATABASE_URL: server.config.databaseUrl });
    expect(migrated.applied).toEqual(['0039_numeric_rollup']);
    await expectSame(s);
    await expectSame(s, s.collectors[0]);
    // and the group write keeps adding to the backfilled rows
    await post(s, s.collectors[0], ['5', '-7']);
    await expectSame(s);
  });
});
