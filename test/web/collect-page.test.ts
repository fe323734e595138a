// The collect page over HTTP (a cookie-keeping client, no browser): the survey's collectors listed,
// every change the page makes read back through the collectors API, errors shown on the page, and
// who may see and change what (owner, Viewer and Collector shares, stranger, signed out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfToken, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';

let server: TestServer;
let t: TestTeam;
let survey: { id: string; collect_url: string; edit_url: string; analyze_url: string; summary_url: string };
let sm: string;
let path: string;
let web: WebSession;

async function collectors(): Promise<any[]> {
  const res = await server.client.get(
    `/v3/surveys/${survey.id}/collectors?include=status,type,response_count,url&sort_by=id&sort_order=ASC`,
    { token: t.owner.token },
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

async function collector(id: string): Promise<any> {
  const res = await server.client.get(`/v3/collectors/${id}`, { token: t.owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

const post = async (session: WebSession, action: string, form: Record<string, string>) => {
  return session.postForm(`/collect/${action}?sm=${sm}`, form, path);
};

beforeAll(async () => {
  server = await startServer();
  t = await makeTeam(server);
  survey = (await server.client.post('/v3/surveys', { title: 'Collect me' }, { token: t.owner.token })).body;
  sm = new URL(survey.collect_url).searchParams.get('sm')!;
  path = `/collect/list?sm=${sm}`;
  expect(new URL(survey.collect_url).pathname).toBe('/collect/list');
  web = await signIn(server, t.owner);
});
afterAll(() => server.close());

describe('collect page', () => {
  it('signed out: redirects to sign-in and back; a change is not made', async () => {
    const anonymous = new WebSession(server.url);
    const res = await anonymous.get(path);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    const csrf = await anonymous.csrf('/login');
    const create = await anonymous.post(`/collect/collectors?sm=${sm}`, { _csrf: csrf, name: 'Anon' });
    expect(create.status).toBe(303);
    expect(create.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    expect(await collectors()).toEqual([]);
  });

  it('shows an empty list, the links to the other pages and the create form', async () => {
    const res = await web.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('<h1>Collect me</h1>');
    expect(res.text).toContain('This survey has no collectors yet.');
    for (const url of [survey.edit_url, survey.analyze_url, survey.summary_url])
      expect(res.text).toContain(`href="${new URL(url).pathname}${new URL(url).search}"`);
    expect(res.text).toContain('<label for="create-name">');
    expect(res.text).not.toContain('does not allow changes');
  });

  it('creates web link collectors, named and default-named, listed with their facts and URL', async () => {
    let res = await post(web, 'collectors', { name: 'Newsletter link' });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/collect\/list\?sm=[^&]+&done=created#c-\d+$/);
    res = await post(web, 'collectors', { name: '' });
    expect(res.status).toBe(303);
    const list = await collectors();
    expect(list.map((c) => [c.name, c.type, c.status, c.response_count])).toEqual([
      ['Newsletter link', 'weblink', 'open', 0],
      ['Web Link 2', 'weblink', 'open', 0],
    ]);

    const page = await web.get(res.location!);
    expect(page.text).toContain('The web link collector was created.');
    const section = (id: string) =>
      new RegExp(`<section class="collector card" id="c-${id}"[\\s\\S]*?</section>`).exec(page.text)![0];
    const first = section(list[0].id);
    expect(first).toContain('<h2 id="c-');
    expect(first).toContain('Newsletter link</h2>');
    expect(first).toContain('<dd>Web link</dd>');
    expect(first).toContain('<dd data-status="open">Open</dd>');
    expect(first).toContain('<dt>Responses</dt><dd>0</dd>');
    const { date_created } = await collector(list[0].id);
    expect(first).toContain(`${date_created.slice(0, 10)} ${date_created.slice(11, 16)} UTC`);
    // The respondent URL (the API's `url`, on the host that was called) as a link and a copyable field.
    const url = new URL(list[0].url);
    const here = `${server.url}${url.pathname}`;
    expect(first).toContain(`<a href="${here}">${here}</a>`);
    expect(first).toMatch(
      new RegExp(`<input id="c-\\d+-url" class="copy" type="text" readonly value="${here}">`),
    );
    expect(first).toMatch(/<label for="c-\d+-url">Copy the link of Newsletter link<\/label>/);
    expect(page.text).toContain('2 collectors, 0 responses.');
  });

  it('closes and opens a collector; its respondent link follows', async () => {
    const [c] = await collectors();
    let res = await post(web, `collectors/${c.id}/status`, { status: 'closed' });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=closed');
    expect((await collector(c.id)).status).toBe('closed');
    const respondent = new URL(c.url).pathname;
    expect((await new WebSession(server.url).get(respondent)).text).toContain('This survey is closed.');
    const page = await web.get(path);
    expect(page.text).toContain('<dd data-status="closed">Closed</dd>');
    expect(page.text).toContain('Open <span class="visually-hidden">collector 1</span>');

    res = await post(web, `collectors/${c.id}/status`, { status: 'open' });
    expect(res.location).toContain('done=opened');
    expect((await collector(c.id)).status).toBe('open');
    expect((await new WebSession(server.url).get(respondent)).text).not.toContain('This survey is closed.');
  });

  it('sets and clears a close date and a response limit', async () => {
    const [c] = await collectors();
    let res = await post(web, `collectors/${c.id}/settings`, {
      close_date: '2038-01-01T09:30',
      response_limit: '25',
    });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=settings');
    let got = await collector(c.id);
    expect(got.close_date).toBe('2038-01-01T09:30:00+00:00');
    expect(got.response_limit).toBe(25);
    const page = await web.get(path);
    expect(page.text).toContain('value="2038-01-01T09:30"');
    expect(page.text).toContain('<dt>Responses</dt><dd>0 of at most 25</dd>');
    expect(page.text).toContain('2038-01-01 09:30 UTC');

    res = await post(web, `collectors/${c.id}/settings`, { close_date: '', response_limit: '' });
    expect(res.status).toBe(303);
    got = await collector(c.id);
    expect(got.close_date).toBeNull();
    expect(got.response_limit).toBeNull();
  });

  it('shows the domain’s and the form’s errors beside the form, keeping what was typed', async () => {
    const [c] = await collectors();
    let res = await post(web, `collectors/${c.id}/settings`, {
      close_date: '2038-01-01T09:30',
      response_limit: '-1',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(
      `<p role="alert" class="error" id="c-${c.id}-error">&#39;response_limit&#39; must be at least 0.</p>`,
    );
    expect(res.text).toContain(`<details open><summary>Close date and response limit of collector 1`);
    expect(res.text).toMatch(/name="response_limit" type="number"[^>]*value="-1"/);
    expect(res.text).toMatch(/name="close_date" type="datetime-local" value="2038-01-01T09:30"/);
    expect(res.text).toContain('aria-invalid="true"');

    res = await post(web, `collectors/${c.id}/settings`, { close_date: 'next tuesday', response_limit: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The close date must be a date and time');
    res = await post(web, `collectors/${c.id}/settings`, { close_date: '', response_limit: 'lots' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The response limit must be a whole number.');
    res = await post(web, 'collectors', { name: 'x'.repeat(501) });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<p role="alert" class="error" id="create-error">');
    const got = await collector(c.id);
    expect([got.close_date, got.response_limit]).toEqual([null, null]);
    expect((await collectors()).length).toBe(2);

    // A bad status value or a missing CSRF token changes nothing.
    res = await post(web, `collectors/${c.id}/status`, { status: 'paused' });
    expect(res.status).toBe(400);
    res = await web.post(`/collect/collectors/${c.id}/status?sm=${sm}`, {
      _csrf: 'forged',
      status: 'closed',
    });
    expect(res.status).toBe(403);
    expect((await collector(c.id)).status).toBe('open');
  });

  it('escapes a <script> collector name', async () => {
    const res = await post(web, 'collectors', { name: '<script>alert(1)</script>' });
    expect(res.status).toBe(303);
    const page = await web.get(path);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const [, , c] = await collectors();
    expect(c.name).toBe('<script>alert(1)</script>');
  });

  it('deletes a collector', async () => {
    const list = await collectors();
    const last = list[list.length - 1];
    // Without the dialog's confirm=yes, a page asks first, naming the responses lost.
    const ask = await post(web, `collectors/${last.id}/delete`, {});
    expect(ask.status).toBe(200);
    expect(ask.text).toContain(
      `Delete the collector &quot;${last.name
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')}&quot;?`,
    );
    expect(ask.text).toContain('and its 0 responses.');
    expect(ask.text).toContain('name="confirm" value="yes"');
    expect((await collectors()).length).toBe(list.length);
    const res = await post(web, `collectors/${last.id}/delete`, { confirm: 'yes' });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=deleted');
    expect((await collectors()).map((c) => c.id)).toEqual(list.slice(0, -1).map((c) => c.id));
    expect((await server.client.get(`/v3/collectors/${last.id}`, { token: t.owner.token })).status).toBe(404);
    // Deleting it again (a stale form): the collector is gone.
    const again = await post(web, `collectors/${last.id}/delete`, { confirm: 'yes' });
    expect(again.status).toBe(404);
    expect(again.text).toContain('Page not found');
  });

  it('a collector of another survey is not found through this survey’s page', async () => {
    const other = (await server.client.post('/v3/surveys', { title: 'Other' }, { token: t.owner.token }))
      .body;
    const made = await server.client.post(
      `/v3/surveys/${other.id}/collectors`,
      { type: 'weblink', name: 'Other link' },
      { token: t.owner.token },
    );
    expect(made.status).toBe(201);
    const res = await post(web, `collectors/${made.body.id}/status`, { status: 'closed' });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<p role="alert" class="error">Collector not found.</p>');
    expect((await collector(made.body.id)).status).toBe('open');
    expect((await web.get(path)).text).not.toContain('Other link');
  });

  it('a paid-only change on the basic plan is refused with 403/1015, shown on the page', async () => {
    // An email collector made on a paid plan; the account then moves to the basic plan.
    const owner = await server.account({ plan: 'premier' });
    const s = (await server.client.post('/v3/surveys', { title: 'Downgraded' }, { token: owner.token })).body;
    const email = await server.client.post(
      `/v3/surveys/${s.id}/collectors`,
      { type: 'email', name: 'Invitations' },
      { token: owner.token },
    );
    expect(email.status).toBe(201);
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', owner.user.id)
      .execute();
    const session = await signIn(server, owner);
    const own = `/collect/list?sm=${new URL(s.collect_url).searchParams.get('sm')}`;
    const page = await session.get(own);
    expect(page.text).toContain('<dd>Email invitation</dd>');
    expect(page.text).not.toContain('class="copy"');
    const res = await session.post(own.replace('/list', `/collectors/${email.body.id}/status`), {
      _csrf: csrfToken(page.text),
      status: 'open',
    });
    expect(res.status).toBe(403);
    expect(res.text).toMatch(
      new RegExp(
        `<p role="alert" class="error" id="c-${email.body.id}-error">A email collector needs a paid plan`,
      ),
    );
    const got = await server.client.get(`/v3/collectors/${email.body.id}`, { token: owner.token });
    expect(got.body.status).toBe('new');
  });

  it('a Viewer sees the page read-only, and a change is refused', async () => {
    const a = api(server);
    const wg = await a.workgroup(t.owner.token, 'Viewers of collect', [t.admin.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.viewer);
    const viewer = await signIn(server, t.admin);
    const page = await viewer.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('does not allow changes');
    expect(page.text).toContain('Newsletter link');
    expect(page.text).not.toContain('<form method="post" action="/collect/');
    const [c] = await collectors();
    const csrf = csrfToken((await viewer.get('/')).text);
    for (const [action, form] of [
      ['collectors', { name: 'Viewer link' }],
      [`collectors/${c.id}/status`, { status: 'closed' }],
      [`collectors/${c.id}/settings`, { close_date: '', response_limit: '5' }],
      [`collectors/${c.id}/delete`, {}],
    ] as const) {
      const res = await viewer.post(`/collect/${action}?sm=${sm}`, { _csrf: csrf, ...form });
      expect(res.status).toBe(403);
    }
    const got = await collector(c.id);
    expect([got.status, got.response_limit]).toEqual(['open', null]);
    expect((await collectors()).length).toBe(2);
  });

  it('a Collector share may change the collectors', async () => {
    const a = api(server);
    const wg = await a.workgroup(t.owner.token, 'Collectors', [t.regular.user.id]);
    await a.share(t.owner.token, wg.id, survey.id, ROLES.collector);
    const collectorUser = await signIn(server, t.regular);
    const res = await post(collectorUser, 'collectors', { name: 'By the collector' });
    expect(res.status).toBe(303);
    expect((await collectors()).map((c) => c.name)).toContain('By the collector');
  });

  it('a stranger gets a 404 page for the page and its forms; a bad token too', async () => {
    const stranger = await server.account();
    const web3 = await signIn(server, stranger);
    const res = await web3.get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('Page not found');
    expect(res.text).not.toContain('Collect me');
    const [c] = await collectors();
    const csrf = csrfToken((await web3.get('/')).text);
    expect((await web3.post(`/collect/collectors?sm=${sm}`, { _csrf: csrf, name: 'Mine' })).status).toBe(404);
    expect(
      (await web3.post(`/collect/collectors/${c.id}/status?sm=${sm}`, { _csrf: csrf, status: 'closed' }))
        .status,
    ).toBe(404);
    expect((await collector(c.id)).status).toBe('open');
    expect((await web3.get('/collect/list?sm=not-a-real-token-at-all')).status).toBe(404);
    expect((await web3.get('/collect/list')).status).toBe(404);
    const own = csrfToken((await web.get(path)).text);
    expect((await web.post(`/collect/collectors/abc/delete?sm=${sm}`, { _csrf: own })).status).toBe(404);
  });
});
