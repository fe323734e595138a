// A webhook belongs to the account and the app whose token created it: other apps of the same
// account do not see or change it, and revoking the app's grant (linked-apps page, `app revoke`)
// stops it at once, also for deliveries already queued, for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import { createCode, exchangeCode } from '../../src/domain/accounts/grants.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { runCliJson } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { exchange } from '../oauth/flow.js';
import { responseCompleted } from './helpers/events.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';

const REDIRECT = 'http://localhost:9/callback';
let server: TestServer;
let worker: OutboxWorker;
let receiver: Receiver;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  worker = new OutboxWorker(server.deps);
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await worker.stop();
  await server.close();
});

let n = 0;

/** A response_completed webhook of `token` on a new survey of `a`. */
async function subscribe(a: TestAccount, token = a.token) {
  const { surveyId, collectorId } = await surveyWithCollector(server.client, token);
  const res = await server.client.post(
    '/v3/webhooks',
    {
      name: 'Responses',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [surveyId],
      subscription_url: `${receiver.url}?n=${++n}`,
      authorization: 'Bearer receiver-secret',
    },
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, url: res.body.subscription_url as string, surveyId, collectorId };
}

const postsTo = (url: string) =>
  receiver.posts().filter((p) => p.path === new URL(url).pathname + new URL(url).search);

describe('webhooks of one app', () => {
  it('are not seen or changed by another app of the same account (404/1020)', async () => {
    const a = await server.account();
    const other = await createApp(server.deps, a.user, { name: 'Other app', redirectUris: [REDIRECT] });
    const t = { token: other.accessToken };
    const hook = await subscribe(a);
    const path = `/v3/webhooks/${hook.id}`;

    const list = await server.client.get('/v3/webhooks', t);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 0, data: [] });
    for (const [method, p, body] of [
      ['GET', path, undefined],
      ['GET', `${path}/signing_secret`, undefined],
      ['GET', `${path}/deliveries`, undefined],
      ['PATCH', path, { subscription_url: `${receiver.url}?stolen=1` }],
      [
        'PUT',
        path,
        { name: 'mine', event_type: 'survey_created', subscription_url: `${receiver.url}?stolen=2` },
      ],
      ['DELETE', path, undefined],
    ] as const) {
      const res = await server.client.request(method, p, { token: other.accessToken, body });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    const own = await server.client.get(path, { token: a.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ subscription_url: hook.url, authorization: 'Bearer receiver-secret' });
    expect((await server.client.get('/v3/webhooks', { token: a.token })).body.total).toBe(1);
  });

  for (const path of ['the linked-apps page', 'app revoke'] as const)
    it(`stop at once when the grant is revoked through ${path}, and a new grant does not revive them`, async () => {
      const a = await server.account();
      const hook = await subscribe(a);
      // One delivery is queued and waiting for its retry when the grant is revoked.
      receiver.status = 500;
      await responseCompleted(server.deps, a.user.id, hook.surveyId, hook.collectorId);
      await worker.drain();
      receiver.status = 200;
      expect(postsTo(hook.url)).toHaveLength(1);

      if (path === 'app revoke') {
        const env = {
          DATABASE_URL: server.config.databaseUrl,
          SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
        };
        runCliJson(['app', 'revoke', '--app-id', a.app.id, '--username', a.user.username], env);
      } else {
        const web = await signIn(server, a);
        const removed = await web.post(`/account/apps/${a.app.id}/revoke`, {
          _csrf: await web.csrf('/account/apps'),
        });
        expect(removed.status).toBe(303);
      }
      await responseCompleted(server.deps, a.user.id, hook.surveyId, hook.collectorId);
      clock.advance(86_400_000);
      await worker.drain();
      expect(postsTo(hook.url)).toHaveLength(1);

      // The account authorizes the app again: the old webhook is gone and stays silent.
      const code = await createCode(server.deps, {
        app: a.app,
        userId: a.user.id,
        redirectUri: REDIRECT,
        scopes: ['webhooks_read', 'webhooks_write', 'surveys_read'],
        codeChallenge: null,
      });
      const again = await exchangeCode(server.deps, a.app, code, REDIRECT, undefined, null);
      if (!again.ok) throw new Error(again.description);
      const t = { token: again.token };
      expect((await server.client.get('/v3/webhooks', t)).body).toMatchObject({ total: 0, data: [] });
      expect((await server.client.get(`/v3/webhooks/${hook.id}`, t)).status).toBe(404);
      await responseCompleted(server.deps, a.user.id, hook.surveyId, hook.collectorId);
      clock.advance(86_400_000);
      await worker.drain();
      expect(postsTo(hook.url)).toHaveLength(1);
    });
});

describe('a replayed authorization code', () => {
  it("revokes the token it issued and, with no other token for the app, ends that grant's webhooks", async () => {
    // `b` is not the app's owner, so the code's token is b's only token for the app.
    const a = await server.account();
    const b = await server.account();
    const grant = async () => {
      const code = await createCode(server.deps, {
        app: a.app,
        userId: b.user.id,
        redirectUri: REDIRECT,
        scopes: ['webhooks_read', 'webhooks_write', 'surveys_read', 'surveys_write', 'collectors_write'],
        codeChallenge: null,
      });
      const fields = {
        grant_type: 'authorization_code',
        client_id: a.app.client_id,
        client_secret: a.clientSecret,
        code,
        redirect_uri: REDIRECT,
      };
      const res = await exchange(server.url, fields);
      expect(res.status).toBe(200);
      return { token: res.body.access_token as string, fields };
    };
    const first = await grant();
    const hook = await subscribe(b, first.token);
    expect((await exchange(server.url, first.fields)).body.error).toBe('invalid_grant');
    await responseCompleted(server.deps, b.user.id, hook.surveyId, hook.collectorId);
    await worker.drain();
    expect(postsTo(hook.url)).toHaveLength(0);
    const second = await grant();
    expect((await server.client.get('/v3/webhooks', { token: second.token })).body.total).toBe(0);
  });
});

describe('webhooks of a disabled app', () => {
  it('get no delivery once the draft window has ended', async () => {
    const a = await server.account();
    const hook = await subscribe(a);
    await responseCompleted(server.deps, a.user.id, hook.surveyId, hook.collectorId);
    await worker.drain();
    expect(postsTo(hook.url)).toHaveLength(1);
    clock.advance(91 * 86_400_000);
    expect((await server.client.get('/v3/users/me', { token: a.token })).status).toBe(401);
    await responseCompleted(server.deps, a.user.id, hook.surveyId, hook.collectorId);
    await worker.drain();
    expect(postsTo(hook.url)).toHaveLength(1);
  });
});
