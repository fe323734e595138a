// The operator's erase page does what `survey-service erase` does: a person's contacts and responses
// under an address are deleted (counts kept), only by operators, only once confirmed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('erases an address in one account after confirmation; refuses non-operators and unconfirmed forms', async () => {
  const owner = await server.account({ plan: 'premier' });
  const other = await server.account({ plan: 'premier' });
  const t = { token: owner.token };
  const mine = await server.client.post('/v3/contacts', { email: 'Gone@Example.org' }, t);
  const kept = await server.client.post(
    '/v3/contacts',
    { email: 'gone@example.org' },
    { token: other.token },
  );
  expect([mine.status, kept.status]).toEqual([201, 201]);

  // Not an operator: 403, nothing erased.
  const plain = await signIn(server, owner);
  expect((await plain.get('/operator/erase')).status).toBe(403);

  const op = await server.account();
  await setOperator(server.deps, op.user.id, true);
  const web = await signIn(server, op);
  const form = await web.get('/operator/erase');
  expect(form.status).toBe(200);
  expect(form.text).toContain('cannot be restored');

  const _csrf = await web.csrf('/operator/erase');
  const unconfirmed = await web.post('/operator/erase', { _csrf, email: 'gone@example.org' });
  expect(unconfirmed.status).toBe(400);
  expect(unconfirmed.text).toContain('Tick the box');
  const unknown = await web.post('/operator/erase', {
    _csrf,
    email: 'gone@example.org',
    owner: 'nobody_here',
    confirm: '1',
  });
  expect(unknown.status).toBe(400);
  expect((await server.client.get(`/v3/contacts/${mine.body.id}`, t)).status).toBe(200);

  const done = await web.post('/operator/erase', {
    _csrf,
    email: 'gone@example.org',
    owner: owner.user.username,
    confirm: '1',
  });
  expect(done.status).toBe(200);
  expect(done.text).toContain('<li>1 contact record(s)</li>');
  expect((await server.client.get(`/v3/contacts/${mine.body.id}`, t)).status).toBe(404);
  // Another account's contact with the same address is not touched when an owner is named.
  expect((await server.client.get(`/v3/contacts/${kept.body.id}`, { token: other.token })).status).toBe(200);
});
