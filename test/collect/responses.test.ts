import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryFamilySurvey, prng, randomAnswers } from './fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:30.500Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

async function setup(plan: 'premier' | 'basic' = 'premier') {
  const a = await server.account({ plan: 'premier' });
  const details = await createEveryFamilySurvey(server.client, a.token);
  const c = await server.client.post(
    `/v3/surveys/${details.id}/collectors`,
    { type: 'weblink' },
    { token: a.token },
  );
  if (plan === 'basic')
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', a.user.id)
      .execute();
  return { a, details, collectorId: c.body.id as string, sid: details.id as string };
}

const events = (type: string, id: string) =>
  server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('type', '=', type)
    .where('resource_id', '=', id)
    .execute();

describe('POST /collectors/{id}/responses and reading back', () => {
  it('stores answers to every family and returns them from every read form', async () => {
    const { a, details, collectorId, sid } = await setup();
    const pages = randomAnswers(details, prng(7), 3);
    const res = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      {
        pages,
        custom_variables: { ref: 'x' },
        custom_value: 'cv',
        ip_address: '10.0.0.1',
        date_created: '2026-06-01T11:58:00+00:00',
      },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      survey_id: sid,
      collector_id: collectorId,
      response_status: 'completed',
      custom_value: 'cv',
      custom_variables: { ref: 'x' },
      ip_address: '10.0.0.1',
      recipient_id: '',
      collection_mode: 'default',
      logic_path: {},
      // the path the answers take (no skip logic here: every page)
      page_path: details.pages.map((p: { id: string }) => p.id),
      date_created: '2026-06-01T11:58:00+00:00',
      date_modified: '2026-06-01T12:00:30+00:00',
      total_time: 150,
      href: `${server.url}/v3/collectors/${collectorId}/responses/${res.body.id}`,
    });
    expect(res.body.pages).toEqual(pages);
    expect(res.body.edit_url).toMatch(/\/r\/\?sm=/);
    expect(res.body.analyze_url).toContain(`respondent_id=${res.body.id}`);
    const rid = res.body.id;
    for (const path of [
      `/v3/surveys/${sid}/responses/${rid}/details`,
      `/v3/collectors/${collectorId}/responses/${rid}/details`,
    ]) {
      const got = await server.client.get(path, { token: a.token });
      expect(got.status).toBe(200);
      expect(got.body.pages).toEqual(pages);
      expect(got.body.current_page_id).toBe('0');
    }
    const plain = await server.client.get(`/v3/surveys/${sid}/responses/${rid}`, { token: a.token });
    expect(plain.body.pages).toBeUndefined();
    expect(plain.body.href).toBe(`${server.url}/v3/surveys/${sid}/responses/${rid}`);
    // Both events in one row (domain/core/events.ts oneRow); test/reach/response-events.test.ts sees both delivered.
    const [created] = await events('response_created', rid);
    expect(JSON.parse(created.data).next_event).toMatchObject({ type: 'response_completed' });
    const survey = await server.client.get(`/v3/surveys/${sid}`, { token: a.token });
    expect(survey.body.response_count).toBe(1);
    const collector = await server.client.get(`/v3/collectors/${collectorId}`, { token: a.token });
    expect(collector.body.response_count).toBe(1);

    const simple = await server.client.get(`/v3/surveys/${sid}/responses/${rid}/details?simple=true`, {
      token: a.token,
    });
    const colour = simple.body.pages[0].questions[0];
    expect(colour).toMatchObject({
      family: 'single_choice',
      subtype: 'vertical',
      heading: 'Favourite colour?',
    });
    expect(['Red', 'Blue', 'other 3']).toContain(colour.answers[0].simple_text);
    const onlyPage = await server.client.get(
      `/v3/surveys/${sid}/responses/${rid}/details?page_ids=${details.pages[1].id}`,
      { token: a.token },
    );
    expect(onlyPage.body.pages.map((p: any) => p.id)).toEqual([details.pages[1].id]);
    const qid = details.pages[2].questions[0].id;
    const onlyQ = await server.client.get(`/v3/surveys/${sid}/responses/${rid}/details?question_ids=${qid}`, {
      token: a.token,
    });
    expect(onlyQ.body.pages.flatMap((p: any) => p.questions.map((q: any) => q.id))).toEqual([qid]);
  });

  it('refuses answers that do not fit the survey, naming what is wrong (400/1002)', async () => {
    const { a, details, collectorId } = await setup();
    const [p1, p2] = details.pages;
    const colour = p1.questions[1];
    const fruit = p1.questions[3];
    const matrix = p2.questions[0];
    const menu = p2.questions[4];
    const cases: Array<[unknown, string]> = [
      [[{ id: '999', questions: [] }], 'is not a page'],
      [[{ id: p1.id, questions: [{ id: '1', answers: [] }] }], 'is not a question'],
      [[{ id: p1.id, questions: [{ id: matrix.id, answers: [] }] }], `not on page ${p1.id}`],
      [
        [
          {
            id: p1.id,
            questions: [{ id: colour.id, answers: [{ choice_id: fruit.answers.choices[0].id }] }],
          },
        ],
        'is not a choice',
      ],
      [
        [{ id: p1.id, questions: [{ id: colour.id, answers: [{ text: 'hi' }] }] }],
        "'pages.0.questions.0.answers.0.text' is not allowed",
      ],
      [
        [
          {
            id: p1.id,
            questions: [
              { id: colour.id, answers: colour.answers.choices.map((c: any) => ({ choice_id: c.id })) },
            ],
          },
        ],
        'single_choice questions take one',
      ],
      [
        [{ id: p1.id, questions: [{ id: colour.id, answers: [{ other_id: '5', text: 'x' }] }] }],
        '"other" option',
      ],
      [
        [
          {
            id: p2.id,
            questions: [{ id: matrix.id, answers: [{ choice_id: matrix.answers.choices[0].id }] }],
          },
        ],
        'row_id',
      ],
      [
        [
          {
            id: p2.id,
            questions: [
              { id: menu.id, answers: [{ row_id: menu.answers.rows[0].id, col_id: '1', choice_id: '2' }] },
            ],
          },
        ],
        'is not a column',
      ],
      [
        [{ id: p1.id, questions: [{ id: p1.questions[0].id, answers: [{ text: 'x' }] }] }],
        'not allowed for presentation',
      ],
      [
        [
          {
            id: p1.id,
            questions: [{ id: colour.id, answers: [{ choice_id: colour.answers.choices[0].id, bogus: 1 }] }],
          },
        ],
        'bogus',
      ],
    ];
    for (const [pages, message] of cases) {
      const res = await server.client.post(
        `/v3/collectors/${collectorId}/responses`,
        { pages },
        { token: a.token },
      );
      expect(res.status, message).toBe(400);
      expect(errorCode(res)).toBe('1002');
      expect(res.body.error.message).toContain(message);
    }
    const badDate = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      { pages: [], date_created: 'yesterday' },
      { token: a.token },
    );
    expect(errorCode(badDate)).toBe('1002');
    const badStatus = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      { response_status: 'new' },
      { token: a.token },
    );
    expect(errorCode(badStatus)).toBe('1002');
  });

  it('wrong scope, basic plan, someone else’s collector, no token', async () => {
    const { a, collectorId, sid } = await setup();
    const reader = await server.account({ scopes: ['responses_read'] });
    expect(
      errorCode(
        await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: reader.token }),
      ),
    ).toBe('1014');
    const basic = await server.account({ plan: 'basic' });
    expect(
      errorCode(
        await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: basic.token }),
      ),
    ).toBe('1015');
    const other = await server.account();
    expect(
      errorCode(
        await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: other.token }),
      ),
    ).toBe('1020');
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/responses`, { token: other.token }))).toBe(
      '1020',
    );
    expect(
      errorCode(await server.client.get(`/v3/surveys/${sid}/responses/bulk`, { token: other.token })),
    ).toBe('1020');
    expect(errorCode(await server.client.post(`/v3/collectors/${collectorId}/responses`, {}))).toBe('1010');
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/responses/bulk`))).toBe('1010');
    const noDetail = await server.account({ scopes: ['responses_read'] });
    expect(
      errorCode(await server.client.get(`/v3/surveys/${sid}/responses/bulk`, { token: noDetail.token })),
    ).toBe('1014');
    const created = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      {},
      { token: a.token },
    );
    expect(created.status).toBe(201);
    for (const path of [
      `/v3/surveys/${sid}/responses/${created.body.id}`,
      `/v3/surveys/${sid}/responses/${created.body.id}/details`,
      `/v3/collectors/${collectorId}/responses/${created.body.id}`,
    ])
      expect(errorCode(await server.client.get(path, { token: other.token }))).toBe('1020');
    expect(
      errorCode(
        await server.client.delete(`/v3/surveys/${sid}/responses/${created.body.id}`, { token: other.token }),
      ),
    ).toBe('1020');
    expect(
      errorCode(
        await server.client.delete(`/v3/collectors/${collectorId}/responses`, { token: other.token }),
      ),
    ).toBe('1020');
    // a response of another survey is not found through this survey
    const { a: b, collectorId: otherCollector } = await setup();
    const foreign = await server.client.post(
      `/v3/collectors/${otherCollector}/responses`,
      {},
      { token: b.token },
    );
    expect(
      (await server.client.get(`/v3/surveys/${sid}/responses/${foreign.body.id}`, { token: a.token })).status,
    ).toBe(404);
  });
});

describe('lists, bulk and filters', () => {
  it('filters by every parameter and pages bulk at most 100', async () => {
    const { a, details, collectorId, sid } = await setup();
    const c2 = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    const post = (cid: string, body: any) =>
      server.client.post(`/v3/collectors/${cid}/responses`, body, { token: a.token });
    clock.set('2026-06-02T10:00:00Z');
    const r1 = await post(collectorId, {
      custom_value: 'alpha',
      ip_address: '1.1.1.1',
      date_created: '2026-06-02T09:59:00Z',
    });
    clock.set('2026-06-03T10:00:00Z');
    const r2 = await post(collectorId, {
      response_status: 'partial',
      ip_address: '2.2.2.2',
      date_created: '2026-06-03T08:00:00Z',
    });
    clock.set('2026-06-04T10:00:00Z');
    const r3 = await post(c2.body.id, {
      response_status: 'disqualified',
      pages: randomAnswers(details, prng(1), 1),
      date_created: '2026-06-04T09:59:30Z',
    });
    const ids = async (query: string, path = `/v3/surveys/${sid}/responses`) => {
      const res = await server.client.get(`${path}?${query}`, { token: a.token });
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      return res.body.data.map((d: any) => d.id);
    };
    expect(await ids('')).toEqual([r1.body.id, r2.body.id, r3.body.id]);
    expect(await ids('status=partial')).toEqual([r2.body.id]);
    expect(await ids('custom=alpha')).toEqual([r1.body.id]);
    expect(await ids('ip=2.2.2.2')).toEqual([r2.body.id]);
    expect(await ids('start_created_at=2026-06-03T00:00:00')).toEqual([r2.body.id, r3.body.id]);
    expect(await ids('end_created_at=2026-06-03T00:00:00%2B00:00')).toEqual([r1.body.id]);
    expect(await ids('start_modified_at=2026-06-04T00:00:00')).toEqual([r3.body.id]);
    expect(await ids('end_modified_at=2026-06-02T23:00:00')).toEqual([r1.body.id]);
    expect(await ids('total_time_min=1&total_time_units=hour')).toEqual([r2.body.id]);
    expect(await ids('total_time_max=60')).toEqual([r1.body.id, r3.body.id]);
    expect(await ids('total_time_max=1&total_time_units=minute')).toEqual([r1.body.id, r3.body.id]);
    expect(await ids('sort_by=date_modified&sort_order=DESC')).toEqual([r3.body.id, r2.body.id, r1.body.id]);
    expect(await ids(`collector_ids=${c2.body.id}`)).toEqual([r3.body.id]);
    expect(await ids('email=x@y.z')).toEqual([]);
    expect(await ids('first_name=Ann')).toEqual([]);
    expect(await ids('last_name=Lee')).toEqual([]);
    expect(await ids('', `/v3/collectors/${collectorId}/responses`)).toEqual([r1.body.id, r2.body.id]);
    expect(await ids('', `/v3/collectors/${collectorId}/responses/bulk`)).toEqual([r1.body.id, r2.body.id]);
    const bulk = await server.client.get(`/v3/surveys/${sid}/responses/bulk?per_page=2`, { token: a.token });
    expect(bulk.body).toMatchObject({ per_page: 2, page: 1, total: 3 });
    expect(bulk.body.data[0].pages).toEqual([]);
    expect(bulk.body.links.next).toBe(`${server.url}/v3/surveys/${sid}/responses/bulk?page=2&per_page=2`);
    for (const q of [
      'per_page=101',
      'status=new',
      'start_created_at=soon',
      'total_time_units=day',
      'sort_by=id',
      'collector_ids=a,b',
    ]) {
      const res = await server.client.get(`/v3/surveys/${sid}/responses/bulk?${q}`, { token: a.token });
      expect(errorCode(res), q).toBe('1003');
    }
  });
});

describe('PATCH, PUT, DELETE', () => {
  it('patches (erasing a question), replaces, deletes one and all, keeping counts and events', async () => {
    const { a, details, collectorId, sid } = await setup();
    const pages = randomAnswers(details, prng(3), 5);
    const res = await server.client.post(
      `/v3/collectors/${collectorId}/responses`,
      { pages, response_status: 'partial' },
      { token: a.token },
    );
    const rid = res.body.id;
    const erase = pages[0].questions[0].id;
    const patched = await server.client.patch(
      `/v3/surveys/${sid}/responses/${rid}`,
      { pages: [{ id: pages[0].id, questions: [{ id: erase }] }], response_status: 'completed' },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.response_status).toBe('completed');
    const expected = pages.map((p: any, i: number) =>
      i === 0 ? { ...p, questions: p.questions.filter((q: any) => q.id !== erase) } : p,
    );
    expect(patched.body.pages).toEqual(expected);
    expect(await events('response_updated', rid)).toHaveLength(1);
    expect(await events('response_completed', rid)).toHaveLength(1);

    const put = await server.client.put(
      `/v3/collectors/${collectorId}/responses/${rid}`,
      { pages: [pages[1]], response_status: 'disqualified' },
      { token: a.token },
    );
    expect(put.body.pages).toEqual([pages[1]]);
    expect(put.body.custom_value).toBe('');
    expect(await events('response_disqualified', rid)).toHaveLength(1);
    const details2 = await server.client.get(`/v3/surveys/${sid}/responses/${rid}/details`, {
      token: a.token,
    });
    expect(details2.body.pages).toEqual([pages[1]]);
    const badPatch = await server.client.patch(
      `/v3/surveys/${sid}/responses/${rid}`,
      { pages: [{ id: '1' }] },
      { token: a.token },
    );
    expect(errorCode(badPatch)).toBe('1002');

    const del = await server.client.delete(`/v3/surveys/${sid}/responses/${rid}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(rid);
    expect(await events('response_deleted', rid)).toHaveLength(1);
    expect((await server.client.get(`/v3/surveys/${sid}/responses/${rid}`, { token: a.token })).status).toBe(
      404,
    );

    for (let i = 0; i < 3; i++)
      await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: a.token });
    const all = await server.client.delete(`/v3/collectors/${collectorId}/responses`, { token: a.token });
    expect(all.status).toBe(200);
    expect((await server.client.get(`/v3/surveys/${sid}/responses`, { token: a.token })).body.total).toBe(0);
    expect((await server.client.get(`/v3/surveys/${sid}`, { token: a.token })).body.response_count).toBe(0);
    expect(
      (await server.client.get(`/v3/collectors/${collectorId}`, { token: a.token })).body.response_count,
    ).toBe(0);
    const counts = await server.deps.db.kysely
      .selectFrom('response_counts')
      .select('n')
      .where('collector_id', '=', collectorId)
      .where('n', '!=', 0)
      .execute();
    expect(counts).toEqual([]);
    const reader = await server.account({ scopes: ['responses_read'] });
    expect(
      errorCode(
        await server.client.delete(`/v3/collectors/${collectorId}/responses`, { token: reader.token }),
      ),
    ).toBe('1014');
  });
});

describe('basic plan: 25 responses per survey on detail endpoints', () => {
  it('reads the first 25 and answers 402/1005 beyond', async () => {
    const { a, collectorId, sid } = await setup();
    const made: string[] = [];
    for (let i = 0; i < 27; i++)
      made.push(
        (await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: a.token })).body.id,
      );
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', a.user.id)
      .execute();
    const first = await server.client.get(`/v3/surveys/${sid}/responses/bulk?per_page=25`, {
      token: a.token,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(25);
    const beyond = await server.client.get(`/v3/surveys/${sid}/responses/bulk?per_page=25&page=2`, {
      token: a.token,
    });
    expect(beyond.status).toBe(402);
    expect(errorCode(beyond)).toBe('1005');
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/responses/bulk`, { token: a.token }))).toBe(
      '1005',
    );
    expect(
      (await server.client.get(`/v3/surveys/${sid}/responses/${made[26]}/details`, { token: a.token }))
        .status,
    ).toBe(402);
    expect(
      (await server.client.get(`/v3/surveys/${sid}/responses/${made[0]}/details`, { token: a.token })).status,
    ).toBe(200);
    // plain reads (responses_read) are not limited
    expect(
      (await server.client.get(`/v3/surveys/${sid}/responses/${made[26]}`, { token: a.token })).status,
    ).toBe(200);
    expect((await server.client.get(`/v3/surveys/${sid}/responses`, { token: a.token })).body.total).toBe(27);
  });
});

describe('deleting a survey', () => {
  it('removes its collectors, responses and counts with it', async () => {
    const { a, details, collectorId, sid } = await setup();
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        (
          await server.client.post(
            `/v3/collectors/${collectorId}/responses`,
            { pages: randomAnswers(details, prng(i + 1), i) },
            { token: a.token },
          )
        ).body.id,
      );
    const del = await server.client.delete(`/v3/surveys/${sid}`, { token: a.token });
    expect(del.status).toBe(200);
    expect((await server.client.get(`/v3/collectors/${collectorId}`, { token: a.token })).status).toBe(404);
    const k = server.deps.db.kysely;
    expect(await k.selectFrom('responses').select('id').where('survey_id', '=', sid).execute()).toEqual([]);
    expect(await k.selectFrom('response_counts').select('n').where('survey_id', '=', sid).execute()).toEqual(
      [],
    );
  });

  it('DELETE /collectors/{id}/responses records response_deleted for each', async () => {
    const { a, collectorId } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: a.token })).body.id,
      );
    expect(
      (await server.client.delete(`/v3/collectors/${collectorId}/responses`, { token: a.token })).status,
    ).toBe(200);
    for (const id of ids) expect(await events('response_deleted', id)).toHaveLength(1);
    const basic = await server.account({ plan: 'basic' });
    expect(
      errorCode(
        await server.client.delete(`/v3/collectors/${collectorId}/responses`, { token: basic.token }),
      ),
    ).toBe('1015');
    expect(errorCode(await server.client.delete(`/v3/collectors/${collectorId}/responses`))).toBe('1010');
  });
});

describe('bulk pages', () => {
  it('splice the stored answers exactly as one response reads, and seek deep pages right across deletions', async () => {
    const { a, details, collectorId, sid } = await setup();
    const r = prng(7);
    const made: string[] = [];
    for (let n = 0; n < 9; n++) {
      // Answer fields given in reverse order: the export still writes them in the schema's order.
      const pages = randomAnswers(details, r, n).map((p: any) => ({
        ...p,
        questions: p.questions.map((q: any) => ({
          ...q,
          answers: q.answers.map((x: any) => Object.fromEntries(Object.entries(x).reverse())),
        })),
      }));
      const res = await server.client.post(
        `/v3/collectors/${collectorId}/responses`,
        { pages, custom_variables: { n: String(n) }, custom_value: `v"${n}` },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const walk = async (path: string, order: number[]) => {
      const byPage = new Map<number, any[]>();
      for (const p of order) {
        const res = await server.client.get(`${path}?per_page=2&page=${p}`, { token: a.token });
        expect(res.status).toBe(200);
        byPage.set(p, res.body.data);
      }
      return [...byPage.keys()].sort((x, y) => x - y).flatMap((p) => byPage.get(p)!);
    };
    const all = await walk(`/v3/surveys/${sid}/responses/bulk`, [1, 2, 3, 4, 5]);
    expect(all.map((x) => x.id)).toEqual(made);
    for (const item of all) {
      const one = await server.client.get(`/v3/surveys/${sid}/responses/${item.id}/details`, {
        token: a.token,
      });
      const { current_page_id: _, ...expected } = one.body;
      expect(JSON.stringify(item)).toBe(JSON.stringify(expected));
    }
    // A deletion moves every later response one place up, on pages read before and after it.
    const del = await server.client.delete(`/v3/surveys/${sid}/responses/${made[2]}`, { token: a.token });
    expect(del.status).toBe(200);
    const left = made.filter((id) => id !== made[2]);
    for (const order of [
      [1, 2, 3, 4],
      [4, 3, 2, 1],
    ])
      expect((await walk(`/v3/surveys/${sid}/responses/bulk`, order)).map((x) => x.id)).toEqual(left);
    expect(
      (await walk(`/v3/collectors/${collectorId}/responses/bulk`, [3, 1, 4, 2])).map((x) => x.id),
    ).toEqual(left);
    // New responses go at the end.
    const more = await server.client.post(`/v3/collectors/${collectorId}/responses`, {}, { token: a.token });
    expect((await walk(`/v3/surveys/${sid}/responses/bulk`, [2, 1, 3, 4, 5])).map((x) => x.id)).toEqual([
      ...left,
      more.body.id,
    ]);
  });
});
