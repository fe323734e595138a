// The Share page (/share?sm=…) and the survey list's "Shared with me", without script: the owner
// shares with a workgroup, changes the role and removes it; a member sees the survey with who
// shared it and the role, and only the controls that role allows; a user without the right to
// share sees no Share control and a direct GET or POST is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, removeMember } from '../../src/domain/teams/teams.js';
import { signIn, smOf, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeTeam, type TestTeam } from '../teams/fixtures.js';
import { api, ROLES } from './fixtures.js';

let server: TestServer;
let t: TestTeam;
let outsider: Awaited<ReturnType<TestServer['account']>>;
let owner: WebSession;
let regular: WebSession;
let stranger: WebSession;
let adminWeb: WebSession;
let survey: { id: string; title: string; sm: string };
let wg: { id: string };

beforeAll(async () => {
  server = await startServer();
  t = await makeTeam(server);
  outsider = await server.account();
  const a = api(server);
  const created = await server.client.post(
    '/v3/surveys',
    { title: 'Staff survey' },
    { token: t.owner.token },
  );
  survey = { id: created.body.id, title: 'Staff survey', sm: smOf(created.body.edit_url) };
  await a.survey(t.regular.token, 'Regular’s own');
  wg = await a.workgroup(t.owner.token, 'Readers', [t.regular.user.id]);
  owner = await signIn(server.url, t.owner);
  regular = await signIn(server.url, t.regular);
  stranger = await signIn(server.url, outsider);
  adminWeb = await signIn(server.url, t.admin);
});
afterAll(() => server.close());

const sharePath = () => `/share?sm=${survey.sm}`;
const shareLink = () => `href="/share?sm=${survey.sm}"`;
/** The share's row on the owner's page, from the page's role form. */
const shareIdOn = (html: string) => /name="share" value="([0-9a-f]{32})"/.exec(html)?.[1];

async function shares() {
  const res = await server.client.get(`/v3/workgroups/${wg.id}/shares`, { token: t.owner.token });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ id: string; resource_id: string; role_id: string }>;
}

describe('the Share page', () => {
  it('the survey list links the owner to it; the page lists the owner only, and offers the workgroup', async () => {
    const list = await owner.get('/');
    expect(list.text).toContain(shareLink());
    const page = await owner.get(sharePath());
    expect(page.status).toBe(200);
    expect(page.text).toContain('Who has access');
    expect(page.text).toContain(`${t.owner.user.username} (you)`);
    expect(page.text).toContain('Not shared yet');
    expect(page.text).toMatch(new RegExp(`<option value="${wg.id}">Readers</option>`));
    for (const role of ['Viewer', 'Editor', 'Collector', 'Analyzer', 'Full Access'])
      expect(page.text).toContain(`>${role}</option>`);
  });

  it('someone who cannot see the survey gets "not found" for the page and for a post', async () => {
    const list = await stranger.get('/');
    expect(list.text).not.toContain(shareLink());
    expect((await stranger.get(sharePath())).status).toBe(404);
    const csrf = await stranger.csrf('/');
    const post = await stranger.post(sharePath(), { _csrf: csrf, action: 'share', workgroup: wg.id });
    expect(post.status).toBe(404);
    expect(await shares()).toEqual([]);
  });

  it('the owner shares it with the workgroup as Viewer: the page lists the workgroup, its member and the role', async () => {
    const res = await owner.postForm(sharePath(), { action: 'share', workgroup: wg.id, role: ROLES.viewer });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${sharePath()}&done=shared`);
    const page = await owner.get(res.location!);
    expect(page.text).toContain('The survey is shared with the workgroup.');
    expect(page.text).toContain('Readers');
    expect(page.text).toContain(t.regular.user.username);
    expect(page.text).toMatch(new RegExp(`<option value="${ROLES.viewer}" selected>Viewer</option>`));
    expect(page.text).not.toContain('Not shared yet');
    const [share] = await shares();
    expect(share.resource_id).toBe(survey.id);
  });

  it('sharing it again with the same workgroup shows the page again with the reason', async () => {
    const csrf = await owner.csrf(sharePath());
    const res = await owner.post(sharePath(), { _csrf: csrf, action: 'share', workgroup: wg.id });
    expect(res.status).toBe(409);
    expect(res.text).toContain('already shared with the workgroup');
    expect(res.text).toContain('Who has access');
    const missing = await owner.post(sharePath(), { _csrf: csrf, action: 'share', workgroup: 'nonesuch' });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Workgroup not found');
  });
});

describe('the survey list of the member it is shared with', () => {
  it('"Shared with me" lists it with who shared it and the role; "Mine" lists only their own', async () => {
    const all = await regular.get('/');
    expect(all.text).toContain('Staff survey');
    expect(all.text).toContain('Regular’s own');
    const shared = await regular.get('/?view=shared');
    expect(shared.text).toContain('aria-current="page">Shared with me</a>');
    expect(shared.text).toContain('Staff survey');
    expect(shared.text).not.toContain('Regular’s own');
    expect(shared.text).toContain(`Shared by ${t.owner.user.username} · Viewer`);
    const own = await regular.get('/?view=mine');
    expect(own.text).toContain('Regular’s own');
    expect(own.text).not.toContain('Staff survey');
    expect(own.text).not.toContain('Shared by');
  });

  it('a Viewer gets no Share and no Delete control for it, and a direct GET or POST is refused', async () => {
    const shared = await regular.get('/?view=shared');
    expect(shared.text).not.toContain(shareLink());
    expect(shared.text).not.toContain(`aria-label="Delete Staff survey"`);
    expect(shared.text).toContain('aria-label="Copy Staff survey"');
    const page = await regular.get(sharePath());
    expect(page.status).toBe(403);
    expect(page.text).toContain('Only the owner of the survey or a user with full access');
    const [share] = await shares();
    const csrf = await regular.csrf('/');
    const role = await regular.post(sharePath(), {
      _csrf: csrf,
      action: 'role',
      share: share.id,
      role: ROLES.fullAccess,
    });
    expect(role.status).toBe(403);
    const remove = await regular.post(sharePath(), {
      _csrf: csrf,
      action: 'remove',
      share: share.id,
      confirm: 'yes',
    });
    expect(remove.status).toBe(403);
    const [after] = await shares();
    expect(after).toMatchObject({ id: share.id, role_id: ROLES.viewer });
  });

  it('once the owner gives the share Full Access, the member may share it onward', async () => {
    const page = await owner.get(sharePath());
    const shareId = shareIdOn(page.text)!;
    const res = await owner.postForm(sharePath(), { action: 'role', share: shareId, role: ROLES.fullAccess });
    expect(res.status).toBe(303);
    expect((await owner.get(res.location!)).text).toContain('The role was changed.');
    const [share] = await shares();
    expect(share.role_id).toBe(ROLES.fullAccess);
    const list = await regular.get('/?view=shared');
    expect(list.text).toContain(`Shared by ${t.owner.user.username} · Full Access`);
    expect(list.text).toContain(shareLink());
    expect((await regular.get(sharePath())).status).toBe(200);
  });
});

describe('removing access', () => {
  it('asks first without script, then removes: the member no longer sees the survey', async () => {
    const page = await owner.get(sharePath());
    const shareId = shareIdOn(page.text)!;
    const ask = await owner.postForm(sharePath(), { action: 'remove', share: shareId });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Stop sharing “Staff survey” with Readers?');
    expect(await shares()).toHaveLength(1);
    const res = await owner.postForm(sharePath(), { action: 'remove', share: shareId, confirm: 'yes' });
    expect(res.status).toBe(303);
    expect((await owner.get(res.location!)).text).toContain('The workgroup no longer has access.');
    expect(await shares()).toEqual([]);
    const list = await regular.get('/?view=shared');
    expect(list.text).not.toContain('Staff survey');
    expect(list.text).toContain('No survey is shared with you yet');
    expect((await regular.get(sharePath())).status).toBe(404);
  });

  it('a share of another survey cannot be removed through this survey’s page', async () => {
    const other = await api(server).survey(t.owner.token, 'Other survey');
    const share = await api(server).share(t.owner.token, wg.id, other.id, ROLES.viewer);
    const res = await owner.postForm(sharePath(), { action: 'remove', share: share.id, confirm: 'yes' });
    expect(res.status).toBe(404);
    expect((await shares()).map((s) => s.id)).toEqual([share.id]);
  });
});

describe('sharing with a person of the team', () => {
  const adminName = () => t.admin.user.username;

  it('by address, with a role: the person finds it under Shared with me, the page lists them', async () => {
    const res = await owner.postForm(sharePath(), {
      action: 'person',
      person: t.admin.user.email,
      role: ROLES.viewer,
    });
    expect(res.status).toBe(303);
    const page = await owner.get(res.location!);
    expect(page.text).toContain('The survey is shared with the person.');
    expect(page.text).toContain(`<span class="badge">Person</span> ${adminName()}`);
    const list = await adminWeb.get('/?view=shared');
    expect(list.text).toContain(`Shared by ${t.owner.user.username} · Viewer`);
    expect(list.text).not.toContain(shareLink());
    const read = await server.client.get(`/v3/surveys/${survey.id}`, { token: t.admin.token });
    expect(read.status).toBe(200);
    const patch = await server.client.patch(
      `/v3/surveys/${survey.id}`,
      { title: 'x' },
      { token: t.admin.token },
    );
    expect(patch.status).toBe(403);
  });

  it('refuses someone outside the team, the owner, an empty name and a second share, with the page again', async () => {
    const csrf = await owner.csrf(sharePath());
    const post = (person: string) => owner.post(sharePath(), { _csrf: csrf, action: 'person', person });
    const outside = await post(outsider.user.username);
    expect(outside.status).toBe(400);
    expect(outside.text).toContain(`${outsider.user.username} is not an active member of your team`);
    expect(outside.text).toContain(`value="${outsider.user.username}"`);
    expect((await post(t.owner.user.username)).text).toContain('owns the survey');
    expect((await post('  ')).status).toBe(400);
    const again = await post(adminName());
    expect(again.status).toBe(409);
    expect(again.text).toContain(`already shared with ${adminName()}`);
  });

  it('two people sharing with the same person at once: one share, one refusal', async () => {
    const csrf = await owner.csrf(sharePath());
    const page = await owner.get(sharePath());
    const id =
      /name="action" value="person-remove"><input type="hidden" name="share" value="([0-9a-f]{32})"/.exec(
        page.text,
      )![1];
    await owner.post(sharePath(), { _csrf: csrf, action: 'person-remove', share: id, confirm: 'yes' });
    const results = await Promise.all(
      [1, 2, 3].map(() => owner.post(sharePath(), { _csrf: csrf, action: 'person', person: adminName() })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([303, 409, 409]);
    const after = await owner.get(sharePath());
    expect(after.text.split(`<span class="badge">Person</span> ${adminName()}`)).toHaveLength(2);
  });

  it('the person as Viewer cannot change their share; Full Access lets them open the page; removing ends it', async () => {
    const admin = adminWeb;
    const page = await owner.get(sharePath());
    const id =
      /name="action" value="person-role"><input type="hidden" name="share" value="([0-9a-f]{32})"/.exec(
        page.text,
      )![1];
    const csrf = await admin.csrf('/');
    const raise = await admin.post(sharePath(), {
      _csrf: csrf,
      action: 'person-role',
      share: id,
      role: ROLES.fullAccess,
    });
    expect(raise.status).toBe(403);
    expect((await admin.get(sharePath())).status).toBe(403);
    const change = await owner.postForm(sharePath(), {
      action: 'person-role',
      share: id,
      role: ROLES.fullAccess,
    });
    expect(change.status).toBe(303);
    expect((await admin.get('/?view=shared')).text).toContain(shareLink());
    expect((await admin.get(sharePath())).status).toBe(200);
    const ask = await owner.postForm(sharePath(), { action: 'person-remove', share: id });
    expect(ask.text).toContain(`Stop sharing “Staff survey” with ${adminName()}?`);
    const gone = await owner.postForm(sharePath(), { action: 'person-remove', share: id, confirm: 'yes' });
    expect(gone.status).toBe(303);
    expect((await admin.get(sharePath())).status).toBe(404);
    expect((await server.client.get(`/v3/surveys/${survey.id}`, { token: t.admin.token })).status).toBe(404);
  });

  it('ends when the person leaves the team, and does not come back when they rejoin', async () => {
    const person = await server.account();
    const by = { userId: t.owner.user.id, ip: null };
    await addMember(server.deps, t.team.id, { username: person.user.username }, by);
    const shared = await owner.postForm(sharePath(), {
      action: 'person',
      person: person.user.username,
      role: ROLES.viewer,
    });
    expect(shared.status).toBe(303);
    const read = () => server.client.get(`/v3/surveys/${survey.id}`, { token: person.token });
    expect((await read()).status).toBe(200);
    await removeMember(server.deps, t.team.id, person.user.username, by);
    await addMember(server.deps, t.team.id, { username: person.user.username }, by);
    expect((await read()).status).toBe(404);
    expect((await owner.get(sharePath())).text).not.toContain(
      `<span class="badge">Person</span> ${person.user.username}`,
    );
  });
});
