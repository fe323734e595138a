import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, runCliJsonAsync, startServeProcess } from '../helpers/cli.js';

// Verbs run without blocking this process: a worker blocked in spawnSync on a loaded machine misses
// vitest's RPC deadline ("Timeout calling onTaskUpdate").
const runCli = runCliAsync;
const runCliJson = runCliJsonAsync;

import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

let db: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
});
afterAll(() => db.drop());

describe('survey-service command line', () => {
  it('migrates idempotently', async () => {
    const first = await runCliJson(['migrate'], env);
    expect(first.applied).toContain('0001_platform');
    const again = await runCliJson(['migrate'], env);
    expect(again).toEqual({ applied: [] });
  });

  it('creates a user and a draft app whose token works against `serve`', async () => {
    const user = await runCliJson(
      [
        'user',
        'create',
        '--username',
        'grace',
        '--email',
        'grace@example.com',
        '--password',
        'hopper1906',
        '--plan',
        'enterprise',
        '--first-name',
        'Grace',
        '--last-name',
        'Hopper',
      ],
      env,
    );
    expect(user).toEqual({ id: expect.stringMatching(/^\d+$/), username: 'grace' });
    const app = await runCliJson(
      ['app', 'create', '--owner', 'grace', '--name', 'Exporter', '--redirect-uri', 'https://example.com/cb'],
      env,
    );
    expect(Object.keys(app).sort()).toEqual([
      'access_token',
      'app_id',
      'client_id',
      'client_secret',
      'status',
    ]);
    expect(app.status).toBe('draft');

    const port = await freePort();
    const proc = startServeProcess({ ...env, PORT: String(port) });
    try {
      await proc.ready;
      const res = await new ApiClient(`http://127.0.0.1:${port}`).get('/v3/users/me', {
        token: app.access_token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: user.id,
        username: 'grace',
        first_name: 'Grace',
        account_type: 'enterprise',
      });
      expect(res.headers['x-ratelimit-app-global-minute-limit']).toBe('120');
    } finally {
      await proc.stop();
    }
  });

  it('grants only the requested scopes the plan allows, and applies per-app limits', async () => {
    await runCliJson(
      ['user', 'create', '--username', 'free', '--email', 'free@example.com', '--password', 'password1'],
      env,
    );
    const app = await runCliJson(
      [
        'app',
        'create',
        '--owner',
        'free',
        '--name',
        'Limited',
        '--scopes',
        'users_read,groups_read',
        '--minute-limit',
        '7',
        '--day-limit',
        '0',
      ],
      env,
    );
    const port = await freePort();
    const proc = startServeProcess({ ...env, PORT: String(port) });
    try {
      await proc.ready;
      const res = await new ApiClient(`http://127.0.0.1:${port}`).get('/v3/users/me', {
        token: app.access_token,
      });
      expect(res.headers['x-oauth-scopes-granted']).toBe('users_read');
      expect(res.headers['x-ratelimit-app-global-minute-limit']).toBe('7');
      expect(res.headers['x-ratelimit-app-global-day-limit']).toBe('2147483647');
    } finally {
      await proc.stop();
    }
  });

  it('changes a plan and revokes an app grant', async () => {
    await runCliJson(
      ['user', 'create', '--username', 'ops', '--email', 'ops@example.com', '--password', 'password1'],
      env,
    );
    const updated = await runCliJson(
      ['user', 'update', '--username', 'ops', '--plan', 'standard', '--state', 'soft_deleted'],
      env,
    );
    expect(updated).toMatchObject({ username: 'ops', account_type: 'standard', state: 'soft_deleted' });
    const app = await runCliJson(['app', 'create', '--owner', 'ops', '--name', 'Ops'], env);
    expect(await runCliJson(['app', 'revoke', '--app-id', app.app_id, '--username', 'ops'], env)).toEqual({
      app_id: app.app_id,
      revoked: 1,
    });
  });

  it('refuses bad input with a message and a non-zero exit', async () => {
    const dup = await runCli(
      ['user', 'create', '--username', 'grace', '--email', 'g2@example.com', '--password', 'password2'],
      env,
    );
    expect(dup.status).toBe(1);
    expect(dup.stderr).toMatch(/taken/);
    const plan = await runCli(
      [
        'user',
        'create',
        '--username',
        'x',
        '--email',
        'x@example.com',
        '--password',
        'password1',
        '--plan',
        'gold',
      ],
      env,
    );
    expect(plan.status).not.toBe(0);
    expect(plan.stderr).toMatch(/plan/);
    const owner = await runCli(['app', 'create', '--owner', 'nobody', '--name', 'N'], env);
    expect(owner.status).toBe(1);
    expect(owner.stderr).toMatch(/no user named nobody/);
    const scope = await runCli(
      ['app', 'create', '--owner', 'grace', '--name', 'N', '--scopes', 'surveys_read,everything'],
      env,
    );
    expect(scope.status).toBe(1);
    expect(scope.stderr).toMatch(/unknown scope: everything/);
    const limit = await runCli(
      ['app', 'create', '--owner', 'grace', '--name', 'N', '--minute-limit', '-3'],
      env,
    );
    expect(limit.status).not.toBe(0);
  });
});
