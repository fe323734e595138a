// The team verbs of the command line, as operators run them, checked through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, runCliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let db: TestDatabase;
let env: Record<string, string>;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    PUBLIC_URL: 'http://teams.example',
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
  };
  for (const u of ['owen', 'ada', 'rex', 'ivy'])
    runCliJson(
      [
        'user',
        'create',
        '--username',
        u,
        '--email',
        `${u}@example.com`,
        '--password',
        'long enough pw',
        '--plan',
        'premier',
      ],
      env,
    );
  server = await startServer({ databaseUrl: db.url });
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('survey-service team', () => {
  it('creates a team, adds and invites members, and the API shows them', async () => {
    const created = runCliJson(['team', 'create', '--owner', 'owen', '--name', 'Ops'], env);
    expect(Object.keys(created)).toEqual(['id']);
    expect(created.id).toMatch(/^\d+$/);

    const ada = runCliJson(
      ['team', 'add', '--team', created.id, '--username', 'ada', '--type', 'admin'],
      env,
    );
    expect(ada).toMatchObject({ id: expect.stringMatching(/^\d+$/), type: 'admin', status: 'active' });
    expect(ada.accept_url).toBeUndefined();
    const rex = runCliJson(
      ['team', 'add', '--team', created.id, '--username', 'rex', '--pending', '--by', 'ada'],
      env,
    );
    expect(rex).toMatchObject({ type: 'regular', status: 'pending' });
    expect(rex.accept_url).toMatch(
      /^http:\/\/teams\.example\/teams\/invitations\/accept\?token=\d+\.[\w-]+$/,
    );

    const resent = runCliJson(['team', 'resend', '--team', created.id, '--username', 'rex'], env);
    expect(resent.accept_url).not.toBe(rex.accept_url);
    expect(
      runCliJson(['team', 'set-type', '--team', created.id, '--username', 'ada', '--type', 'regular'], env),
    ).toEqual({ id: ada.id, type: 'regular' });
    expect(runCliJson(['team', 'rename', '--team', created.id, '--name', 'Operations'], env)).toEqual({
      id: created.id,
      name: 'Operations',
    });

    const app = runCliJson(['app', 'create', '--owner', 'owen', '--name', 'Ops app'], env);
    const members = await server.client.get(`/v3/groups/${created.id}/members?include=type,status`, {
      token: app.access_token,
    });
    expect(members.status).toBe(200);
    expect(
      members.body.data.map((m: { username: string; type: string; status: string }) => [
        m.username,
        m.type,
        m.status,
      ]),
    ).toEqual([
      ['owen', 'account_owner', 'active'],
      ['ada', 'regular', 'active'],
      ['rex', 'regular', 'pending'],
    ]);
    const group = await server.client.get(`/v3/groups/${created.id}`, { token: app.access_token });
    expect(group.body.name).toBe('Operations');

    expect(runCliJson(['team', 'remove', '--team', created.id, '--username', 'rex'], env)).toEqual({
      removed: 'rex',
    });
    const after = await server.client.get(`/v3/groups/${created.id}/members`, { token: app.access_token });
    expect(after.body.total).toBe(2);

    const log = await server.client.get(`/v3/groups/${created.id}/activities`, { token: app.access_token });
    expect(
      log.body.results.map(
        (r: { activity_type: string; user_name: string }) => `${r.user_name}:${r.activity_type}`,
      ),
    ).toEqual([
      'owen:member_deleted',
      'owen:group_info_updated_group_name',
      'owen:member_updated_group_member_type',
      'owen:invite_resent',
      'ada:invite_created',
      'ada:member_joined',
    ]);
  }, 120_000);

  it('fails clearly: unknown user, a user already in a team, a bad type, a non-admin --by', () => {
    const unknown = runCli(['team', 'create', '--owner', 'nobody', '--name', 'X'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no user named nobody');
    const twice = runCli(['team', 'create', '--owner', 'owen', '--name', 'Second'], env);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain('already belongs to a team');
    const t = runCliJson(['team', 'create', '--owner', 'ivy', '--name', 'Solo'], env);
    const badType = runCli(['team', 'add', '--team', t.id, '--username', 'rex', '--type', 'boss'], env);
    expect(badType.status).not.toBe(0);
    expect(badType.stderr).toContain('boss');
    const notAdmin = runCli(['team', 'add', '--team', t.id, '--username', 'rex', '--by', 'ada'], env);
    expect(notAdmin.status).toBe(1);
    expect(notAdmin.stderr).toContain('only an account owner or admin');
    const noTeam = runCli(['team', 'add', '--team', '999', '--username', 'rex'], env);
    expect(noTeam.status).toBe(1);
    expect(noTeam.stderr).toContain('no team with id 999');
  }, 120_000);

  it('team add --pending emails the invitation (and still prints its link)', async () => {
    const smtp = await new SmtpSink().start();
    try {
      for (const u of ['pia', 'quinn'])
        runCliJson(
          ['user', 'create', '--username', u, '--email', `${u}@example.com`, '--password', 'long enough pw'],
          env,
        );
      const t = runCliJson(['team', 'create', '--owner', 'pia', '--name', 'Mail <Room>'], env);
      const said = runCli(['team', 'add', '--team', t.id, '--username', 'quinn', '--pending'], env);
      expect(said.status, said.stderr).toBe(0);
      const url = /accept at (\S+)/.exec(said.stdout)?.[1];
      expect(url).toMatch(/^http:\/\/teams\.example\/teams\/invitations\/accept\?token=/);
      expect(said.stdout).toContain('emailed to quinn@example.com');
      const sent = await runCliAsync(['worker', '--once', '--json'], { ...env, SMTP_URL: smtp.url });
      expect(sent.status, sent.stderr).toBe(0);
      const mail = smtp.messages.find((m) => m.to.includes('quinn@example.com'));
      expect(mail, 'the invitation email').toBeDefined();
      const body = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(body).toContain('Subject: pia invited you to the team Mail <Room>');
      expect(body).toContain(url);
    } finally {
      await smtp.stop();
    }
  }, 120_000);
});
