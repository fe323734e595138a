import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:30.500Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

async function survey(token: string) {
  const res = await server.client.post('/v3/surveys', { title: 'S' }, { token });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function events(type: string, resourceId: string) {
  return server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('type', '=', type)
    .where('resource_id', '=', resourceId)
    .execute();
}

describe('POST /surveys/{id}/collectors', () => {
  it('creates a weblink collector with the reference defaults and a URL on the called host', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const res = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Web Link 1',
      type: 'weblink',
      status: 'open',
      survey_id: sid,
      open: true,
      date_created: '2026-06-01T12:00:30+00:00',
      date_modified: '2026-06-01T12:00:30+00:00',
      response_count: 0,
      password_enabled: false,
      thank_you_message: 'Thank you for completing our survey!',
      thank_you_page: { is_enabled: false, message: 'Thank you for completing our survey!' },
      disqualification_message: 'Thank you for completing our survey!',
      close_date: null,
      closed_page_message:
        'This survey is currently closed.  Please contact the author of this survey for further assistance.',
      redirect_url: null,
      redirect_type: 'url',
      display_survey_results: false,
      edit_response_type: 'until_complete',
      anonymous_type: 'not_anonymous',
      allow_multiple_responses: false,
      sender_email: null,
      response_limit: null,
      href: `${server.url}/v3/collectors/${res.body.id}`,
    });
    expect(res.body.url).toMatch(new RegExp(`^${server.url}/r/[A-Za-z0-9]{12}$`));
    expect(res.body.password).toBeUndefined();
    expect(await events('collector_created', res.body.id)).toHaveLength(1);
    const second = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    expect(second.body.name).toBe('Web Link 2');
  });

  it('stores every option; password is write-only; email collectors start new and have no url', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const body = {
      type: 'weblink',
      name: 'Main link',
      thank_you_page: { is_enabled: true, message: 'Merci' },
      disqualification_message: 'Sorry',
      disqualification_url: 'https://example.com/dq',
      close_date: '2038-01-01T00:00:00+00:00',
      closed_page_message: 'Closed now',
      redirect_url: 'https://example.com/done',
      redirect_type: 'loop',
      display_survey_results: true,
      edit_response_type: 'always',
      anonymous_type: 'fully_anonymous',
      allow_multiple_responses: true,
      password: 'secret',
      response_limit: 10,
      respondent_authentication: false,
    };
    const res = await server.client.post(`/v3/surveys/${sid}/collectors`, body, { token: a.token });
    expect(res.status).toBe(201);
    const { password: _p, ...rest } = body;
    expect(res.body).toMatchObject({ ...rest, password_enabled: true });
    const got = await server.client.get(`/v3/collectors/${res.body.id}`, { token: a.token });
    expect(got.body).toEqual(res.body);

    const email = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'email', sender_email: 'me@example.com' },
      { token: a.token },
    );
    expect(email.status).toBe(201);
    expect(email.body).toMatchObject({ type: 'email', status: 'new', url: null, name: 'Email Invitation 1' });
    const popup = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'popup_invitation', width: 400, sample_rate: 50, primary_button: { text: 'Go' } },
      { token: a.token },
    );
    expect(popup.status).toBe(201);
    expect(popup.body).toMatchObject({
      width: 400,
      height: 500,
      sample_rate: '50',
      primary_button: { text: 'Go' },
    });
  });

  it('copies a collector with from_collector_id', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const src = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink', name: 'Orig', response_limit: 5 },
      { token: a.token },
    );
    const copy = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { from_collector_id: src.body.id },
      { token: a.token },
    );
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Copy of Orig', response_limit: 5, type: 'weblink' });
    expect(copy.body.url).not.toBe(src.body.url);
  });

  it('refuses bad input with 400/1002', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const post = (body: unknown) =>
      server.client.post(`/v3/surveys/${sid}/collectors`, body, { token: a.token });
    for (const body of [
      {},
      { type: 'carrier_pigeon' },
      { type: 'weblink', bogus: 1 },
      { type: 'weblink', close_date: 'soon' },
      { type: 'weblink', redirect_type: 'loop' },
      { type: 'weblink', response_limit: -1 },
      { type: 'weblink', width: 400 },
      { type: 'weblink', sender_email: 'a@b.c' },
      { type: 'email', allow_multiple_responses: true },
      { type: 'weblink', redirect_url: 'javascript:alert(1)' },
      { type: 'popup_survey', width: 900 },
      { from_collector_id: '1', type: 'weblink' },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(res)).toBe('1002');
    }
    const malformed = await server.client.request('POST', `/v3/surveys/${sid}/collectors`, {
      token: a.token,
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(errorCode(malformed)).toBe('1001');
  });

  it('basic plan: weblink only, and no paid-only options (403/1015)', async () => {
    const a = await server.account({ plan: 'basic' });
    const sid = await survey(a.token);
    const ok = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    expect(ok.status).toBe(201);
    for (const body of [
      { type: 'email' },
      { type: 'sms' },
      { type: 'popup_survey' },
      { type: 'weblink', thank_you_message: 'x' },
      { type: 'weblink', redirect_url: 'https://example.com' },
      { type: 'weblink', disqualification_message: 'x' },
    ]) {
      const res = await server.client.post(`/v3/surveys/${sid}/collectors`, body, { token: a.token });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(errorCode(res)).toBe('1015');
    }
    const patch = await server.client.patch(
      `/v3/collectors/${ok.body.id}`,
      { thank_you_message: 'x' },
      { token: a.token },
    );
    expect(errorCode(patch)).toBe('1015');
    const closing = await server.client.patch(
      `/v3/collectors/${ok.body.id}`,
      { status: 'closed' },
      { token: a.token },
    );
    expect(closing.status).toBe(200);
  });

  it('wrong scope, no token, someone else’s survey', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const reader = await server.account({ scopes: ['surveys_read', 'collectors_read'] });
    const noScope = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: reader.token },
    );
    expect(errorCode(noScope)).toBe('1014');
    const none = await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' });
    expect(none.status).toBe(401);
    expect(errorCode(none)).toBe('1010');
    const other = await server.account();
    const theirs = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: other.token },
    );
    expect(theirs.status).toBe(404);
    expect(errorCode(theirs)).toBe('1020');
  });
});

describe('GET /surveys/{id}/collectors', () => {
  it('lists with include, sort, name and date filters', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const made: string[] = [];
    for (const name of ['Bravo', 'alpha', 'Charlie']) {
      clock.advance(60_000);
      const r = await server.client.post(
        `/v3/surveys/${sid}/collectors`,
        { type: 'weblink', name },
        { token: a.token },
      );
      made.push(r.body.id);
    }
    const list = await server.client.get(`/v3/surveys/${sid}/collectors`, { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.data[0]).toEqual({
      id: made[2],
      name: 'Charlie',
      href: `${server.url}/v3/collectors/${made[2]}`,
    });
    const byName = await server.client.get(
      `/v3/surveys/${sid}/collectors?sort_by=name&sort_order=ASC&include=type,status,response_count,date_created,date_modified,url`,
      { token: a.token },
    );
    expect(byName.body.data.map((c: any) => c.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(byName.body.data[0]).toMatchObject({ type: 'weblink', status: 'open', response_count: 0 });
    expect(byName.body.data[0].url).toMatch(/\/r\//);
    expect(byName.body.data[0].date_created).toMatch(/\+00:00$/);
    const search = await server.client.get(`/v3/surveys/${sid}/collectors?name=ALP`, { token: a.token });
    expect(search.body.data.map((c: any) => c.name)).toEqual(['alpha']);
    const created = byName.body.data.find((c: any) => c.name === 'alpha').date_created.slice(0, 19);
    const after = await server.client.get(`/v3/surveys/${sid}/collectors?start_date=${created}`, {
      token: a.token,
    });
    expect(after.body.total).toBe(2);
    const paged = await server.client.get(`/v3/surveys/${sid}/collectors?per_page=2&page=2`, {
      token: a.token,
    });
    expect(paged.body.data).toHaveLength(1);
    const bad = await server.client.get(`/v3/surveys/${sid}/collectors?include=nope`, { token: a.token });
    expect(errorCode(bad)).toBe('1003');
    const badSort = await server.client.get(`/v3/surveys/${sid}/collectors?sort_by=size`, { token: a.token });
    expect(errorCode(badSort)).toBe('1003');
    const other = await server.account();
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/collectors`, { token: other.token }))).toBe(
      '1020',
    );
    const scopeless = await server.account({ scopes: ['surveys_read'] });
    expect(
      errorCode(await server.client.get(`/v3/surveys/${sid}/collectors`, { token: scopeless.token })),
    ).toBe('1014');
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/collectors`))).toBe('1010');
  });
});

describe('GET/PATCH/PUT/DELETE /collectors/{id}', () => {
  it('patches, replaces and deletes, with events', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const c = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink', name: 'L', password: 'pw', response_limit: 3, anonymous_type: 'fully_anonymous' },
      { token: a.token },
    );
    clock.advance(120_000);
    const patched = await server.client.patch(
      `/v3/collectors/${c.body.id}`,
      { status: 'closed', closed_page_message: 'Gone' },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      status: 'closed',
      open: false,
      closed_page_message: 'Gone',
      name: 'L',
      password_enabled: true,
      response_limit: 3,
      anonymous_type: 'fully_anonymous',
    });
    expect(patched.body.date_modified).not.toBe(c.body.date_modified);
    const put = await server.client.put(`/v3/collectors/${c.body.id}`, { name: 'New' }, { token: a.token });
    expect(put.body).toMatchObject({
      name: 'New',
      password_enabled: false,
      response_limit: null,
      anonymous_type: 'not_anonymous',
      closed_page_message:
        'This survey is currently closed.  Please contact the author of this survey for further assistance.',
    });
    const typeChange = await server.client.patch(
      `/v3/collectors/${c.body.id}`,
      { type: 'email' },
      { token: a.token },
    );
    expect(errorCode(typeChange)).toBe('1002');
    const badStatus = await server.client.patch(
      `/v3/collectors/${c.body.id}`,
      { status: 'new' },
      { token: a.token },
    );
    expect(errorCode(badStatus)).toBe('1002');
    expect(await events('collector_updated', c.body.id)).toHaveLength(2);

    const other = await server.account();
    for (const res of [
      await server.client.get(`/v3/collectors/${c.body.id}`, { token: other.token }),
      await server.client.patch(`/v3/collectors/${c.body.id}`, { name: 'x' }, { token: other.token }),
      await server.client.delete(`/v3/collectors/${c.body.id}`, { token: other.token }),
    ])
      expect(errorCode(res)).toBe('1020');
    const reader = await server.account({ scopes: ['collectors_read'] });
    expect(
      errorCode(await server.client.delete(`/v3/collectors/${c.body.id}`, { token: reader.token })),
    ).toBe('1014');
    expect(errorCode(await server.client.get(`/v3/collectors/${c.body.id}`))).toBe('1010');

    const del = await server.client.delete(`/v3/collectors/${c.body.id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(c.body.id);
    expect(await events('collector_deleted', c.body.id)).toHaveLength(1);
    expect((await server.client.get(`/v3/collectors/${c.body.id}`, { token: a.token })).status).toBe(404);
    expect((await server.client.get(`/v3/collectors/abc`, { token: a.token })).status).toBe(404);
  });
});

describe('GET /surveys?include=collect_stats', () => {
  it('counts each survey’s collectors by status and type', async () => {
    const a = await server.account();
    const sid = await survey(a.token);
    const empty = await survey(a.token);
    const web = await server.client.post(
      `/v3/surveys/${sid}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' }, { token: a.token });
    await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'email' }, { token: a.token });
    await server.client.patch(`/v3/collectors/${web.body.id}`, { status: 'closed' }, { token: a.token });
    const list = await server.client.get('/v3/surveys?include=collect_stats', { token: a.token });
    const byId = new Map(list.body.data.map((s: any) => [s.id, s.collect_stats]));
    expect(byId.get(sid)).toEqual({
      total_count: 3,
      status_list: { closed: 1, open: 1, new: 1 },
      type_list: { weblink: 2, email: 1 },
    });
    expect(byId.get(empty)).toEqual({ total_count: 0, status_list: {}, type_list: {} });
  });
});
