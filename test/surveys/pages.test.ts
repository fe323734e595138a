import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { questionOfEachKind } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

const newSurvey = async () => (await server.client.post('/v3/surveys', {}, { token: owner.token })).body;
const titles = async (id: string) =>
  (await server.client.get(`/v3/surveys/${id}/pages`, { token: owner.token })).body.data.map(
    (p: any) => `${p.title}${p.position}`,
  );

describe('pages', () => {
  it('lists, creates, reads, patches, replaces and deletes pages, keeping positions 1..n', async () => {
    const s = await newSurvey();
    const list = await server.client.get(`/v3/surveys/${s.id}/pages`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    const first = list.body.data[0];
    expect(first).toEqual({
      id: first.id,
      title: '',
      description: '',
      position: 1,
      href: `${server.url}/v3/surveys/${s.id}/pages/${first.id}`,
    });
    await server.client.patch(
      `/v3/surveys/${s.id}/pages/${first.id}`,
      { title: 'A' },
      { token: owner.token },
    );
    const b = await server.client.post(
      `/v3/surveys/${s.id}/pages`,
      { title: 'B', description: 'second' },
      { token: owner.token },
    );
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ title: 'B', description: 'second', position: 2, question_count: 0 });
    const c = (
      await server.client.post(
        `/v3/surveys/${s.id}/pages`,
        { title: 'C', position: 1 },
        { token: owner.token },
      )
    ).body;
    expect(await titles(s.id)).toEqual(['C1', 'A2', 'B3']);
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.page_count).toBe(3);
    const moved = await server.client.patch(
      `/v3/surveys/${s.id}/pages/${c.id}`,
      { position: 3 },
      { token: owner.token },
    );
    expect(moved.body).toMatchObject({ title: 'C', position: 3 });
    expect(await titles(s.id)).toEqual(['A1', 'B2', 'C3']);
    const put = await server.client.put(
      `/v3/surveys/${s.id}/pages/${b.body.id}`,
      { title: 'B2' },
      { token: owner.token },
    );
    expect(put.body).toMatchObject({ title: 'B2', description: '', position: 2 });
    await server.client.post(
      `/v3/surveys/${s.id}/pages/${b.body.id}/questions`,
      questionOfEachKind.open_single,
      { token: owner.token },
    );
    const read = await server.client.get(`/v3/surveys/${s.id}/pages/${b.body.id}`, { token: owner.token });
    expect(read.body).toMatchObject({ id: b.body.id, title: 'B2', question_count: 1 });
    const del = await server.client.delete(`/v3/surveys/${s.id}/pages/${b.body.id}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: b.body.id, title: 'B2', question_count: 1 });
    expect(await titles(s.id)).toEqual(['A1', 'C2']);
    const survey = (await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body;
    expect(survey).toMatchObject({ page_count: 2, question_count: 0 });
    expect(
      (await server.client.get(`/v3/surveys/${s.id}/pages/${b.body.id}`, { token: owner.token })).status,
    ).toBe(404);
  });

  it('keeps page positions 1..n under concurrent inserts', async () => {
    const s = await newSurvey();
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.client.post(
          `/v3/surveys/${s.id}/pages`,
          { title: `P${i}`, position: 1 },
          { token: owner.token },
        ),
      ),
    );
    expect(made.every((r) => r.status === 201)).toBe(true);
    const list = (await server.client.get(`/v3/surveys/${s.id}/pages`, { token: owner.token })).body.data;
    expect(list.map((p: any) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: owner.token })).body.page_count).toBe(7);
  });

  it('validates page bodies', async () => {
    const s = await newSurvey();
    for (const body of [{ position: 0 }, { title: 5 }, { colour: 'x' }, { position: 'first' }]) {
      const res = await server.client.post(`/v3/surveys/${s.id}/pages`, body, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body.error.id).toBe('1002');
    }
  });

  it('hides other users’ pages and checks scopes and tokens', async () => {
    const s = await newSurvey();
    const page = (await server.client.get(`/v3/surveys/${s.id}/pages`, { token: owner.token })).body.data[0];
    const other = await server.account();
    for (const [method, path, body] of [
      ['GET', `/v3/surveys/${s.id}/pages`, undefined],
      ['POST', `/v3/surveys/${s.id}/pages`, {}],
      ['GET', `/v3/surveys/${s.id}/pages/${page.id}`, undefined],
      ['PATCH', `/v3/surveys/${s.id}/pages/${page.id}`, {}],
      ['PUT', `/v3/surveys/${s.id}/pages/${page.id}`, {}],
      ['DELETE', `/v3/surveys/${s.id}/pages/${page.id}`, undefined],
    ] as const) {
      const res = await server.client.request(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    const otherSurvey = (await server.client.post('/v3/surveys', {}, { token: other.token })).body;
    expect(
      (await server.client.get(`/v3/surveys/${otherSurvey.id}/pages/${page.id}`, { token: other.token }))
        .status,
    ).toBe(404);
    const reader = await server.account({ scopes: ['surveys_read'] });
    expect(
      (await server.client.post(`/v3/surveys/${s.id}/pages`, {}, { token: reader.token })).body.error.id,
    ).toBe('1014');
    expect((await server.client.get(`/v3/surveys/${s.id}/pages`)).body.error.id).toBe('1010');
  });
});

describe('survey folders', () => {
  it('creates, lists, reads, renames and deletes folders, counting their surveys', async () => {
    const a = await server.account();
    const created = await server.client.post('/v3/survey_folders', { title: 'Clients' }, { token: a.token });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: created.body.id,
      title: 'Clients',
      num_surveys: 0,
      href: `${server.url}/v3/survey_folders/${created.body.id}`,
    });
    const untitled = await server.client.post('/v3/survey_folders', undefined, { token: a.token });
    expect(untitled.status).toBe(201);
    await server.client.post('/v3/surveys', { folder_id: created.body.id }, { token: a.token });
    await server.client.post('/v3/surveys', { folder_id: created.body.id }, { token: a.token });
    const list = await server.client.get('/v3/survey_folders', { token: a.token });
    expect(list.body.total).toBe(2);
    expect(list.body.data.map((f: any) => [f.title, f.num_surveys])).toEqual([
      ['Clients', 2],
      ['New Folder', 0],
    ]);
    const renamed = await server.client.patch(
      `/v3/survey_folders/${created.body.id}`,
      { title: 'Customers' },
      { token: a.token },
    );
    expect(renamed.body).toMatchObject({ title: 'Customers', num_surveys: 2 });
    expect(
      (await server.client.get(`/v3/survey_folders/${created.body.id}`, { token: a.token })).body.title,
    ).toBe('Customers');
    expect(
      (await server.client.patch(`/v3/survey_folders/${created.body.id}`, { title: '' }, { token: a.token }))
        .body.error.id,
    ).toBe('1002');
    const del = await server.client.delete(`/v3/survey_folders/${created.body.id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ title: 'Customers', num_surveys: 2 });
    const surveys = await server.client.get('/v3/surveys?folder_id=0', { token: a.token });
    expect(surveys.body.total).toBe(2);
    expect(
      (await server.client.get(`/v3/survey_folders/${created.body.id}`, { token: a.token })).status,
    ).toBe(404);
  });

  it('hides other users’ folders and checks scopes', async () => {
    const a = await server.account();
    const b = await server.account();
    const f = (await server.client.post('/v3/survey_folders', { title: 'Mine' }, { token: a.token })).body;
    for (const method of ['GET', 'PATCH', 'DELETE'])
      expect(
        (
          await server.client.request(method, `/v3/survey_folders/${f.id}`, {
            token: b.token,
            body: method === 'PATCH' ? {} : undefined,
          })
        ).status,
      ).toBe(404);
    expect((await server.client.get('/v3/survey_folders', { token: b.token })).body.total).toBe(0);
    const reader = await server.account({ scopes: ['surveys_read'] });
    expect((await server.client.post('/v3/survey_folders', {}, { token: reader.token })).body.error.id).toBe(
      '1014',
    );
    expect((await server.client.get('/v3/survey_folders')).body.error.id).toBe('1010');
  });
});
