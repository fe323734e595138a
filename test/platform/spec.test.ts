// The specification as real clients read it: what OPTIONS and 405 list, paging on the basic plan,
// the types of users/me, and PUT with the body a GET returned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import type { ApiResponse } from '../helpers/client.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.account()).token;
});
afterAll(() => server.close());

/** A concrete path for an OpenAPI path template: every parameter becomes a plausible id. */
function concrete(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
    name === 'language_code' ? 'fr' : name === 'action_type' ? 'survey_info_create' : '12345',
  );
}

describe('OPTIONS and 405 list the methods of the path asked about', () => {
  it('for every path of the OpenAPI document, bulk paths beside /{id} routes included', async () => {
    const doc = (await server.client.get('/v3/openapi.json')).body;
    const all = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    let checked = 0;
    for (const [template, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      // Paths that differ only in their parameters' names are one path to a router.
      const own = Object.keys(operations).map((m) => m.toUpperCase());
      if (own.includes('GET')) own.push('HEAD');
      const expected = all.filter((m) => own.includes(m));
      const path = concrete(template);
      const options = await server.client.request('OPTIONS', path);
      expect(options.status, template).toBe(200);
      expect(options.headers.allow, `OPTIONS ${template}`).toBe([...expected, 'OPTIONS'].join(', '));
      const missing = all.find((m) => !expected.includes(m) && m !== 'HEAD');
      if (missing) {
        const res = await server.client.request(missing, path, {
          token,
          body: missing === 'GET' ? undefined : {},
        });
        expect(res.status, `${missing} ${template}`).toBe(405);
        expect(res.body.error.id).toBe('1061');
        expect(res.headers.allow, `${missing} ${template}`).toBe([...expected, 'OPTIONS'].join(', '));
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('GET /v3/users/me types its fields as the spec does', () => {
  it('first_name, last_name and date_last_login are strings: "" when unknown, the creation time before any sign-in', async () => {
    const nameless = await server.account({ firstName: '', lastName: '' });
    await server.deps.db.kysely
      .updateTable('users')
      .set({ first_name: null, last_name: null })
      .where('id', '=', nameless.user.id)
      .execute();
    const me = (await server.client.get('/v3/users/me', { token: nameless.token })).body;
    expect(me.first_name).toBe('');
    expect(me.last_name).toBe('');
    expect(typeof me.date_last_login).toBe('string');
    expect(me.date_last_login).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(me.date_last_login.slice(0, 19)).toBe(me.date_created.slice(0, 19));
  });

  it('group members\' first_name and last_name are "" when unknown, as the spec types them', async () => {
    const owner = await server.account();
    await server.deps.db.kysely
      .updateTable('users')
      .set({ first_name: null, last_name: null })
      .where('id', '=', owner.user.id)
      .execute();
    const team = await createTeam(server.deps, owner.user, { name: 'Nameless' });
    const t = { token: owner.token };
    const list = await server.client.get(`/v3/groups/${team.id}/members?include=first_name,last_name`, t);
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ first_name: '', last_name: '' });
    const one = await server.client.get(list.body.data[0].href.replace(server.url, ''), t);
    expect(one.body).toMatchObject({ first_name: '', last_name: '' });
  });

  it("a survey's theme_id answers as a string, as the original API returns it", async () => {
    const survey = await server.client.post('/v3/surveys', { title: 'Themed', theme_id: 4510354 }, { token });
    expect(survey.body.theme_id).toBe('4510354');
    const read = await server.client.get(`/v3/surveys/${survey.body.id}`, { token });
    expect(read.body.theme_id).toBe('4510354');
    const details = await server.client.get(`/v3/surveys/${survey.body.id}/details`, { token });
    expect(details.body.theme_id).toBe('4510354');
  });
});

describe('the basic plan: links never lead to a page that answers 402/1005', () => {
  it('a client following links.next through responses/bulk ends on its last readable page', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const sid = (await server.client.post('/v3/surveys', { title: 'Many' }, t)).body.id;
    const cid = (await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' }, t)).body.id;
    for (let i = 0; i < 27; i++) await server.client.post(`/v3/collectors/${cid}/responses`, {}, t);
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', a.user.id)
      .execute();

    for (const start of [
      `/v3/surveys/${sid}/responses/bulk?per_page=10`,
      `/v3/collectors/${cid}/responses/bulk?per_page=10`,
      `/v3/surveys/${sid}/responses/bulk?per_page=5&sort_by=date_modified&sort_order=ASC`,
    ]) {
      let url: string | undefined = start;
      let read = 0;
      let pages = 0;
      while (url) {
        const res: ApiResponse = await server.client.get(url.replace(server.url, ''), t);
        expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(200);
        if (res.body.links.last) {
          const last = await server.client.get(res.body.links.last.replace(server.url, ''), t);
          expect(last.status, `last of ${url}`).toBe(200);
        }
        read += res.body.data.length;
        pages++;
        url = res.body.links.next;
      }
      expect(read, start).toBe(start.includes('per_page=5') ? 25 : 20);
      expect(pages, start).toBe(start.includes('per_page=5') ? 5 : 2);
    }
    // The page beyond still answers 402/1005, as the spec says.
    const beyond = await server.client.get(`/v3/surveys/${sid}/responses/bulk?per_page=10&page=3`, t);
    expect(beyond.status).toBe(402);
    expect(beyond.body.error.id).toBe('1005');
  });
});
