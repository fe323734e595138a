// The app lifecycle: the operator's command verbs (user --operator, app review/extend/deploy), the
// developer pages' settings, secret and deploy actions, and write scopes of public apps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import { isOperator, setOperator } from '../../src/domain/accounts/users.js';
import { runCli, runCliJson } from '../helpers/cli.js';
import { signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorize, authorizePath, exchange, hiddenFields } from './flow.js';

let server: TestServer;
let env: Record<string, string>;
const REDIRECT = 'http://localhost:9/callback';

beforeAll(async () => {
  server = await startServer();
  env = {
    DATABASE_URL: server.config.databaseUrl,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  };
});
afterAll(() => server.close());

async function expireDraft(appId: string) {
  await server.deps.db.kysely
    .updateTable('apps')
    .set({ draft_expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', appId)
    .execute();
}

describe('operator command verbs', () => {
  it('flags operators with user create --operator and user update --[no-]operator', async () => {
    const created = runCliJson(
      [
        'user',
        'create',
        '--username',
        'op_cli',
        '--email',
        'op@example.com',
        '--password',
        'long enough pw',
        '--operator',
      ],
      env,
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/), username: 'op_cli', operator: true });
    expect(await isOperator(server.deps, created.id)).toBe(true);
    // the last active operator keeps the flag: a second one first
    runCliJson(
      [
        'user',
        'create',
        '--username',
        'op_cli2',
        '--email',
        'op2@example.com',
        '--password',
        'long enough pw',
      ],
      env,
    );
    expect(runCliJson(['user', 'update', '--username', 'op_cli2', '--operator'], env).operator).toBe(true);
    const off = runCliJson(['user', 'update', '--username', 'op_cli', '--no-operator'], env);
    expect(off.operator).toBe(false);
    expect(await isOperator(server.deps, created.id)).toBe(false);
  });

  it('app review --approve publishes the app without the write scopes; --approve-write-scopes adds them', async () => {
    const owner = await server.account({ plan: 'premier' });
    const before = await server.client.get('/v3/users/me', { token: owner.token });
    expect(String(before.headers['x-oauth-scopes-granted'])).toContain('surveys_write');
    const out = runCliJson(['app', 'review', '--app-id', owner.app.id, '--approve'], env);
    expect(out).toEqual({
      app_id: owner.app.id,
      status: 'public',
      review_status: 'approved',
      write_scopes_approved: false,
    });
    const after = await server.client.get('/v3/users/me', { token: owner.token });
    expect(after.status).toBe(200);
    const granted = String(after.headers['x-oauth-scopes-granted']).split(',');
    expect(granted).not.toContain('surveys_write');
    expect(granted).not.toContain('responses_write');
    expect(granted).toContain('surveys_read');

    const user = await server.account({ plan: 'premier' });
    const web = await signIn(server, user);
    const consent = await web.get(authorizePath({ clientId: owner.app.client_id, redirectUri: REDIRECT }));
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('View Surveys');
    expect(consent.text).not.toContain('Create/Modify Surveys');
    expect((await web.get('/apps')).text).toContain(owner.app.name);

    const write = runCliJson(
      ['app', 'review', '--app-id', owner.app.id, '--approve', '--approve-write-scopes'],
      env,
    );
    expect(write.write_scopes_approved).toBe(true);
    const again = await web.get(authorizePath({ clientId: owner.app.client_id, redirectUri: REDIRECT }));
    expect(again.text).toContain('Create/Modify Surveys');
    expect(again.text).toContain('Create/Modify Responses');
  });

  it('app review --reject keeps the app a draft and tells the developer', async () => {
    const owner = await server.account();
    const web = await signIn(server, owner);
    const page = await web.get(`/developer/apps/${owner.app.id}`);
    const fields = hiddenFields(page.text, `/developer/apps/${owner.app.id}/deploy`);
    expect(
      (await web.post(`/developer/apps/${owner.app.id}/deploy`, { ...fields, target: 'public' })).status,
    ).toBe(303);
    const out = runCliJson(
      ['app', 'review', '--app-id', owner.app.id, '--reject', '--note', 'needs a privacy policy'],
      env,
    );
    expect(out).toMatchObject({ status: 'draft', review_status: 'rejected' });
    const after = await web.get(`/developer/apps/${owner.app.id}`);
    expect(after.text).toContain('The operator did not approve the app: needs a privacy policy');
  });

  it('refuses contradictory or missing flags and unknown apps', async () => {
    const owner = await server.account();
    const both = runCli(['app', 'review', '--app-id', owner.app.id, '--approve', '--reject'], env);
    expect(both.status).toBe(1);
    expect(both.stderr).toContain('exactly one of --approve or --reject');
    expect(runCli(['app', 'review', '--app-id', owner.app.id], env).status).toBe(1);
    const unknown = runCli(['app', 'extend', '--app-id', '999999999'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no app with id 999999999');
    expect(runCli(['app', 'deploy', '--app-id', owner.app.id], env).status).toBe(1);
    expect(runCli(['app', 'extend', '--app-id', owner.app.id, '--days', 'x'], env).status).toBe(1);
  });

  it('app extend re-enables a disabled draft; app deploy --private deploys a disabled one', async () => {
    const a = await server.account();
    await expireDraft(a.app.id);
    const disabled = await server.client.get('/v3/users/me', { token: a.token });
    expect(disabled.status).toBe(401);
    expect(disabled.body.error.id).toBe('1012');
    const out = runCliJson(['app', 'extend', '--app-id', a.app.id, '--days', '30'], env);
    expect(out.status).toBe('draft');
    const days = (Date.parse(out.draft_expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(200);

    const b = await server.account();
    await expireDraft(b.app.id);
    expect(runCliJson(['app', 'deploy', '--app-id', b.app.id, '--private'], env)).toEqual({
      app_id: b.app.id,
      status: 'private',
    });
    expect((await server.client.get('/v3/users/me', { token: b.token })).status).toBe(200);
    // a deployed app has no draft window to extend
    expect(runCli(['app', 'extend', '--app-id', b.app.id], env).status).toBe(1);
  });
});

describe('app revoke', () => {
  it('revokes like removing the app under linked apps, with the same events', async () => {
    const a = await server.account();
    const out = runCliJson(['app', 'revoke', '--app-id', a.app.id, '--username', a.user.username], env);
    expect(out).toEqual({ app_id: a.app.id, revoked: 1 });
    expect((await server.client.get('/v3/users/me', { token: a.token })).body).toEqual({
      status: 1,
      errmsg: 'Client revoked access grant',
    });
    const types = await server.deps.db.kysely
      .selectFrom('events')
      .select('type')
      .where('owner_id', '=', a.user.id)
      .where('resource_id', '=', a.app.id)
      .execute();
    expect(types.map((t) => t.type).sort()).toEqual(['app_uninstalled', 'grant_info_deleted']);
  });
});

describe('developer pages', () => {
  it('shows someone else’s app as not found', async () => {
    const owner = await server.account();
    const other = await server.account();
    const web = await signIn(server, other);
    const res = await web.get(`/developer/apps/${owner.app.id}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(owner.app.client_id);
    const csrf = await web.csrf('/developer/apps');
    const post = await web.post(`/developer/apps/${owner.app.id}/secret`, { _csrf: csrf });
    expect(post.status).toBe(404);
    expect((await web.get('/developer/apps/not-a-number')).status).toBe(404);
  });

  it('registers an app like app create, and keeps the form values when refusing bad input', async () => {
    const owner = await server.account({ plan: 'basic' });
    const web = await signIn(server, owner);
    const _csrf = await web.csrf('/developer/apps/new');
    const bad = await web.post('/developer/apps', {
      _csrf,
      name: 'My <app>',
      redirect_uris: 'not a url',
      scope_surveys_read: 'required',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('not an absolute URL');
    expect(bad.text).toContain('value="My &lt;app&gt;"');
    expect(bad.text).toMatch(
      /<select id="scope_surveys_read" name="scope_surveys_read">(?:(?!<\/select>).)*value="required" selected/s,
    );
    const ok = await web.post('/developer/apps', {
      _csrf,
      name: 'My <app>',
      redirect_uris: REDIRECT,
      scope_surveys_read: 'required',
      scope_users_read: 'optional',
      scope_groups_read: 'optional',
    });
    expect(ok.status).toBe(201);
    const token = /id="access-token"[^>]*>([^<]+)</.exec(ok.text)![1];
    const me = await server.client.get('/v3/users/me', { token });
    expect(me.status).toBe(200);
    // the owner's token gets the requested scopes the basic plan allows
    expect(me.headers['x-oauth-scopes-granted']).toBe('surveys_read,users_read');
    const row = await server.deps.db.kysely
      .selectFrom('apps')
      .selectAll()
      .where('owner_id', '=', owner.user.id)
      .where('name', '=', 'My <app>')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('draft');
    expect(JSON.parse(row.scopes)).toEqual({
      surveys_read: 'required',
      users_read: 'optional',
      groups_read: 'optional',
    });
  });

  it('saves settings and refuses a bad redirect URI with a message', async () => {
    const owner = await server.account();
    const web = await signIn(server, owner);
    const page = await web.get(`/developer/apps/${owner.app.id}`);
    const { _csrf } = hiddenFields(page.text, `/developer/apps/${owner.app.id}`);
    const bad = await web.post(`/developer/apps/${owner.app.id}`, {
      _csrf,
      name: 'Renamed',
      redirect_uris: 'javascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('redirect URI');
    const blank = await web.post(`/developer/apps/${owner.app.id}`, { _csrf, name: '  ', redirect_uris: '' });
    expect(blank.status).toBe(400);
    const ok = await web.post(`/developer/apps/${owner.app.id}`, {
      _csrf,
      name: 'Renamed',
      redirect_uris: 'https://a.example/cb\r\nhttps://b.example/cb',
      scope_users_read: 'required',
      scope_surveys_read: 'optional',
    });
    expect(ok.status).toBe(303);
    const row = await server.deps.db.kysely
      .selectFrom('apps')
      .selectAll()
      .where('id', '=', owner.app.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Renamed');
    expect(JSON.parse(row.redirect_uris)).toEqual(['https://a.example/cb', 'https://b.example/cb']);
    expect(JSON.parse(row.scopes)).toEqual({ users_read: 'required', surveys_read: 'optional' });
    const wrong = await web.post(`/developer/apps/${owner.app.id}`, {
      _csrf,
      name: 'X',
      scope_users_read: 'always',
    });
    expect(wrong.status).toBe(400);
  });

  it('regenerates the client secret: the old one stops working at the token endpoint', async () => {
    const owner = await server.account();
    const web = await signIn(server, owner);
    const code1 = (
      await authorize(web, { clientId: owner.app.client_id, redirectUri: REDIRECT })
    ).searchParams.get('code')!;
    const { _csrf } = hiddenFields(
      (await web.get(`/developer/apps/${owner.app.id}`)).text,
      `/developer/apps/${owner.app.id}/secret`,
    );
    const res = await web.post(`/developer/apps/${owner.app.id}/secret`, { _csrf });
    expect(res.status).toBe(200);
    const secret = /id="client-secret"[^>]*>([^<]+)</.exec(res.text)![1];
    expect(secret).not.toBe(owner.clientSecret);
    const fields = {
      grant_type: 'authorization_code',
      client_id: owner.app.client_id,
      code: code1,
      redirect_uri: REDIRECT,
    };
    expect((await exchange(server.url, { ...fields, client_secret: owner.clientSecret })).body.error).toBe(
      'invalid_client',
    );
    expect((await exchange(server.url, { ...fields, client_secret: secret })).status).toBe(200);
  });

  it('deploys as private within the window, and refuses to deploy a disabled draft', async () => {
    const owner = await server.account();
    const web = await signIn(server, owner);
    const page = await web.get(`/developer/apps/${owner.app.id}`);
    const fields = hiddenFields(page.text, `/developer/apps/${owner.app.id}/deploy`);
    const res = await web.post(`/developer/apps/${owner.app.id}/deploy`, { ...fields, target: 'private' });
    expect(res.location).toBe(`/developer/apps/${owner.app.id}?deployed=private`);
    expect((await web.get(res.location!)).text).toContain('<dd id="app-status">private</dd>');
    const twice = await web.post(`/developer/apps/${owner.app.id}/deploy`, { ...fields, target: 'public' });
    expect(twice.status).toBe(400);
    expect(twice.text).toContain('already deployed');

    const late = await createApp(server.deps, owner.user, { name: 'Late', redirectUris: [REDIRECT] });
    await expireDraft(late.app.id);
    const latePage = await web.get(`/developer/apps/${late.app.id}`);
    expect(latePage.text).toContain('<dd id="app-status">disabled</dd>');
    expect(latePage.text).toContain('Ask the operator');
    const refused = await web.post(`/developer/apps/${late.app.id}/deploy`, { ...fields, target: 'private' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('disabled');
  });
});

describe('operator page', () => {
  it('is for operators only and extends a disabled draft', async () => {
    const owner = await server.account();
    await expireDraft(owner.app.id);
    const plain = await signIn(server, owner);
    expect((await plain.get('/operator/apps')).status).toBe(403);
    const csrf = await plain.csrf('/account');
    expect(
      (await plain.post(`/operator/apps/${owner.app.id}/extend`, { _csrf: csrf, days: '10' })).status,
    ).toBe(403);
    expect((await new WebSession(server.url).get('/operator/apps')).location).toBe(
      '/login?next=%2Foperator%2Fapps',
    );

    const op = await server.account();
    await setOperator(server.deps, op.user.id, true);
    const web = await signIn(server, op);
    const page = await web.get('/operator/apps');
    expect(page.status).toBe(200);
    const fields = hiddenFields(page.text, `/operator/apps/${owner.app.id}/extend`);
    const res = await web.post(`/operator/apps/${owner.app.id}/extend`, { ...fields, days: '10' });
    expect(res.status).toBe(303);
    expect((await server.client.get('/v3/users/me', { token: owner.token })).status).toBe(200);
    const bad = await web.post(`/operator/apps/${owner.app.id}/extend`, { ...fields, days: '0' });
    expect(bad.status).toBe(400);
  });
});

describe('changes to a public app', () => {
  it('wait for review: users see and grant the approved version until the operator approves', async () => {
    const owner = await server.account();
    const op = await server.account();
    await setOperator(server.deps, op.user.id, true);
    const opWeb = await signIn(server, op);
    const review = async (decision: 'approve' | 'reject') => {
      const page = await opWeb.get('/operator/apps');
      const fields = hiddenFields(page.text, `/operator/apps/${owner.app.id}/review`);
      const res = await opWeb.post(`/operator/apps/${owner.app.id}/review`, { ...fields, decision });
      expect(res.status).toBe(303);
      return page;
    };
    await review('approve');
    const dev = await signIn(server, owner);
    const change = async (name: string, redirect: string) => {
      const page = await dev.get(`/developer/apps/${owner.app.id}`);
      const { _csrf } = hiddenFields(page.text, `/developer/apps/${owner.app.id}`);
      const res = await dev.post(`/developer/apps/${owner.app.id}`, {
        _csrf,
        name,
        redirect_uris: redirect,
        scope_users_read: 'required',
      });
      expect(res.status).toBe(303);
    };
    const user = await server.account({ plan: 'premier' });
    const web = await signIn(server, user);
    const consent = (redirect: string) =>
      web.get(authorizePath({ clientId: owner.app.client_id, redirectUri: redirect }));
    const approvedVersionShown = async () => {
      const page = await consent(REDIRECT);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<span id="app-name">${owner.app.name}</span>`);
      expect(page.text).toContain('<strong>localhost:9</strong>');
      expect(page.text).not.toContain('Required access');
      expect((await consent('https://changed.example/cb')).status).toBe(400);
      expect((await web.get('/apps')).text).not.toContain('Changed name');
    };

    // A change the operator rejects (app review --reject) never reaches users.
    await change('Changed name', 'https://changed.example/cb');
    await approvedVersionShown();
    const pending = await dev.get(`/developer/apps/${owner.app.id}`);
    expect(pending.text).toContain('id="pending-revision"');
    expect((await dev.get(`/developer/apps/${owner.app.id}?saved=pending_review`)).text).toContain(
      'Your changes are submitted for review',
    );
    expect(pending.text).toContain('value="Changed name"');
    expect(runCliJson(['app', 'review', '--app-id', owner.app.id, '--reject'], env)).toMatchObject({
      status: 'public',
      review_status: 'rejected',
    });
    await approvedVersionShown();

    // While a change waits, a grant gets the approved scopes (all optional, so contacts_read too).
    await change('Changed name', 'https://changed.example/cb');
    await approvedVersionShown();
    const code = (
      await authorize(web, { clientId: owner.app.client_id, redirectUri: REDIRECT })
    ).searchParams.get('code')!;
    const token = await exchange(server.url, {
      grant_type: 'authorization_code',
      client_id: owner.app.client_id,
      client_secret: owner.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    expect(token.status).toBe(200);
    const me = await server.client.get('/v3/users/me', { token: token.body.access_token });
    expect(String(me.headers['x-oauth-scopes-granted']).split(',')).toContain('contacts_read');

    // The operator sees what changes and approves it: from now on users see the new version.
    const opPage = await review('approve');
    expect(opPage.text).toContain(`id="pending-${owner.app.id}"`);
    expect(opPage.text).toContain('Changed name');
    const now = await consent('https://changed.example/cb');
    expect(now.status).toBe(200);
    expect(now.text).toContain('<span id="app-name">Changed name</span>');
    expect(now.text).toContain('Required access');
    expect((await consent(REDIRECT)).status).toBe(400);
  });
});
