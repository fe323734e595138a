// The Team pages over HTTP as a browser without script: creating a team, inviting by email (the
// email reaches a real SMTP server through the outbox and its link joins the team), resending and
// cancelling, roles, removal, workgroups and activity; and a member without the rights sees no
// control and is refused a direct POST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import {
  seedSurvey,
  signIn,
  smOf,
  startServer,
  type TestServer,
  type WebSession,
} from '../helpers/fixtures.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { ROLES } from '../sharing/fixtures.js';
import { makeTeam, type TestTeam } from './fixtures.js';

let server: TestServer;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** Sends what the outbox holds and returns the messages sent to `address`. */
async function mailTo(address: string) {
  await new OutboxWorker(server.deps).runOnce();
  return smtp.messages.filter((m) => m.to.includes(address));
}

/** The accept link of an invitation email, on the test server's own address. */
function acceptLink(raw: string): string {
  const body = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /https?:\/\/[^\s"<>]+\/teams\/invitations\/accept\?token=[\w.%-]+/.exec(body);
  if (!m) throw new Error('no accept link in the email');
  const u = new URL(m[0]);
  return `${u.pathname}${u.search}`;
}

async function members(t: TestTeam) {
  const res = await server.client.get(`/v3/groups/${t.team.id}/members?include=type,status`, {
    token: t.owner.token,
  });
  return Object.fromEntries(
    res.body.data.map((m: { username: string; type: string; status: string }) => [
      m.username,
      `${m.type}/${m.status}`,
    ]),
  );
}

describe('the Team page', () => {
  it('lets a user in no team create one, and links it from the workspace navigation', async () => {
    const solo = await server.account();
    const web = await signIn(server, solo);
    const page = await web.get('/team');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/team" aria-current="page">Team</a>');
    expect(page.text).toContain('Create a team');
    const empty = await web.postForm('/team/create', { name: '   ' }, '/team');
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('a team name must be 1-100 characters');
    const res = await web.postForm('/team/create', { name: 'Field <Research>' }, '/team');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/team?done=created');
    const after = await web.get('/team');
    expect(after.text).toContain('Field &lt;Research&gt;: 1 member');
    expect(after.text).toContain('Send invitation');
    const groups = await server.client.get('/v3/groups', { token: solo.token });
    expect(groups.body.data[0].name).toBe('Field <Research>');
    // A second team is refused: a user belongs to at most one.
    const again = await web.postForm('/team/create', { name: 'Two' }, '/team?done=created');
    expect(again.status).toBe(409);
  });

  it('invites by email: the email is queued and sent, and its link joins the team', async () => {
    const t = await makeTeam(server);
    const guest = await server.account();
    const web = await signIn(server, t.admin);
    const res = await web.postForm(
      '/team/invite',
      { who: guest.user.email.toUpperCase(), type: 'admin' },
      '/team',
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/team?done=invited');
    const page = await web.get('/team?done=invited');
    expect(page.text).toContain('The invitation was emailed.');
    expect(page.text).toMatch(new RegExp(`Pending invitations[\\s\\S]*${guest.user.username}`));
    expect(await members(t)).toMatchObject({ [guest.user.username]: 'admin/pending' });

    const [mail] = await mailTo(guest.user.email);
    expect(mail.raw).toContain(`to the team Research`);
    expect(mail.raw).toContain('Content-Type: text/html');
    const link = acceptLink(mail.raw);
    const guestWeb = await signIn(server, guest);
    const accept = await guestWeb.get(link);
    expect(accept.status).toBe(200);
    expect(accept.text).toContain('Join the team Research');
    const token = new URL(link, server.url).searchParams.get('token')!;
    const joined = await guestWeb.post('/teams/invitations/accept', { token, password: guest.password });
    expect(joined.status).toBe(200);
    expect(joined.text).toContain('<a href="/team">Open the Team page</a>');
    expect(await members(t)).toMatchObject({ [guest.user.username]: 'admin/active' });
    const theirs = await guestWeb.get('/team');
    expect(theirs.text).toContain('You are an admin');
  });

  it('resends (a new email, the old link void) and cancels an invitation', async () => {
    const t = await makeTeam(server);
    const guest = await server.account();
    const web = await signIn(server, t.owner);
    expect((await web.postForm('/team/invite', { who: guest.user.username }, '/team')).status).toBe(303);
    const [first] = await mailTo(guest.user.email);
    const pendingId = (
      await server.client.get(`/v3/groups/${t.team.id}/members?include=status`, { token: t.owner.token })
    ).body.data.find((m: { username: string }) => m.username === guest.user.username).id;
    const resent = await web.postForm(`/team/members/${pendingId}/resend`, {}, '/team');
    expect(resent.location).toBe('/team?done=resent');
    const both = await mailTo(guest.user.email);
    expect(both).toHaveLength(2);
    expect(acceptLink(both[1].raw)).not.toBe(acceptLink(first.raw));
    expect((await web.get(acceptLink(first.raw))).status).toBe(404);
    expect((await web.get(acceptLink(both[1].raw))).status).toBe(200);

    // Without script the cancel asks first; confirmed, the invitation and its link are gone.
    const ask = await web.postForm(`/team/members/${pendingId}/remove`, {}, '/team');
    expect(ask.status).toBe(200);
    expect(ask.text).toContain(`Cancel the invitation of ${guest.user.username}?`);
    const done = await web.postForm(`/team/members/${pendingId}/remove`, { confirm: 'yes' }, '/team');
    expect(done.location).toBe('/team?done=cancelled');
    expect(await members(t)).not.toHaveProperty(guest.user.username);
    expect((await web.get(acceptLink(both[1].raw))).status).toBe(404);
  });

  it('changes a role and an email, and removes a member', async () => {
    const t = await makeTeam(server);
    const web = await signIn(server, t.admin);
    const role = await web.postForm(`/team/members/${t.memberIds.regular}/role`, { type: 'admin' }, '/team');
    expect(role.location).toBe('/team?done=role');
    expect(await members(t)).toMatchObject({ [t.regular.user.username]: 'admin/active' });
    // The account owner's role is not the admins' to change.
    const owner = await web.postForm(`/team/members/${t.memberIds.owner}/role`, { type: 'regular' }, '/team');
    expect(owner.status).toBe(409);
    expect(await members(t)).toMatchObject({ [t.owner.user.username]: 'account_owner/active' });
    const bad = await web.postForm(
      `/team/members/${t.memberIds.regular}/email`,
      { email: 'not-an-address' },
      '/team',
    );
    expect(bad.status).toBe(400);
    const email = await web.postForm(
      `/team/members/${t.memberIds.regular}/email`,
      { email: `new-${t.regular.user.username}@example.org` },
      '/team',
    );
    expect(email.location).toBe('/team?done=email');
    const removed = await web.postForm(
      `/team/members/${t.memberIds.regular}/remove`,
      { confirm: 'yes' },
      '/team',
    );
    expect(removed.location).toBe('/team?done=removed');
    expect(await members(t)).not.toHaveProperty(t.regular.user.username);
    const gone = await signIn(server, t.regular);
    expect((await gone.get('/team')).text).toContain('Create a team');
  });

  it('refuses an address without an account, saying how to get one as SIGNUP_MODE allows', async () => {
    const t = await makeTeam(server);
    const web = await signIn(server, t.owner);
    const res = await web.postForm('/team/invite', { who: 'nobody-here@example.org' }, '/team');
    expect(res.status).toBe(404);
    expect(res.text).toContain('No account uses nobody-here@example.org');
    expect(res.text).toContain('/signup');
    expect(await mailTo('nobody-here@example.org')).toHaveLength(0);
  });
});

describe('the plan', () => {
  it('gives a basic-plan account no team or workgroup, as the API does (403/1015)', async () => {
    const basic = await server.account({ plan: 'basic' });
    const api = await server.client.get('/v3/groups', { token: basic.token });
    expect(api.status).toBe(403);
    expect(api.body.error.id).toBe('1015');
    const web = await signIn(server, basic);
    for (const path of ['/team', '/team/workgroups', '/team/activity']) {
      const page = await web.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain('Teams and workgroups come with a paid plan');
      expect(page.text, path).not.toContain('<form method="post" action="/team');
    }
    for (const [path, form] of [
      ['/team/create', { name: 'Free team' }],
      ['/team/workgroups', { name: 'Free workgroup', is_visible: 'yes' }],
    ] as const) {
      const res = await web.postForm(path, form, '/account');
      expect(res.status, path).toBe(403);
      expect(res.text, path).toContain('Teams and workgroups need a paid plan.');
    }
    expect((await server.client.get('/v3/users/me', { token: basic.token })).status).toBe(200);
    const mine = await server.deps.db.kysely
      .selectFrom('team_members')
      .select('id')
      .where('user_id', '=', basic.user.id)
      .execute();
    expect(mine).toEqual([]);
    const groups = await server.deps.db.kysely
      .selectFrom('workgroups')
      .select('id')
      .where('created_by', '=', basic.user.id)
      .execute();
    expect(groups).toEqual([]);
  });
});

describe('a member without the rights', () => {
  let t: TestTeam;
  let web: WebSession;
  let pendingId: string;
  let surveyId: string;
  beforeAll(async () => {
    t = await makeTeam(server);
    surveyId = (await seedSurvey(server, t.admin, { kind: 'simple', title: 'Admin survey' })).id;
    const guest = await server.account();
    const owner = await signIn(server, t.owner);
    await owner.postForm('/team/invite', { who: guest.user.email }, '/team');
    pendingId = (
      await server.client.get(`/v3/groups/${t.team.id}/members`, { token: t.owner.token })
    ).body.data.find((m: { username: string }) => m.username === guest.user.username).id;
    web = await signIn(server, t.regular);
  });

  it('sees the members and invitations but no control to change them', async () => {
    const page = await web.get('/team');
    expect(page.status).toBe(200);
    expect(page.text).toContain(t.admin.user.username);
    expect(page.text).toContain('Pending invitations');
    for (const control of [
      'action="/team/invite"',
      'action="/team/rename"',
      '/remove"',
      '/resend"',
      '/role"',
      '/email"',
      'Send invitation',
      'action="/team/transfer"',
    ])
      expect(page.text).not.toContain(control);
  });

  it('is refused every direct POST, and nothing changes', async () => {
    const before = await members(t);
    const posts: [string, Record<string, string>][] = [
      ['/team/invite', { who: t.owner.user.email }],
      ['/team/rename', { name: 'Mine now' }],
      [`/team/members/${t.memberIds.admin}/role`, { type: 'regular' }],
      [`/team/members/${t.memberIds.admin}/remove`, { confirm: 'yes' }],
      [`/team/members/${pendingId}/resend`, {}],
      [`/team/members/${pendingId}/remove`, { confirm: 'yes' }],
      [`/team/members/${t.memberIds.admin}/email`, { email: 'taken-over@example.org' }],
      ['/team/transfer', { survey: `${surveyId}-${t.admin.user.id}`, to: t.regular.user.id }],
    ];
    for (const [path, form] of posts) {
      const res = await web.postForm(path, form, '/team');
      expect(res.status, path).toBe(403);
      expect(res.text, path).toContain('role="alert"');
    }
    expect(await members(t)).toEqual(before);
    const team = await server.client.get(`/v3/groups/${t.team.id}`, { token: t.owner.token });
    expect(team.body.name).toBe('Research');
    const admin = await server.client.get(`/v3/groups/${t.team.id}/members/${t.memberIds.admin}`, {
      token: t.owner.token,
    });
    expect(admin.body.email).toBe(t.admin.user.email);
    expect((await server.client.get(`/v3/surveys/${surveyId}`, { token: t.admin.token })).status).toBe(200);
  });

  it('is refused a POST with a forged CSRF token', async () => {
    const owner = await signIn(server, t.owner);
    const res = await owner.post('/team/invite', { _csrf: 'forged', who: t.regular.user.email });
    expect(res.status).toBe(403);
  });
});

describe('transferring a survey', () => {
  it("moves a leaving member's survey, with its responses, to another member", async () => {
    const t = await makeTeam(server);
    const seeded = await seedSurvey(server, t.regular, {
      kind: 'simple',
      title: 'Churn <study>',
      collector: 'weblink',
    });
    const response = await server.client.post(
      `/v3/collectors/${seeded.collector.id}/responses`,
      {},
      { token: t.regular.token },
    );
    expect(response.status).toBe(201);
    const web = await signIn(server, t.admin);
    const page = await web.get('/team');
    expect(page.text).toContain(`Churn &lt;study&gt; (${t.regular.user.username})`);
    // Not to its own owner, and not a survey outside the team.
    const same = await web.postForm(
      '/team/transfer',
      { survey: `${seeded.id}-${t.regular.user.id}`, to: t.regular.user.id },
      '/team',
    );
    expect(same.status).toBe(400);
    const outsider = await server.account();
    const foreign = (await seedSurvey(server, outsider, { kind: 'simple' })).id;
    const probe = await web.postForm(
      '/team/transfer',
      { survey: `${foreign}-${outsider.user.id}`, to: t.owner.user.id },
      '/team',
    );
    expect(probe.status).toBe(404);
    expect((await server.client.get(`/v3/surveys/${foreign}`, { token: outsider.token })).status).toBe(200);

    const moved = await web.postForm(
      '/team/transfer',
      { survey: `${seeded.id}-${t.regular.user.id}`, to: t.owner.user.id },
      '/team',
    );
    expect(moved.location).toBe('/team?done=transferred');
    expect((await server.client.get(`/v3/surveys/${seeded.id}`, { token: t.owner.token })).status).toBe(200);
    const responses = await server.client.get(`/v3/surveys/${seeded.id}/responses/bulk`, {
      token: t.owner.token,
    });
    expect(responses.status).toBe(200);
    expect(responses.body.total).toBe(1);
    const collectors = await server.client.get(`/v3/surveys/${seeded.id}/collectors`, {
      token: t.owner.token,
    });
    expect(collectors.body.data.map((c: { id: string }) => c.id)).toEqual([seeded.collector.id]);
    expect((await server.client.get(`/v3/surveys/${seeded.id}`, { token: t.regular.token })).status).toBe(
      404,
    );
    const mine = await server.client.get('/v3/surveys', { token: t.owner.token });
    expect(mine.body.data.map((x: { id: string }) => x.id)).toContain(seeded.id);
    const theirs = await server.client.get('/v3/surveys', { token: t.regular.token });
    expect(theirs.body.total).toBe(0);
    // Every row of the survey carries its new owner (the distribution key), none the old one.
    for (const table of [
      'survey_pages',
      'survey_questions',
      'collectors',
      'responses',
      'survey_response_seq',
    ] as const) {
      const rows = await server.deps.db.kysely
        .selectFrom(table)
        .select('owner_id')
        .where('survey_id', '=', seeded.id)
        .execute();
      expect(rows.length, table).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.owner_id)), table).toEqual(new Set([t.owner.user.id]));
    }
    // The member can now leave without taking the survey along.
    expect(
      (await web.postForm(`/team/members/${t.memberIds.regular}/remove`, { confirm: 'yes' }, '/team')).status,
    ).toBe(303);
    const log = await (await signIn(server, t.owner)).get('/team/activity');
    expect(log.text).toContain(
      `Transferred survey &quot;Churn &lt;study&gt;&quot; to ${t.owner.user.username}`,
    );
  });

  it('keeps the shares made to other people and drops the one made to the new owner', async () => {
    const t = await makeTeam(server);
    const seeded = await seedSurvey(server, t.regular, { kind: 'simple', title: 'Handed on' });
    const share = `/share?sm=${smOf(seeded.survey.edit_url)}`;
    const owner = await signIn(server, t.regular);
    for (const person of [t.admin.user.username, t.owner.user.username])
      expect((await owner.postForm(share, { action: 'person', person, role: ROLES.viewer })).status).toBe(
        303,
      );
    const web = await signIn(server, t.admin);
    const moved = await web.postForm(
      '/team/transfer',
      { survey: `${seeded.id}-${t.regular.user.id}`, to: t.owner.user.id },
      '/team',
    );
    expect(moved.status).toBe(303);
    expect((await server.client.get(`/v3/surveys/${seeded.id}`, { token: t.admin.token })).status).toBe(200);
    const page = await (await signIn(server, t.owner)).get(share);
    expect(page.text).toContain(`<span class="badge">Person</span> ${t.admin.user.username}`);
    expect(page.text).not.toContain(`<span class="badge">Person</span> ${t.owner.user.username}`);
  });

  it('lets only one of two concurrent transfers of a survey through', async () => {
    const t = await makeTeam(server);
    const { id } = await seedSurvey(server, t.regular, { kind: 'simple' });
    const [a, b] = [await signIn(server, t.owner), await signIn(server, t.admin)];
    const [ca, cb] = [await a.csrf('/team'), await b.csrf('/team')];
    const answers = await Promise.all([
      a.post('/team/transfer', { _csrf: ca, survey: `${id}-${t.regular.user.id}`, to: t.owner.user.id }),
      b.post('/team/transfer', { _csrf: cb, survey: `${id}-${t.regular.user.id}`, to: t.admin.user.id }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    const winner = answers[0].status === 303 ? t.owner : t.admin;
    const loser = winner === t.owner ? t.admin : t.owner;
    expect((await server.client.get(`/v3/surveys/${id}`, { token: winner.token })).status).toBe(200);
    expect((await server.client.get(`/v3/surveys/${id}`, { token: loser.token })).status).toBe(404);
    const rows = await server.deps.db.kysely
      .selectFrom('survey_pages')
      .select('owner_id')
      .where('survey_id', '=', id)
      .execute();
    expect(new Set(rows.map((r) => r.owner_id))).toEqual(new Set([winner.user.id]));
  });
});

describe('workgroups on the pages', () => {
  it('creates a workgroup, adds and removes members; a plain member sees no controls and is refused', async () => {
    const t = await makeTeam(server);
    const admin = await signIn(server, t.admin);
    const created = await admin.postForm(
      '/team/workgroups',
      { name: 'Field team', description: 'Surveys in the field', is_visible: 'yes' },
      '/team/workgroups',
    );
    expect(created.status).toBe(303);
    const id = /\/team\/workgroups\/([0-9a-f]{32})\?done=created/.exec(created.location ?? '')![1];
    const added = await admin.postForm(
      `/team/workgroups/${id}/members`,
      { user_id: [t.regular.user.id, t.owner.user.id] },
      `/team/workgroups/${id}`,
    );
    expect(added.location).toBe(`/team/workgroups/${id}?done=added`);
    const api = await server.client.get(`/v3/workgroups/${id}/members`, { token: t.admin.token });
    expect(api.body.data.map((m: { id: string }) => m.id).sort()).toEqual(
      [t.admin.user.id, t.regular.user.id, t.owner.user.id].sort(),
    );
    const removed = await admin.postForm(
      `/team/workgroups/${id}/members/${t.owner.user.id}/remove`,
      {},
      `/team/workgroups/${id}`,
    );
    expect(removed.location).toBe(`/team/workgroups/${id}?done=removed`);

    const plain = await signIn(server, t.regular);
    const list = await plain.get('/team/workgroups');
    expect(list.text).toContain('Field team');
    const one = await plain.get(`/team/workgroups/${id}`);
    expect(one.status).toBe(200);
    for (const control of [
      '/owner"',
      `/members/${t.admin.user.id}/remove"`,
      '/edit"',
      '/delete"',
      'Add selected',
    ])
      expect(one.text).not.toContain(control);
    expect(one.text).toContain('Leave the workgroup');
    for (const [path, form] of [
      [`/team/workgroups/${id}/members`, { user_id: t.owner.user.id }],
      [`/team/workgroups/${id}/members/${t.admin.user.id}/remove`, {}],
      [`/team/workgroups/${id}/members/${t.regular.user.id}/owner`, { owner: 'yes' }],
      [`/team/workgroups/${id}/edit`, { name: 'Taken' }],
      [`/team/workgroups/${id}/delete`, { confirm: 'yes' }],
    ] as const) {
      const res = await plain.postForm(path, form, `/team/workgroups/${id}`);
      expect(res.status, path).toBe(403);
    }
    const after = await server.client.get(`/v3/workgroups/${id}`, { token: t.admin.token });
    expect(after.body.name).toBe('Field team');
    // Anyone may leave.
    const left = await plain.postForm(
      `/team/workgroups/${id}/members/${t.regular.user.id}/remove`,
      {},
      `/team/workgroups/${id}`,
    );
    expect(left.location).toBe('/team/workgroups?done=left');

    // The managers' edit and delete.
    const edited = await admin.postForm(
      `/team/workgroups/${id}/edit`,
      { name: 'Field crew', description: '', default_role_id: 'f24b9ce183b8430e811d5175831b5937' },
      `/team/workgroups/${id}`,
    );
    expect(edited.location).toBe(`/team/workgroups/${id}?done=updated`);
    const changed = await server.client.get(`/v3/workgroups/${id}`, { token: t.admin.token });
    expect(changed.body).toMatchObject({ name: 'Field crew', is_visible: false });
    const deleted = await admin.postForm(
      `/team/workgroups/${id}/delete`,
      { confirm: 'yes' },
      `/team/workgroups/${id}`,
    );
    expect(deleted.location).toBe('/team/workgroups?done=deleted');
    expect((await admin.get(`/team/workgroups/${id}`)).status).toBe(404);
  });
});

describe('the activity page', () => {
  it("shows the team's activity to its members, newest first", async () => {
    const t = await makeTeam(server);
    const owner = await signIn(server, t.owner);
    await owner.postForm('/team/rename', { name: 'Research Two' }, '/team');
    const page = await (await signIn(server, t.regular)).get('/team/activity');
    expect(page.status).toBe(200);
    const text = page.text;
    expect(text).toContain('Renamed the team from &quot;Research&quot; to &quot;Research Two&quot;');
    expect(text.indexOf('Renamed the team')).toBeLessThan(text.indexOf('Joined the team'));
    const stranger = await signIn(server, await server.account());
    expect((await stranger.get('/team/activity')).text).not.toContain('Renamed the team');
  });
});
