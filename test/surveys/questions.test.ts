import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { H, questionOfEachKind } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

async function newSurvey(account = owner) {
  const s = (await server.client.post('/v3/surveys', { title: 'Q' }, { token: account.token })).body;
  const pages = (await server.client.get(`/v3/surveys/${s.id}/pages`, { token: account.token })).body;
  return {
    id: s.id as string,
    pageId: pages.data[0].id as string,
    base: `/v3/surveys/${s.id}/pages/${pages.data[0].id}/questions`,
  };
}

describe('questions of every family', () => {
  for (const [name, body] of Object.entries(questionOfEachKind)) {
    it(`creates, reads, lists, replaces and deletes a ${name} question`, async () => {
      const s = await newSurvey();
      const created = await server.client.post(s.base, body, { token: owner.token });
      expect(created.status).toBe(201);
      const q = created.body;
      expect(q).toMatchObject({
        family: body.family,
        subtype: body.subtype,
        headings: body.headings,
        position: 1,
        visible: true,
      });
      expect(q.href).toBe(`${server.url}${s.base}/${q.id}`);
      expect(typeof q.forced_ranking).toBe('boolean');
      expect((await server.client.get(`${s.base}/${q.id}`, { token: owner.token })).body).toEqual(q);
      const list = await server.client.get(s.base, { token: owner.token });
      expect(list.body.data).toEqual([
        { id: q.id, heading: body.headings[0].heading, position: 1, href: q.href },
      ]);
      expect(
        (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.question_count,
      ).toBe(1);
      // PUT the read question back (answer ids included): nothing changes, ids are kept.
      const { id: _id, href: _href, position: _p, visible: _v, ...readBack } = q;
      const put = await server.client.put(`${s.base}/${q.id}`, readBack, { token: owner.token });
      expect(put.status).toBe(200);
      expect(put.body).toEqual(q);
      const del = await server.client.delete(`${s.base}/${q.id}`, { token: owner.token });
      expect(del.status).toBe(200);
      expect(del.body).toEqual(q);
      expect((await server.client.get(`${s.base}/${q.id}`, { token: owner.token })).status).toBe(404);
      expect(
        (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.question_count,
      ).toBe(0);
    });
  }

  it('mints ids for choices, rows, columns, column choices and other', async () => {
    const s = await newSurvey();
    const q = (await server.client.post(s.base, questionOfEachKind.matrix_menu, { token: owner.token })).body;
    const ids = [
      ...q.answers.rows.map((r: any) => r.id),
      ...q.answers.cols.map((c: any) => c.id),
      ...q.answers.cols.flatMap((c: any) => c.choices.map((x: any) => x.id)),
    ];
    expect(ids.every((x: string) => /^\d+$/.test(x))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const sent = {
      ...questionOfEachKind.single_vertical,
      answers: { choices: [{ id: '1', text: 'forged id' }] },
    };
    const forged = (await server.client.post(s.base, sent, { token: owner.token })).body;
    expect(forged.answers.choices[0].id).not.toBe('1');
  });

  it('PATCH changes only what is sent and keeps answer ids sent back', async () => {
    const s = await newSurvey();
    const q = (await server.client.post(s.base, questionOfEachKind.single_vertical, { token: owner.token }))
      .body;
    const patched = await server.client.patch(
      `${s.base}/${q.id}`,
      { headings: H('Changed'), required: null },
      { token: owner.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      headings: [{ heading: 'Changed' }],
      required: null,
      answers: q.answers,
      sorting: q.sorting,
    });
    const keep = q.answers.choices[0];
    const withNew = await server.client.patch(
      `${s.base}/${q.id}`,
      { answers: { choices: [{ id: keep.id, text: 'Renamed' }, { text: 'Green' }] } },
      { token: owner.token },
    );
    expect(withNew.body.answers.choices[0]).toEqual({ ...keep, text: 'Renamed' });
    expect(withNew.body.answers.choices[1].id).not.toBe(q.answers.choices[1].id);
    expect(withNew.body.answers.other).toBeUndefined();
    const retype = await server.client.patch(
      `${s.base}/${q.id}`,
      { family: 'open_ended', subtype: 'essay' },
      { token: owner.token },
    );
    expect(retype.status).toBe(200);
    expect(retype.body.answers).toBeUndefined();
    expect(retype.body.sorting).toBe(null);
  });
});

describe('question validation', () => {
  const cases: Array<[string, any, RegExp]> = [
    ['unknown family', { family: 'video', subtype: 'x', headings: H('x') }, /family/],
    [
      'subtype of another family',
      { family: 'single_choice', subtype: 'essay', headings: H('x'), answers: { choices: [{ text: 'a' }] } },
      /subtype.*single_choice/,
    ],
    ['no headings', { family: 'open_ended', subtype: 'single', headings: [] }, /headings/],
    [
      'choice question without choices',
      { family: 'multiple_choice', subtype: 'vertical', headings: H('x') },
      /answers\.choices/,
    ],
    [
      'rows on a choice question',
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('x'),
        answers: { choices: [{ text: 'a' }], rows: [{ text: 'r' }] },
      },
      /answers\.rows.*not allowed/,
    ],
    [
      'answers on an essay',
      { family: 'open_ended', subtype: 'essay', headings: H('x'), answers: { rows: [{ text: 'r' }] } },
      /answers.*not allowed/,
    ],
    [
      'matrix without rows',
      { family: 'matrix', subtype: 'single', headings: H('x'), answers: { choices: [{ text: 'a' }] } },
      /answers\.rows/,
    ],
    [
      'rating without weights',
      {
        family: 'matrix',
        subtype: 'rating',
        headings: H('x'),
        answers: { rows: [{ text: 'r' }], choices: [{ text: 'a' }] },
      },
      /weight/,
    ],
    [
      'menu matrix without column choices',
      {
        family: 'matrix',
        subtype: 'menu',
        headings: H('x'),
        answers: { rows: [{ text: 'r' }], cols: [{ text: 'c' }] },
      },
      /cols\.0\.choices/,
    ],
    [
      'matrix single required without type',
      {
        family: 'matrix',
        subtype: 'single',
        headings: H('x'),
        answers: { rows: [{ text: 'r' }], choices: [{ text: 'a' }] },
        required: { text: 'x' },
      },
      /required\.type/,
    ],
    [
      'demographic row without type',
      { family: 'demographic', subtype: 'us', headings: H('x'), answers: { rows: [{ text: 'Name' }] } },
      /rows\.0\.type/,
    ],
    [
      'demographic unknown type',
      { family: 'demographic', subtype: 'us', headings: H('x'), answers: { rows: [{ type: 'shoe_size' }] } },
      /type/,
    ],
    ['datetime without rows', { family: 'datetime', subtype: 'both', headings: H('x') }, /answers\.rows/],
    ['image without url', { family: 'presentation', subtype: 'image', headings: H('x') }, /image\.url/],
    [
      'image choice without images',
      {
        ...questionOfEachKind.single_menu,
        subtype: 'vertical',
        display_options: { display_type: 'image_choice' },
      },
      /image\.url/,
    ],
    [
      'slider on essay',
      {
        family: 'open_ended',
        subtype: 'essay',
        headings: H('x'),
        display_options: { display_type: 'slider' },
      },
      /slider/,
    ],
    [
      'emoji without subtype',
      { ...questionOfEachKind.star_rating, display_options: { display_type: 'emoji' } },
      /display_subtype/,
    ],
    [
      'sum on a non-numerical question',
      { family: 'open_ended', subtype: 'single', headings: H('x'), validation: { type: 'integer', sum: 5 } },
      /sum/,
    ],
    [
      'unknown validation type',
      { family: 'open_ended', subtype: 'single', headings: H('x'), validation: { type: 'phone' } },
      /validation/,
    ],
    ['unknown sorting', { ...questionOfEachKind.single_menu, sorting: { type: 'shuffle' } }, /sorting/],
    [
      'forced ranking on a choice question',
      { ...questionOfEachKind.single_menu, forced_ranking: true },
      /forced_ranking/,
    ],
    ['unknown field', { ...questionOfEachKind.open_single, colour: 'red' }, /colour/],
    [
      'two others',
      {
        ...questionOfEachKind.single_menu,
        answers: { choices: [{ text: 'a' }], other: [{ text: 'x' }, { text: 'y' }] },
      },
      /other/,
    ],
    [
      'bad range amount',
      { ...questionOfEachKind.multiple, required: { type: 'range', amount: '2' } },
      /amount/,
    ],
  ];
  for (const [name, body, message] of cases)
    it(`answers 400/1002 naming the problem: ${name}`, async () => {
      const s = await newSurvey();
      const res = await server.client.post(s.base, body, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body.error.id).toBe('1002');
      expect(res.body.error.message).toMatch(message);
      expect(
        (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.question_count,
      ).toBe(0);
    });
});

describe('headings and methods', () => {
  it('keeps A/B headings with their random assignment', async () => {
    const s = await newSurvey();
    const headings = [
      { heading: 'Version A', random_assignment: { percent: 30, position: 1, variable_name: 'ab' } },
      { heading: 'Version B', random_assignment: { percent: 70, position: 2, variable_name: 'ab' } },
    ];
    const res = await server.client.post(
      s.base,
      { family: 'open_ended', subtype: 'essay', headings },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.headings).toEqual(headings);
  });

  it('answers OPTIONS with the methods of a question path, and HEAD like GET', async () => {
    const s = await newSurvey();
    const q = (await server.client.post(s.base, questionOfEachKind.open_single, { token: owner.token })).body;
    const options = await server.client.request('OPTIONS', `${s.base}/${q.id}`);
    expect(options.status).toBe(200);
    expect(String(options.headers.allow)).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    const head = await server.client.request('HEAD', `${s.base}/${q.id}`, { token: owner.token });
    expect(head.status).toBe(200);
    const post = await server.client.request('POST', `${s.base}/${q.id}`, { token: owner.token, body: {} });
    expect(post.status).toBe(405);
    expect(post.body.error.id).toBe('1061');
  });
});

describe('positions, plans and access', () => {
  it('keeps positions 1..n when inserting, moving and deleting', async () => {
    const s = await newSurvey();
    const add = async (heading: string, position?: number) =>
      (
        await server.client.post(
          s.base,
          { family: 'open_ended', subtype: 'single', headings: H(heading), position },
          { token: owner.token },
        )
      ).body;
    const a = await add('A');
    const b = await add('B');
    await add('C', 1);
    await add('D', 99);
    const order = async () =>
      (await server.client.get(s.base, { token: owner.token })).body.data.map(
        (q: any) => `${q.heading}${q.position}`,
      );
    expect(await order()).toEqual(['C1', 'A2', 'B3', 'D4']);
    await server.client.patch(`${s.base}/${b.id}`, { position: 1 }, { token: owner.token });
    expect(await order()).toEqual(['B1', 'C2', 'A3', 'D4']);
    await server.client.patch(`${s.base}/${b.id}`, { position: 4 }, { token: owner.token });
    expect(await order()).toEqual(['C1', 'A2', 'D3', 'B4']);
    await server.client.delete(`${s.base}/${a.id}`, { token: owner.token });
    expect(await order()).toEqual(['C1', 'D2', 'B3']);
  });

  it('limits question types by plan: the basic plan lacks file upload, slider and ranking (403/1015)', async () => {
    const basic = await server.account({ plan: 'basic' });
    const s = await newSurvey(basic);
    for (const kind of ['file_upload', 'slider', 'matrix_ranking']) {
      const res = await server.client.post(s.base, questionOfEachKind[kind], { token: basic.token });
      expect(res.status, kind).toBe(403);
      expect(res.body.error.id).toBe('1015');
    }
    for (const kind of ['single_vertical', 'star_rating', 'matrix_rating', 'open_essay', 'open_multi'])
      expect(
        (await server.client.post(s.base, questionOfEachKind[kind], { token: basic.token })).status,
        kind,
      ).toBe(201);
    const q = (await server.client.post(s.base, questionOfEachKind.open_single, { token: basic.token })).body;
    const toSlider = await server.client.patch(
      `${s.base}/${q.id}`,
      { display_options: { display_type: 'slider' } },
      { token: basic.token },
    );
    expect(toSlider.body.error.id).toBe('1015');
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: basic.token })).body.question_count).toBe(
      6,
    );
  });

  it('hides other users’ questions and pages (404/1020) and checks scopes and tokens', async () => {
    const s = await newSurvey();
    const q = (await server.client.post(s.base, questionOfEachKind.open_single, { token: owner.token })).body;
    const other = await server.account();
    const mine = await newSurvey(other);
    for (const [method, path, body] of [
      ['GET', s.base, undefined],
      ['POST', s.base, questionOfEachKind.open_single],
      ['GET', `${s.base}/${q.id}`, undefined],
      ['PATCH', `${s.base}/${q.id}`, { headings: H('x') }],
      ['PUT', `${s.base}/${q.id}`, questionOfEachKind.open_single],
      ['DELETE', `${s.base}/${q.id}`, undefined],
      // a question reached through a page or survey it does not belong to
      ['GET', `${mine.base}/${q.id}`, undefined],
      ['GET', `/v3/surveys/${s.id}/pages/${mine.pageId}/questions`, undefined],
      ['GET', `${s.base}/not-an-id`, undefined],
    ] as const) {
      const res = await server.client.request(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    const reader = await server.account({ scopes: ['surveys_read'] });
    expect(
      (await server.client.post(s.base, questionOfEachKind.open_single, { token: reader.token })).body.error
        .id,
    ).toBe('1014');
    expect((await server.client.delete(`${s.base}/${q.id}`, { token: reader.token })).body.error.id).toBe(
      '1014',
    );
    const writer = await server.account({ scopes: ['surveys_write'] });
    expect((await server.client.get(`${s.base}/${q.id}`, { token: writer.token })).body.error.id).toBe(
      '1014',
    );
    expect((await server.client.get(`${s.base}/${q.id}`)).body.error.id).toBe('1010');
    expect((await server.client.get(`${s.base}/${q.id}`, { token: owner.token })).status).toBe(200);
  });
});
