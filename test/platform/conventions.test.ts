import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.account({ firstName: 'Ada', lastName: 'Lovelace' })).token;
});
afterAll(() => server.close());

describe('GET /v3/users/me', () => {
  it('returns the full user', async () => {
    const res = await server.client.get('/v3/users/me', { token });
    expect(res.status).toBe(200);
    const me = res.body;
    expect(me).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      language: 'en',
      email_verified: true,
      account_type: 'premier',
      sso_connections: [],
      href: `${server.url}/v3/users/me`,
    });
    expect(me.id).toMatch(/^\d+$/);
    expect(me.email).toBe(`${me.username}@example.com`);
    expect(me.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(me.date_last_login).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(Object.keys(me.question_types).sort()).toEqual([
      'comment_box_question_type',
      'file_upload_question_type',
      'matrix_question_type',
      'ranking_question_type',
      'rating_question_type',
      'slider_question_type',
      'star_rating_question_type',
      'textbox_multiple_question_type',
      'video_question_type',
    ]);
    expect(me.features).toEqual({
      collector_create_limit: 'unlimited',
      collector_email_enabled: true,
      collector_thank_you_enabled: true,
      create_question_limit: 'unlimited',
      num_free_responses: 'unlimited',
    });
    expect(me.scopes.granted).toHaveLength(22);
  });

  it('derives question types and features from the plan', async () => {
    const basic = await server.account({ plan: 'basic' });
    const me = (await server.client.get('/v3/users/me', { token: basic.token })).body;
    expect(me.account_type).toBe('basic');
    expect(me.question_types.file_upload_question_type).toBe(false);
    expect(me.question_types.matrix_question_type).toBe(true);
    expect(me.features).toMatchObject({ collector_email_enabled: false, num_free_responses: '25' });
    expect(me.scopes.available).not.toContain('groups_read');
    expect(me.scopes.granted).not.toContain('groups_read');
  });
});

describe('HTTP conventions', () => {
  it('answers unknown paths with the JSON 404/1020 envelope', async () => {
    const res = await server.client.get('/v3/zurveyz/24601', { token });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.error).toMatchObject({ id: '1020', name: 'Resource Not Found', http_status_code: 404 });
  });

  it('answers a known path with the wrong method 405/1061 and an Allow header', async () => {
    const res = await server.client.request('DELETE', '/v3/users/me', { token });
    expect(res.status).toBe(405);
    expect(res.body.error.id).toBe('1061');
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answers a method only a more specific route lacks 405, not with the parameter route', async () => {
    // GET …/members/bulk would match …/members/:member_id; the path is bulk's, which takes POST only.
    for (const path of ['/v3/workgroups/1/members/bulk', '/v3/workgroups/1/members/bulk/']) {
      const res = await server.client.request('GET', path, { token });
      expect(res.status, path).toBe(405);
      expect(res.headers.allow).toBe('POST, OPTIONS');
    }
    const member = await server.client.request('GET', '/v3/workgroups/1/members/2', { token });
    expect(member.status).not.toBe(405);
  });

  it('answers HEAD like GET without a body, and OPTIONS with the methods', async () => {
    const head = await server.client.request('HEAD', '/v3/users/me', { token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['x-ratelimit-app-global-day-limit']).toBeDefined();
    const headNoToken = await server.client.request('HEAD', '/v3/users/me');
    expect(headNoToken.status).toBe(401);

    const options = await server.client.request('OPTIONS', '/v3/users/me', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(options.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(options.headers['access-control-allow-origin']).toBe('*');
    expect(String(options.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    const unknown = await server.client.request('OPTIONS', '/v3/nothing-here');
    expect(unknown.status).toBe(404);
  });

  it('puts a request id, CORS and cache headers on every API response, errors included', async () => {
    for (const res of [
      await server.client.get('/v3/users/me', { token }),
      await server.client.get('/v3/users/me'),
      await server.client.get('/v3/nope'),
    ]) {
      expect(res.headers['sm-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-request-id']).toBe(res.headers['sm-request-id']);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const ok = await server.client.get('/v3/users/me', { token });
    expect(ok.headers['cache-control']).toMatch(/no-store/);
  });
});

describe('paging', () => {
  it('returns the list envelope with integer fields and only the links that apply', async () => {
    const first = await server.client.get('/v3/errors?per_page=10', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ per_page: 10, page: 1, total: 34 });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toEqual({
      id: '1000',
      name: 'Bad Request',
      href: `${server.url}/v3/errors/1000`,
    });
    expect(Object.keys(first.body.links).sort()).toEqual(['last', 'next', 'self']);
    expect(first.body.links.next).toBe(`${server.url}/v3/errors?page=2&per_page=10`);
    expect(first.body.links.last).toBe(`${server.url}/v3/errors?page=4&per_page=10`);

    const middle = await server.client.get(first.body.links.next.replace(server.url, ''), { token });
    expect(Object.keys(middle.body.links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);

    const last = await server.client.get('/v3/errors?page=4&per_page=10', { token });
    expect(last.body.data.map((e: { id: string }) => e.id)).toEqual(['1060', '1061', '1062', '1063']);
    expect(Object.keys(last.body.links).sort()).toEqual(['first', 'prev', 'self']);

    const single = await server.client.get('/v3/errors', { token });
    expect(single.body.per_page).toBe(50);
    expect(Object.keys(single.body.links)).toEqual(['self']);
  });

  it('answers bad paging parameters with 400/1003', async () => {
    for (const query of [
      'per_page=1001',
      'per_page=abc',
      'page=0',
      'page=-1',
      'page=99999999999',
      'per_page=1.5',
    ]) {
      const res = await server.client.get(`/v3/errors?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.id, query).toBe('1003');
    }
    const named = await server.client.get('/v3/errors?per_page=5000', { token });
    expect(named.body.error.message).toMatch(/per_page/);
  });

  it('answers an id that cannot exist with 404/1020', async () => {
    const res = await server.client.get('/v3/errors/not-a-number', { token });
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
    const missing = await server.client.get('/v3/errors/1999', { token });
    expect(missing.status).toBe(404);
  });
});

describe('the error catalogue', () => {
  it('lists every code 1000-1063 of the spec with its status', async () => {
    const res = await server.client.get('/v3/errors?per_page=100', { token });
    const ids = res.body.data.map((e: { id: string }) => e.id);
    expect(ids).toEqual([
      '1000',
      '1001',
      '1002',
      '1003',
      '1004',
      '1005',
      '1010',
      '1011',
      '1012',
      '1013',
      '1014',
      '1015',
      '1016',
      '1017',
      '1018',
      '1020',
      '1025',
      '1026',
      '1030',
      '1040',
      '1050',
      '1051',
      '1052',
      '1053',
      '1054',
      '1055',
      '1056',
      '1057',
      '1058',
      '1059',
      '1060',
      '1061',
      '1062',
      '1063',
    ]);
    const one = await server.client.get('/v3/errors/1030', { token });
    expect(one.body).toMatchObject({ id: '1030', http_status_code: 413, name: 'Request Entity Too Large' });
  });
});

describe('OpenAPI', () => {
  it('describes the API from the route schemas, with each operation scope, without a token', async () => {
    const res = await server.client.get('/v3/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const me = doc.paths['/v3/users/me'].get;
    expect(me.security).toEqual([{ oauth2: ['users_read'] }]);
    expect(me.responses['200'].content['application/json'].schema.properties.question_types).toBeDefined();
    expect(Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes)).toHaveLength(
      22,
    );
  });
});
