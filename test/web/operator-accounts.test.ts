// Plans on a self-hosted server: sign-up gives DEFAULT_PLAN (default enterprise, a bad value stops
// start-up), the operator's /operator/accounts lists, searches and pages accounts and changes plan,
// state and operator flag (each change an event and team activity), and the account page says what
// the plan allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { setOperator } from '../../src/domain/accounts/users.js';
import { signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

let n = 0;
async function signUp(s: TestServer) {
  n += 1;
  const username = `plan${n}_${process.pid}`;
  const web = new WebSession(s.url);
  const _csrf = await web.csrf('/signup');
  const res = await web.post('/signup', {
    _csrf,
    username,
    email: `${username}@example.org`,
    password: 'a long password',
    password2: 'a long password',
  });
  expect(res.status, res.text).toBe(303);
  await web.signIn(username, 'a long password');
  const user = await s.deps.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { web, user };
}

async function operatorSession() {
  const op = await server.account();
  await setOperator(server.deps, op.user.id, true);
  const web = await signIn(server, op);
  return { op, web };
}

describe('DEFAULT_PLAN', () => {
  it('gives sign-ups every feature by default; the account page says what the plan allows', async () => {
    const { web, user } = await signUp(server);
    expect(user.account_type).toBe('enterprise');
    const page = await web.get('/account');
    expect(page.text).toContain('Every response can be read, analysed and exported.');
    expect(page.text).toContain('file upload, ranking and slider included');
  });

  it('is the plan of sign-ups when set; a basic account reads its limits in words', async () => {
    const basic = await startServer({ env: { DEFAULT_PLAN: 'basic' } });
    try {
      const { web, user } = await signUp(basic);
      expect(user.account_type).toBe('basic');
      const text = (await web.get('/account')).text;
      expect(text).toContain('Only the first 25 responses of each survey can be read');
      expect(text).toContain('No file upload, ranking or slider questions.');
      expect(text).toContain('Contacts: at most 1,000 contacts.');
    } finally {
      await basic.close();
    }
  });

  it('refuses an unknown plan at start-up, naming the variable and the allowed values', () => {
    expect(() =>
      loadConfig({ ...process.env, DATABASE_URL: 'sqlite::memory:', DEFAULT_PLAN: 'gold' }),
    ).toThrow(/DEFAULT_PLAN="gold"[^\n]*basic[^\n]*enterprise/);
  });
});

describe('/operator/accounts', () => {
  it('is for operators only', async () => {
    const plain = await server.account();
    const web = await signIn(server, plain);
    expect((await web.get('/operator/accounts')).status).toBe(403);
  });

  it('searches and pages the accounts', async () => {
    const { web } = await operatorSession();
    for (let i = 0; i < 27; i++) await server.account({ username: `pager${i}_${process.pid}` });
    const first = await web.get(`/operator/accounts?q=PAGER`);
    expect(first.status).toBe(200);
    expect(first.text).toContain('27 account(s) matching');
    expect(first.text.match(/class="card"/g)?.length).toBe(25);
    expect(first.text).toContain('Page 1 of 2');
    const second = await web.get(`/operator/accounts?q=pager&page=2`);
    expect(second.text.match(/class="card"/g)?.length).toBe(2);
    const none = await web.get('/operator/accounts?q=nobody-at-all');
    expect(none.text).toContain('No account matches.');
  });

  it('changes plan, state and operator flag, recording each as an event', async () => {
    const { op, web } = await operatorSession();
    const target = await server.account({ plan: 'basic' });
    const _csrf = await web.csrf('/operator/accounts');
    const post = (body: Record<string, string>) =>
      web.post(`/operator/accounts/${target.user.id}`, {
        _csrf,
        plan: 'basic',
        state: 'active',
        operator: 'no',
        ...body,
      });
    const res = await post({ plan: 'premier', state: 'soft_deleted' });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=plan+premier%2C+state+soft_deleted');
    const row = await server.deps.db.kysely
      .selectFrom('users')
      .select(['account_type', 'status'])
      .where('id', '=', target.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ account_type: 'premier', status: 'soft_deleted' });
    // a suspended account's token stops working
    expect((await server.client.get('/v3/users/me', { token: target.token })).status).not.toBe(200);
    const events = await server.deps.db.kysely
      .selectFrom('events')
      .select(['type', 'actor_id', 'data'])
      .where('resource_id', '=', target.user.id)
      .where('type', '=', 'account_updated')
      .execute();
    expect(events.map((e) => [e.actor_id, JSON.parse(e.data)])).toEqual([
      [op.user.id, { member: target.user.username, field: 'plan', old: 'basic', new: 'premier' }],
      [op.user.id, { member: target.user.username, field: 'state', old: 'active', new: 'soft_deleted' }],
    ]);
    const flag = await post({ plan: 'premier', state: 'active', operator: 'yes' });
    expect(flag.location).toContain('done=state+active%2C+operator+flag+yes');
    expect((await web.get(`/operator/accounts?q=${target.user.username}`)).text).toContain(' · operator');
  });

  it('answers bad values and self-lockout with a clear error', async () => {
    const { op, web } = await operatorSession();
    const target = await server.account();
    const _csrf = await web.csrf('/operator/accounts');
    const bad = await web.post(`/operator/accounts/${target.user.id}`, {
      _csrf,
      plan: 'gold',
      state: 'active',
      operator: 'no',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      '&quot;gold&quot; is not a plan: choose one of basic, standard, advantage, premier, enterprise.',
    );
    const badState = await web.post(`/operator/accounts/${target.user.id}`, {
      _csrf,
      plan: 'basic',
      state: 'deleted',
      operator: 'no',
    });
    expect(badState.status).toBe(400);
    expect(badState.text).toContain('is not a state');
    const self = await web.post(`/operator/accounts/${op.user.id}`, {
      _csrf,
      plan: 'premier',
      state: 'soft_deleted',
      operator: 'yes',
    });
    expect(self.status).toBe(400);
    expect(self.text).toContain('You cannot change the state of your own account.');
  });

  it('keeps the last operator', async () => {
    const solo = await startServer();
    try {
      const op = await solo.account();
      await setOperator(solo.deps, op.user.id, true);
      const web = await signIn(solo, op);
      const _csrf = await web.csrf('/operator/accounts');
      const res = await web.post(`/operator/accounts/${op.user.id}`, {
        _csrf,
        plan: 'premier',
        state: 'active',
        operator: 'no',
      });
      expect(res.status).toBe(400);
      expect(res.text.match(/role="alert">[^<]*/)?.[0]).toContain(
        'is the last active operator: make another account an operator first.',
      );
      expect((await web.get('/operator/accounts')).status).toBe(200);
    } finally {
      await solo.close();
    }
  });

  it('of two operators removing each other at once, one succeeds', async () => {
    const pair = await startServer();
    try {
      const sessions = [];
      for (const _ of [0, 1]) {
        const op = await pair.account();
        await setOperator(pair.deps, op.user.id, true);
        const web = await signIn(pair, op);
        sessions.push({ op, web, csrf: await web.csrf('/operator/accounts') });
      }
      const [a, b] = sessions;
      const remove = (from: typeof a, to: typeof a) =>
        from.web.post(`/operator/accounts/${to.op.user.id}`, {
          _csrf: from.csrf,
          plan: 'premier',
          state: 'active',
          operator: 'no',
        });
      const results = await Promise.all([remove(a, b), remove(b, a)]);
      // the loser is refused: 400 (the last operator) when both passed the operator check before
      // either committed, else 403 (no longer an operator)
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(303);
      expect([400, 403]).toContain(statuses[1]);
      const left = await pair.deps.db.kysely.selectFrom('operators').select('user_id').execute();
      expect(left).toHaveLength(1);
    } finally {
      await pair.close();
    }
  });
});
