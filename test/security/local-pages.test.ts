// Local-only pages (the mail outbox) answer a loopback peer only when the Host header names the
// loopback too: a DNS-rebound name that resolves to 127.0.0.1 must not read anyone's survey links.
// They may never be framed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueEmail } from '../../src/db/outbox-queue.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let id: string;
let port: string;

beforeAll(async () => {
  server = await startServer();
  port = new URL(server.url).port;
  const deps = server.deps;
  id = await deps.ids.one();
  await deps.db.kysely.transaction().execute((trx) =>
    queueEmail(deps, trx, {
      id,
      ownerId: null,
      to: 'gus@example.org',
      subject: 'Your personal survey link',
      text: 'Answer at http://localhost/r/personal-token',
      html: '<p>Answer</p>',
    }),
  );
});
afterAll(() => server.close());

const paths = () => ['/outbox/mail', `/outbox/mail/${id}`];

describe('local-only pages', () => {
  it('refuse a loopback peer whose Host header is not a loopback name (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
    ])
      for (const path of paths()) {
        const res = await server.client.get(path, { headers: { host } });
        expect(res.status, `${host} ${path}`).toBe(404);
        expect(res.text).not.toContain('gus@example.org');
      }
  });

  it('answer a loopback peer that names the loopback, and forbid framing', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost'])
      for (const path of paths()) {
        const res = await server.client.get(path, { headers: { host } });
        expect(res.status, `${host} ${path}`).toBe(200);
        expect(res.text).toContain('gus@example.org');
        expect(res.headers['x-frame-options'], path).toBe('DENY');
        expect(String(res.headers['content-security-policy']), path).toContain("frame-ancestors 'none'");
        expect(res.headers['cache-control'], path).toContain('no-store');
      }
  });
});
