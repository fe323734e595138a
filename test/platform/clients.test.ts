// What published SurveyMonkey v3 clients send that a strict reading of the spec would refuse: one
// test per row of docs/clients.md. Each request is built as the client builds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let surveyId: string;
let collectorId: string;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  const t = { token: owner.token };
  const survey = await server.client.post(
    '/v3/surveys',
    {
      title: 'Clients',
      pages: [
        {
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Pick' }],
              answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
            },
          ],
        },
      ],
    },
    t,
  );
  surveyId = survey.body.id;
  const details = (await server.client.get(`/v3/surveys/${surveyId}/details`, t)).body;
  collectorId = (await server.client.post(`/v3/surveys/${surveyId}/collectors`, { type: 'weblink' }, t)).body
    .id;
  const q = details.pages[0].questions[0];
  await server.client.post(
    `/v3/collectors/${collectorId}/responses`,
    {
      response_status: 'completed',
      pages: [
        {
          id: details.pages[0].id,
          questions: [{ id: q.id, answers: [{ choice_id: q.answers.choices[0].id }] }],
        },
      ],
    },
    t,
  );
});
afterAll(() => server.close());

const get = (path: string, headers?: Record<string, string>) =>
  server.client.get(path, { token: owner.token, headers });

describe('booleans in query strings', () => {
  it('reads true, True, TRUE and 1 as true; false, False, FALSE and 0 as false (singer-io, PHP clients)', async () => {
    for (const yes of ['true', 'True', 'TRUE', '1']) {
      const res = await get(`/v3/surveys/${surveyId}/responses/bulk?simple=${yes}`);
      expect(res.status, yes).toBe(200);
      expect(res.body.data[0].pages[0].questions[0].heading, yes).toBe('Pick');
    }
    for (const no of ['false', 'False', 'FALSE', '0']) {
      const res = await get(`/v3/surveys/${surveyId}/responses/bulk?simple=${no}`);
      expect(res.status, no).toBe(200);
      expect(res.body.data[0].pages[0].questions[0].heading, no).toBeUndefined();
    }
  });

  it('refuses what is no boolean with 400/1003', async () => {
    const res = await get(`/v3/surveys/${surveyId}/responses/bulk?simple=maybe`);
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1003');
  });
});

describe('paths', () => {
  it('accepts a trailing slash (GearPlug) and repeated slashes (go-surveymonkey with a base URL ending in /)', async () => {
    for (const path of [
      `/v3/surveys/${surveyId}/responses/`,
      `/v3//surveys/${surveyId}/responses`,
      `/v3/surveys//${surveyId}//responses/`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.total, path).toBe(1);
    }
  });

  it('accepts an empty query string after ? (go-surveymonkey, monkey-business, R surveymonkey)', async () => {
    const res = await get(`/v3/surveys/${surveyId}/responses/bulk?`);
    expect(res.status).toBe(200);
    const surveys = await get('/v3/surveys?');
    expect(surveys.status).toBe(200);
  });
});

describe('headers and bodies', () => {
  it('accepts Content-Type: application/json on a GET and a DELETE without a body (most clients)', async () => {
    const res = await get('/v3/users/me', { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    const folder = (await server.client.post('/v3/survey_folders', { title: 'Gone' }, { token: owner.token }))
      .body;
    const del = await server.client.delete(`/v3/survey_folders/${folder.id}`, {
      token: owner.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(del.status).toBe(200);
  });

  it('accepts the body {} on a GET and a DELETE (surveymonkey-v3-api-php)', async () => {
    const res = await server.client.request('GET', '/v3/users/me', {
      token: owner.token,
      rawBody: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const folder = (await server.client.post('/v3/survey_folders', { title: 'Gone' }, { token: owner.token }))
      .body;
    const del = await server.client.request('DELETE', `/v3/survey_folders/${folder.id}`, {
      token: owner.token,
      rawBody: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(del.status).toBe(200);
  });

  it('accepts Content-Type with any casing and parameters', async () => {
    for (const type of [
      'application/json; charset=UTF-8',
      'Application/JSON',
      'APPLICATION/JSON;charset=utf-8',
      'application/json ; charset="utf-8"',
    ]) {
      const res = await server.client.request('POST', '/v3/survey_folders', {
        token: owner.token,
        rawBody: JSON.stringify({ title: type }),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(201);
      expect(res.body.title).toBe(type);
    }
  });

  it('refuses a body that is not JSON by its Content-Type with 400/1004', async () => {
    const res = await server.client.request('POST', '/v3/survey_folders', {
      token: owner.token,
      rawBody: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1004');
  });

  it('accepts the scheme "bearer" in lowercase (singer-io, go-surveymonkey, jsurveymonkey)', async () => {
    const res = await server.client.get('/v3/users/me', {
      headers: { authorization: `bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('values in bodies', () => {
  it('accepts ids sent as numbers (GearPlug, tkqubo SegmentType)', async () => {
    const copy = await server.client.post(
      '/v3/surveys',
      { from_survey_id: Number(surveyId), title: 'Copy' },
      { token: owner.token },
    );
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.question_count).toBe(1);
    const folder = (await server.client.post('/v3/survey_folders', { title: 'F' }, { token: owner.token }))
      .body;
    const moved = await server.client.patch(
      `/v3/surveys/${surveyId}`,
      { folder_id: Number(folder.id) },
      { token: owner.token },
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.folder_id).toBe(folder.id);
  });

  it('accepts booleans sent as strings and response_limit 0 as "no limit" (jsurveymonkey)', async () => {
    const res = await server.client.post(
      `/v3/surveys/${surveyId}/collectors`,
      { type: 'weblink', name: 'Java', allow_multiple_responses: 'true', response_limit: 0 },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.allow_multiple_responses).toBe(true);
    expect(res.body.response_limit).toBeNull();
  });

  it('refuses a string that is no boolean and an id that is no integer with 400/1002', async () => {
    const bool = await server.client.post(
      `/v3/surveys/${surveyId}/collectors`,
      { type: 'weblink', allow_multiple_responses: 'often' },
      { token: owner.token },
    );
    expect(bool.status).toBe(400);
    expect(bool.body.error.id).toBe('1002');
    const id = await server.client.patch(
      `/v3/surveys/${surveyId}`,
      { folder_id: 1.5 },
      { token: owner.token },
    );
    expect(id.status).toBe(400);
    expect(id.body.error.id).toBe('1002');
  });
});

describe('list parameters', () => {
  it('accepts sort_order in capitals and dates with microseconds or a space (singer-io, R surveymonkey)', async () => {
    for (const query of [
      'sort_order=ASC&sort_by=date_modified&start_modified_at=2020-01-01T00:00:00.000000Z',
      'sort_order=DESC&start_created_at=2020-01-01 00:00:00',
    ]) {
      const res = await get(`/v3/surveys/${surveyId}/responses/bulk?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.total, query).toBe(1);
    }
  });
});
