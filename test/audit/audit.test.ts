// The audit log through HTTP and the command line: every mutating /v3 operation of the OpenAPI
// document writes a row (a valid change `ok` in its commit, a refused one `denied`), page form posts
// and sign-ins write theirs, no row holds a secret, the team owner's /account/audit and the
// operators' /operator/audit show them with filters and pages, and `survey-service audit --json`
// prints them as JSON lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import { UNAUDITED } from '../../src/http/audit.js';
import { runCli, runCliJson } from '../helpers/cli.js';
import { signIn, startServer, type TestAccount, type TestServer, WebSession } from '../helpers/fixtures.js';

let server: TestServer;
let owner: TestAccount;
let member: TestAccount;
let outsider: TestAccount;
let operator: TestAccount;
let teamId: string;

beforeAll(async () => {
  server = await startServer();
  [owner, member, outsider, operator] = await Promise.all([
    server.account(),
    server.account(),
    server.account(),
    server.account(),
  ]);
  teamId = (await createTeam(server.deps, owner.user, { name: 'Audited team' })).id;
  await addMember(server.deps, teamId, { username: member.user.username }, { userId: owner.user.id });
  await setOperator(server.deps, operator.user.id, true);
});
afterAll(() => server?.close());

const rowsOf = (actorId: string) =>
  server.deps.db.kysely.selectFrom('audit_log').selectAll().where('actor_id', '=', actorId).execute();

describe('every mutating operation of /v3', () => {
  it('writes a row named by its method and path (each operation called once, in the OpenAPI document)', async () => {
    const doc = (await server.client.get('/v3/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const ops: Array<{ method: string; path: string }> = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item))
        if (['post', 'put', 'patch', 'delete'].includes(method))
          ops.push({ method: method.toUpperCase(), path });
    expect(ops.length).toBeGreaterThan(60);
    const audited = ops.filter(
      ({ method, path }) => !UNAUDITED.some((r) => r.test(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`)),
    );
    // Only the respondent's submission is left out.
    expect(ops.length - audited.length).toBe(1);
    // One request each, one after another: an id nobody has (a refusal: 404, `denied`), or for a
    // collection an empty body (a change or a refused body).
    for (const { method, path } of audited) {
      const url = path.replace(/\{\w+\}/g, '987654321');
      await server.client.request(method, url, {
        token: member.token,
        body: method === 'DELETE' ? undefined : {},
      });
    }
    const actions = new Set((await rowsOf(member.user.id)).map((r) => r.action));
    const missing = audited.map(({ method, path }) => `${method} ${path}`).filter((a) => !actions.has(a));
    expect(missing).toEqual([]);
    const rows = await rowsOf(member.user.id);
    expect(rows.every((r) => r.via === 'token' && r.app_id === member.app.id && r.team_id === teamId)).toBe(
      true,
    );
    expect(rows.some((r) => r.outcome === 'denied' && r.status === 404)).toBe(true);
  });

  it('a change commits with its `ok` row; a refusal writes `denied` with the refused actor', async () => {
    const created = await server.client.post(
      '/v3/surveys',
      { title: 'Audited survey' },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(
      (await server.client.patch(`/v3/surveys/${id}`, { title: 'Renamed' }, { token: owner.token })).status,
    ).toBe(200);
    expect(
      (await server.client.patch(`/v3/surveys/${id}`, { title: 'Theirs' }, { token: outsider.token })).status,
    ).toBe(404);
    const narrow = await server.account({ scopes: ['users_read'] });
    expect((await server.client.delete(`/v3/surveys/${id}`, { token: narrow.token })).status).toBe(403);
    const mine = await rowsOf(owner.user.id);
    expect(mine.find((r) => r.action === 'POST /v3/surveys')).toMatchObject({
      outcome: 'ok',
      via: 'token',
      app_id: owner.app.id,
      address: '127.0.0.1',
      target_type: 'survey',
      status: null,
    });
    expect(mine.find((r) => r.action === 'PATCH /v3/surveys/{survey_id}')).toMatchObject({
      outcome: 'ok',
      target_type: 'survey',
      target_id: id,
    });
    expect(
      (await rowsOf(outsider.user.id)).find((r) => r.action === 'PATCH /v3/surveys/{survey_id}'),
    ).toMatchObject({
      outcome: 'denied',
      status: 404,
      target_id: id,
      actor_name: outsider.user.username,
    });
    expect((await rowsOf(narrow.user.id)).map((r) => [r.action, r.outcome, r.status])).toEqual([
      ['DELETE /v3/surveys/{survey_id}', 'denied', 403],
    ]);
    // The survey is still there: a refusal committed nothing.
    expect((await server.client.get(`/v3/surveys/${id}`, { token: owner.token })).body.title).toBe('Renamed');
  });
});

describe('pages and sign-ins', () => {
  it('a sign-in writes `ok`, a wrong password `failed`, a page form post its own row; none holds a secret', async () => {
    const web = await signIn(server, member);
    const wrong = new WebSession(server.url);
    expect((await wrong.signIn(member.user.username, 'Wrong-Password-4711')).status).not.toBe(303);
    expect(
      (await web.postForm('/account/name', { first_name: 'Ada', last_name: 'Audit' }, '/account')).status,
    ).toBe(303);
    const rows = await rowsOf(member.user.id);
    const signIns = rows.filter((r) => r.action === 'sign_in').map((r) => [r.via, r.outcome]);
    expect(signIns).toEqual(
      expect.arrayContaining([
        ['session', 'ok'],
        ['session', 'failed'],
      ]),
    );
    expect(rows.find((r) => r.action === 'POST /account/name')).toMatchObject({
      via: 'session',
      outcome: 'ok',
      app_id: null,
      actor_name: member.user.username,
    });
    const text = JSON.stringify(await server.deps.db.kysely.selectFrom('audit_log').selectAll().execute());
    for (const secret of [
      member.password,
      'Wrong-Password-4711',
      member.token,
      member.clientSecret,
      owner.token,
    ])
      expect(text).not.toContain(secret);
    for (const cookie of web.cookies.values()) expect(text).not.toContain(cookie);
  });
});

describe('who reads the log', () => {
  it("the team owner reads their team's rows on /account/audit; a member or an outsider gets 404", async () => {
    const web = await signIn(server, owner);
    const page = await web.get(`/account/audit?actor=${member.user.username}&action=POST+%2Faccount`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('POST /account/name');
    expect(page.text).not.toContain('PATCH /v3/surveys/{survey_id}');
    const all = await web.get('/account/audit');
    expect(all.text).not.toContain(outsider.user.username);
    expect((await (await signIn(server, member)).get('/account/audit')).status).toBe(404);
    expect((await (await signIn(server, outsider)).get('/account/audit')).status).toBe(404);
  });

  it('operators read every row on /operator/audit, filtered and in pages of 50; others get 403', async () => {
    const web = await signIn(server, operator);
    const first = await web.get(`/operator/audit?actor=${member.user.username}`);
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/Page 1 of [2-9]/);
    expect((first.text.match(/<tr><td data-label="When">/g) ?? []).length).toBe(50);
    expect(first.text).not.toContain(`<strong>${outsider.user.username}</strong>`);
    const second = await web.get(`/operator/audit?actor=${member.user.username}&page=2`);
    expect(second.text).toContain('Page 2 of');
    const target = await web.get(
      `/operator/audit?target=survey&action=PATCH&actor=${outsider.user.username}`,
    );
    expect(target.text).toContain('refused');
    const later = await web.get('/operator/audit?since=2999-01-01');
    expect(later.text).toContain('0 row(s)');
    expect((await web.get('/operator/audit?since=yesterday')).status).toBe(400);
    expect((await (await signIn(server, owner)).get('/operator/audit')).status).toBe(403);
  });
});

describe('the command line', () => {
  it('a verb that changes data writes its row; `audit --json` prints JSON lines, by --since and --actor', async () => {
    const env = {
      DATABASE_URL: server.config.databaseUrl,
      SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    };
    const since = new Date().toISOString();
    runCliJson(['user', 'update', '--username', outsider.user.username, '--plan', 'standard'], env);
    const out = runCli(['audit', '--json', '--since', since], env);
    expect(out.status).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({
        actor: 'cli',
        via: 'cli',
        action: 'user update',
        outcome: 'ok',
        address: null,
      }),
    ]);
    const mine = runCli(['audit', '--json', '--actor', member.user.username], env);
    const theirs = mine.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(theirs.length).toBeGreaterThan(60);
    expect(theirs.every((l) => l.actor === member.user.username)).toBe(true);
    expect(theirs.map((l) => l.at)).toEqual(theirs.map((l) => l.at).sort());
    expect(runCli(['audit', '--since', 'soon'], env).status).not.toBe(0);
  });
});
