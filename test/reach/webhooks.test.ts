import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../src/platform/http-target.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';

let server: TestServer;
let receiver: Receiver;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await server.close();
});

let n = 0;
const url = () => `${receiver.url}?n=${++n}`;

describe('POST /v3/webhooks', () => {
  it('creates a webhook after its subscription_url answered HEAD with 200', async () => {
    const a = await server.account();
    const s1 = (await surveyWithCollector(server.client, a.token)).surveyId;
    const s2 = (await surveyWithCollector(server.client, a.token)).surveyId;
    const heads = receiver.heads;
    const target = url();
    const res = await server.client.post(
      '/v3/webhooks',
      {
        name: 'My Webhook',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [s1, s2],
        subscription_url: target,
      },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    expect(receiver.heads).toBe(heads + 1);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'My Webhook',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [s1, s2],
      subscription_url: target,
      href: `${server.client.baseUrl}/v3/webhooks/${res.body.id}`,
    });
    expect(res.body).not.toHaveProperty('authorization');
  });

  it('keeps the authorization value and shows it', async () => {
    const a = await server.account();
    const res = await server.client.post(
      '/v3/webhooks',
      { name: 'auth', event_type: 'survey_created', subscription_url: url(), authorization: 'Bearer xyz' },
      { token: a.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ authorization: 'Bearer xyz', object_type: 'survey', object_ids: [] });
  });

  it('accepts app_installed / app_uninstalled with object_type app', async () => {
    const a = await server.account();
    for (const event_type of ['app_installed', 'app_uninstalled']) {
      const res = await server.client.post(
        '/v3/webhooks',
        { name: 'apps', event_type, object_type: 'app', subscription_url: url() },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      expect(res.body.object_type).toBe('app');
    }
  });

  it('answers 409/1026 for a subscription_url the account already uses, whatever the event', async () => {
    const a = await server.account();
    const target = url();
    const first = await server.client.post(
      '/v3/webhooks',
      { name: 'one', event_type: 'survey_created', subscription_url: target },
      { token: a.token },
    );
    expect(first.status).toBe(201);
    const again = await server.client.post(
      '/v3/webhooks',
      { name: 'two', event_type: 'survey_deleted', object_type: 'survey', subscription_url: target },
      { token: a.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.id).toBe('1026');
    // Another account may use the same URL.
    const b = await server.account();
    const other = await server.client.post(
      '/v3/webhooks',
      { name: 'three', event_type: 'survey_created', subscription_url: target },
      { token: b.token },
    );
    expect(other.status).toBe(201);
  });

  it.each([
    [{ event_type: 'survey_created', subscription_url: 'http://x.test/' }, 'name'],
    [{ name: 'x', subscription_url: 'http://x.test/' }, 'event_type'],
    [{ name: 'x', event_type: 'survey_created' }, 'subscription_url'],
    [{ name: 'x', event_type: 'nope', subscription_url: 'http://x.test/' }, 'event_type'],
    [
      { name: 'x', event_type: 'survey_updated', object_type: 'page', subscription_url: 'http://x.test/' },
      'object_type',
    ],
    [
      {
        name: 'x',
        event_type: 'survey_updated',
        object_type: 'survey',
        object_ids: ['abc'],
        subscription_url: 'http://x.test/',
      },
      'object_ids',
    ],
    [
      {
        name: 'x',
        event_type: 'survey_updated',
        object_type: 'survey',
        object_ids: [1.5],
        subscription_url: 'http://x.test/',
      },
      'object_ids',
    ],
    [{ name: '', event_type: 'survey_created', subscription_url: 'http://x.test/' }, 'name'],
    [{ name: 'a\u0000b', event_type: 'survey_created', subscription_url: 'http://x.test/' }, 'name'],
    [
      { name: 'x', event_type: 'survey_created', subscription_url: 'http://x.test/', colour: 'red' },
      'colour',
    ],
  ])('answers 400/1002 for a bad body %#', async (body, field) => {
    const a = await server.account();
    const res = await server.client.post('/v3/webhooks', body, { token: a.token });
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1002');
    expect(res.body.error.message).toContain(field);
  });

  it.each([
    [{ event_type: 'collector_created', object_type: 'collector', object_ids: ['1'] }, /collector_created/],
    [{ event_type: 'survey_updated', object_type: 'collector', object_ids: ['1'] }, /survey_updated/],
    [{ event_type: 'survey_created', object_ids: ['1'] }, /object_ids/],
    [{ event_type: 'survey_created', object_type: 'collector' }, /object_type/],
    [{ event_type: 'response_completed' }, /object_type/],
    [{ event_type: 'response_completed', object_type: 'app' }, /app/],
    [{ event_type: 'app_installed', object_type: 'survey' }, /object_type app/],
    [{ event_type: 'app_installed', object_type: 'app', object_ids: ['1'] }, /calling app/],
  ])('refuses an invalid combination with 400/1002 %#', async (combo, message) => {
    const a = await server.account();
    const res = await server.client.post(
      '/v3/webhooks',
      { name: 'x', subscription_url: url(), ...combo },
      { token: a.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1002');
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses a subscription_url that does not answer HEAD with 200 (400/1000)', async () => {
    const a = await server.account();
    receiver.headStatus = 404;
    try {
      const res = await server.client.post(
        '/v3/webhooks',
        { name: 'x', event_type: 'survey_created', subscription_url: url() },
        { token: a.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.id).toBe('1000');
      expect(res.body.error.message).toMatch(/not reachable: it must answer a HEAD request with 200\.$/);
    } finally {
      receiver.headStatus = 200;
    }
    const dead = await server.client.post(
      '/v3/webhooks',
      { name: 'x', event_type: 'survey_created', subscription_url: 'http://127.0.0.1:1/hook' },
      { token: a.token },
    );
    expect(dead.status).toBe(400);
    expect(dead.body.error.id).toBe('1000');
    const ftp = await server.client.post(
      '/v3/webhooks',
      { name: 'x', event_type: 'survey_created', subscription_url: 'ftp://example.com/x' },
      { token: a.token },
    );
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.id).toBe('1002');
  });

  it('needs webhooks_write (403/1014) and a token (401/1010)', async () => {
    const reader = await server.account({ scopes: ['webhooks_read'] });
    const body = { name: 'x', event_type: 'survey_created', subscription_url: url() };
    const res = await server.client.post('/v3/webhooks', body, { token: reader.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1014');
    const anon = await server.client.post('/v3/webhooks', body);
    expect(anon.status).toBe(401);
    expect(anon.body.error.id).toBe('1010');
  });
});

const NOT_REACHABLE =
  'The request could not be processed with the input provided. subscription_url is not reachable: it must answer a HEAD request with 200.';

describe('special-purpose targets', () => {
  it('blocks every special-purpose address and the IPv6 forms that embed one', () => {
    for (const a of [
      '0.1.2.3',
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '100.64.0.1',
      '100.127.255.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '192.0.0.9',
      '192.0.2.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.175.48.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.251',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::7f00:1', // IPv4-compatible (deprecated)
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '::ffff:100.64.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b:1::1',
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2002:6440:1::1', // 6to4 of 100.64.0.1
      '100::1',
      '2001::1', // Teredo
      '2001:2::1',
      '2001:db8::1',
      '3fff::1',
      '5f00::1',
      'fc00::1',
      'fd12::3',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of [
      '8.8.8.8',
      '172.32.0.1',
      '172.15.0.1',
      '100.128.0.1',
      '198.20.0.1',
      '93.184.216.34',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect(isBlockedAddress(a), a).toBe(false);
  });

  it('refuses loopback targets in every form unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true (400/1000)', async () => {
    const strict = await startServer();
    try {
      const a = await strict.account();
      const heads = receiver.heads;
      for (const target of [
        receiver.url,
        `http://localhost:${receiver.port}/hook`,
        `http://[::ffff:127.0.0.1]:${receiver.port}/hook`,
        `http://2130706433:${receiver.port}/hook`,
      ]) {
        const res = await strict.client.post(
          '/v3/webhooks',
          { name: 'x', event_type: 'survey_created', subscription_url: target },
          { token: a.token },
        );
        expect(res.status, target).toBe(400);
        expect(res.body.error.id).toBe('1000');
        expect(res.body.error.message).toBe(NOT_REACHABLE);
      }
      expect(receiver.heads).toBe(heads);
    } finally {
      await strict.close();
    }
  });

  it('answers a refused port and a timeout with the same "not reachable" error', async () => {
    const quick = await startServer({
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '300' },
    });
    // Accepts connections and never answers.
    const silent = createNetServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      const a = await quick.account();
      for (const target of [
        `http://127.0.0.1:${closedPort}/hook`,
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`,
      ]) {
        const res = await quick.client.post(
          '/v3/webhooks',
          { name: 'x', event_type: 'survey_created', subscription_url: target },
          { token: a.token },
        );
        expect(res.status, target).toBe(400);
        expect(res.body.error).toMatchObject({ id: '1000', message: NOT_REACHABLE });
      }
    } finally {
      silent.close();
      await quick.close();
    }
  });
});

describe('GET /v3/webhooks and /v3/webhooks/{id}', () => {
  it("lists the account's own webhooks with paging", async () => {
    const a = await server.account();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000); // listed in creation order
      const r = await server.client.post(
        '/v3/webhooks',
        { name: `hook ${i}`, event_type: 'survey_created', subscription_url: url() },
        { token: a.token },
      );
      ids.push(r.body.id);
    }
    const other = await server.account();
    await server.client.post(
      '/v3/webhooks',
      { name: 'theirs', event_type: 'survey_created', subscription_url: url() },
      { token: other.token },
    );
    const res = await server.client.get('/v3/webhooks?per_page=2', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.data).toEqual([
      { id: ids[0], name: 'hook 0', href: `${server.client.baseUrl}/v3/webhooks/${ids[0]}` },
      { id: ids[1], name: 'hook 1', href: `${server.client.baseUrl}/v3/webhooks/${ids[1]}` },
    ]);
    expect(res.body.links.next).toContain('page=2');
    const one = await server.client.get(`/v3/webhooks/${ids[2]}`, { token: a.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids[2], name: 'hook 2', event_type: 'survey_created' });
  });

  it("answers 404/1020 for another account's webhook, 400/1003 for bad paging, 403/1014 without webhooks_read", async () => {
    const a = await server.account();
    const b = await server.account();
    const created = await server.client.post(
      '/v3/webhooks',
      { name: 'x', event_type: 'survey_created', subscription_url: url() },
      { token: a.token },
    );
    const res = await server.client.get(`/v3/webhooks/${created.body.id}`, { token: b.token });
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
    const bad = await server.client.get('/v3/webhooks?per_page=0', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.id).toBe('1003');
    const writer = await server.account({ scopes: ['webhooks_write'] });
    const scope = await server.client.get('/v3/webhooks', { token: writer.token });
    expect(scope.status).toBe(403);
    expect(scope.body.error.id).toBe('1014');
    expect((await server.client.get(`/v3/webhooks/${created.body.id}`)).status).toBe(401);
    expect((await server.client.get('/v3/webhooks/not-a-number', { token: a.token })).status).toBe(404);
  });
});

describe('object_ids name surveys and collectors the account may analyze', () => {
  it("answers 404/1020 for another account's survey or collector, or one that does not exist", async () => {
    const a = await server.account();
    const b = await server.account();
    const mine = await surveyWithCollector(server.client, a.token);
    const theirs = await surveyWithCollector(server.client, b.token);
    const post = (object_type: string, object_ids: string[]) =>
      server.client.post(
        '/v3/webhooks',
        { name: 'x', event_type: 'response_completed', object_type, object_ids, subscription_url: url() },
        { token: a.token },
      );
    for (const [type, ids] of [
      ['survey', [mine.surveyId, theirs.surveyId]],
      ['collector', [mine.collectorId, theirs.collectorId]],
      ['survey', ['999999999']],
      ['collector', ['999999999']],
      ['survey', [mine.collectorId]],
      ['collector', [mine.surveyId]],
    ] as const) {
      const res = await post(type, [...ids]);
      expect(res.status, `${type} ${ids}`).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    const ok = await post('collector', [mine.collectorId]);
    expect(ok.status).toBe(201);
    const patched = await server.client.patch(
      `/v3/webhooks/${ok.body.id}`,
      { object_ids: [theirs.collectorId] },
      { token: a.token },
    );
    expect(patched.status).toBe(404);
    expect(patched.body.error.id).toBe('1020');
    const kept = await server.client.get(`/v3/webhooks/${ok.body.id}`, { token: a.token });
    expect(kept.body.object_ids).toEqual([mine.collectorId]);
  });
});

describe('PATCH, PUT and DELETE /v3/webhooks/{id}', () => {
  it('patches any field, re-checking the new subscription_url', async () => {
    const a = await server.account();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await surveyWithCollector(server.client, a.token)).surveyId);
    const created = await server.client.post(
      '/v3/webhooks',
      {
        name: 'x',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [ids[0]],
        subscription_url: url(),
      },
      { token: a.token },
    );
    const heads = receiver.heads;
    const target = url();
    const res = await server.client.patch(
      `/v3/webhooks/${created.body.id}`,
      { name: 'renamed', subscription_url: target, object_ids: [ids[1], ids[2]] },
      { token: a.token },
    );
    expect(res.status).toBe(200);
    expect(receiver.heads).toBe(heads + 1);
    expect(res.body).toMatchObject({
      name: 'renamed',
      subscription_url: target,
      object_ids: [ids[1], ids[2]],
      event_type: 'response_completed',
      object_type: 'survey',
    });
    const toCreated = await server.client.patch(
      `/v3/webhooks/${created.body.id}`,
      { event_type: 'survey_created', object_ids: [] },
      { token: a.token },
    );
    expect(toCreated.status).toBe(200);
    expect(toCreated.body).toMatchObject({
      event_type: 'survey_created',
      object_type: 'survey',
      object_ids: [],
    });
    const invalid = await server.client.patch(
      `/v3/webhooks/${created.body.id}`,
      { event_type: 'collector_created', object_type: 'collector' },
      { token: a.token },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.id).toBe('1002');
    const unknown = await server.client.patch(
      `/v3/webhooks/${created.body.id}`,
      { nme: 'x' },
      { token: a.token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.id).toBe('1002');
  });

  it('refuses a patched subscription_url another webhook of the account has (409/1026)', async () => {
    const a = await server.account();
    const u1 = url();
    await server.client.post(
      '/v3/webhooks',
      { name: 'a', event_type: 'survey_created', subscription_url: u1 },
      { token: a.token },
    );
    const second = await server.client.post(
      '/v3/webhooks',
      { name: 'b', event_type: 'survey_created', subscription_url: url() },
      { token: a.token },
    );
    const res = await server.client.patch(
      `/v3/webhooks/${second.body.id}`,
      { subscription_url: u1 },
      { token: a.token },
    );
    expect(res.status).toBe(409);
    expect(res.body.error.id).toBe('1026');
  });

  it('replaces with PUT (full body required) and deletes with a JSON body', async () => {
    const a = await server.account();
    const created = await server.client.post(
      '/v3/webhooks',
      { name: 'x', event_type: 'survey_created', subscription_url: url(), authorization: 'secret' },
      { token: a.token },
    );
    const id = created.body.id;
    const partial = await server.client.put(`/v3/webhooks/${id}`, { name: 'y' }, { token: a.token });
    expect(partial.status).toBe(400);
    expect(partial.body.error.id).toBe('1002');
    const target = url();
    const { collectorId } = await surveyWithCollector(server.client, a.token);
    const put = await server.client.put(
      `/v3/webhooks/${id}`,
      {
        name: 'y',
        event_type: 'collector_updated',
        object_type: 'collector',
        object_ids: [collectorId],
        subscription_url: target,
      },
      { token: a.token },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      id,
      name: 'y',
      event_type: 'collector_updated',
      object_type: 'collector',
      object_ids: [collectorId],
      subscription_url: target,
      href: `${server.client.baseUrl}/v3/webhooks/${id}`,
    });
    const b = await server.account();
    for (const res of [
      await server.client.put(
        `/v3/webhooks/${id}`,
        { name: 'z', event_type: 'survey_created', subscription_url: url() },
        { token: b.token },
      ),
      await server.client.patch(`/v3/webhooks/${id}`, { name: 'z' }, { token: b.token }),
      await server.client.delete(`/v3/webhooks/${id}`, { token: b.token }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    const reader = await server.account({ scopes: ['webhooks_read'] });
    expect((await server.client.delete(`/v3/webhooks/${id}`, { token: reader.token })).body.error.id).toBe(
      '1014',
    );
    expect((await server.client.patch(`/v3/webhooks/${id}`, { name: 'q' })).body.error.id).toBe('1010');
    const del = await server.client.delete(`/v3/webhooks/${id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id, name: 'y' });
    expect((await server.client.get(`/v3/webhooks/${id}`, { token: a.token })).status).toBe(404);
    expect((await server.client.delete(`/v3/webhooks/${id}`, { token: a.token })).status).toBe(404);
  });
});

describe('GET /v3/webhooks/{id}/signing_secret', () => {
  it('gives the owner a stable whsec_ secret, different per webhook', async () => {
    const a = await server.account();
    const w1 = await server.client.post(
      '/v3/webhooks',
      { name: 'a', event_type: 'survey_created', subscription_url: url() },
      { token: a.token },
    );
    const w2 = await server.client.post(
      '/v3/webhooks',
      { name: 'b', event_type: 'survey_deleted', object_type: 'survey', subscription_url: url() },
      { token: a.token },
    );
    const s1 = await server.client.get(`/v3/webhooks/${w1.body.id}/signing_secret`, { token: a.token });
    expect(s1.status).toBe(200);
    expect(s1.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(
      (await server.client.get(`/v3/webhooks/${w1.body.id}/signing_secret`, { token: a.token })).body,
    ).toEqual(s1.body);
    const s2 = await server.client.get(`/v3/webhooks/${w2.body.id}/signing_secret`, { token: a.token });
    expect(s2.body.secret).not.toBe(s1.body.secret);
    const b = await server.account();
    expect(
      (await server.client.get(`/v3/webhooks/${w1.body.id}/signing_secret`, { token: b.token })).status,
    ).toBe(404);
    const writer = await server.account({ scopes: ['webhooks_write'] });
    expect(
      (await server.client.get(`/v3/webhooks/${w1.body.id}/signing_secret`, { token: writer.token })).status,
    ).toBe(403);
    expect((await server.client.get(`/v3/webhooks/${w1.body.id}/signing_secret`)).status).toBe(401);
  });
});

describe('authorization on every webhooks endpoint', () => {
  it("answers 401/1010 without a token, 403/1014 without the scope, 404/1020 for another account's webhook", async () => {
    const owner = await server.account();
    const hook = (
      await server.client.post(
        '/v3/webhooks',
        { name: 'x', event_type: 'survey_created', subscription_url: url() },
        { token: owner.token },
      )
    ).body.id;
    const delivery = await server.deps.ids.one();
    const stranger = await server.account();
    const readOnly = await server.account({ scopes: ['webhooks_read'] });
    const writeOnly = await server.account({ scopes: ['webhooks_write'] });
    const endpoints: Array<[string, string, unknown, 'read' | 'write', boolean]> = [
      ['GET', '/v3/webhooks', undefined, 'read', false],
      [
        'POST',
        '/v3/webhooks',
        { name: 'y', event_type: 'survey_created', subscription_url: url() },
        'write',
        false,
      ],
      ['GET', `/v3/webhooks/${hook}`, undefined, 'read', true],
      ['PATCH', `/v3/webhooks/${hook}`, { name: 'z' }, 'write', true],
      [
        'PUT',
        `/v3/webhooks/${hook}`,
        { name: 'z', event_type: 'survey_created', subscription_url: url() },
        'write',
        true,
      ],
      ['GET', `/v3/webhooks/${hook}/signing_secret`, undefined, 'read', true],
      ['GET', `/v3/webhooks/${hook}/deliveries`, undefined, 'read', true],
      ['GET', `/v3/webhooks/${hook}/deliveries/${delivery}`, undefined, 'read', true],
      ['POST', `/v3/webhooks/${hook}/deliveries/${delivery}/redeliver`, undefined, 'write', true],
      ['DELETE', `/v3/webhooks/${hook}`, undefined, 'write', true],
    ];
    for (const [method, path, body, kind, owned] of endpoints) {
      const anon = await server.client.request(method, path, { body });
      expect(anon.status, `${method} ${path}`).toBe(401);
      expect(anon.body.error.id).toBe('1010');
      const scoped = await server.client.request(method, path, {
        body,
        token: (kind === 'read' ? writeOnly : readOnly).token,
      });
      expect(scoped.status, `${method} ${path}`).toBe(403);
      expect(scoped.body.error.id).toBe('1014');
      if (owned) {
        const theirs = await server.client.request(method, path, { body, token: stranger.token });
        expect(theirs.status, `${method} ${path}`).toBe(404);
        expect(theirs.body.error.id).toBe('1020');
      }
    }
    // The owner's unknown delivery is not found either.
    const missing = await server.client.get(`/v3/webhooks/${hook}/deliveries/${delivery}`, {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.id).toBe('1020');
  });
});
