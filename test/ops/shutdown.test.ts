// Graceful life: on SIGTERM `serve` stops accepting connections, finishes the request in flight
// (its body still arriving), closes idle keep-alive connections at once and exits 0; a second
// signal exits at once.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  runCliJson(['migrate'], { DATABASE_URL: db.url });
});
afterAll(async () => {
  await db.drop();
});

async function serving(env: Record<string, string> = {}) {
  const port = await freePort();
  const serve = startServeProcess({
    DATABASE_URL: db.url,
    PORT: String(port),
    SECRET_KEY: 'k-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    ...env,
  });
  await serve.ready;
  const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
  return { serve, port, exited };
}

/** How long the first half of a slow request is given to reach `serve` before a signal (generous:
 * on a loaded machine a request not yet read when the signal comes is no request in flight). */
const ARRIVAL_MS = 1000;

/** A token request whose body is sent in two halves: the first now, the second on `finish()`. */
function slowRequest(port: number) {
  const body = 'grant_type=authorization_code&client_id=nobody&client_secret=x&code=y&redirect_uri=http://a/';
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length },
    agent: new Agent({ keepAlive: true }),
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 20));
  return { answered, finish: () => req.end(body.slice(20)) };
}

async function accepted(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`);
    return true;
  } catch {
    return false;
  }
}

it('SIGTERM: stops accepting, answers the request in flight, exits 0', async () => {
  const { serve, port, exited } = await serving();
  const slow = slowRequest(port);
  await new Promise((r) => setTimeout(r, ARRIVAL_MS)); // the first half has arrived
  serve.child.kill('SIGTERM');
  for (let i = 0; i < 100 && (await accepted(port)); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await accepted(port)).toBe(false);
  expect(serve.child.exitCode).toBeNull(); // still finishing the request in flight
  slow.finish();
  const answer = await slow.answered;
  expect(answer.status).toBe(401); // the unknown client's answer: the request was served in full
  expect(JSON.parse(answer.body).error).toBe('invalid_client');
  expect(await exited).toBe(0);
});

it('a second signal exits at once, without waiting for the request in flight', async () => {
  const { serve, port, exited } = await serving();
  const slow = slowRequest(port);
  slow.answered.catch(() => {}); // the connection is cut
  await new Promise((r) => setTimeout(r, ARRIVAL_MS));
  serve.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  expect(serve.child.exitCode).toBeNull();
  serve.child.kill('SIGTERM');
  expect(await exited).toBe(1);
});

/** One answered GET on a keep-alive connection that the client then holds open, idle. */
function idleKeepAlive(port: number, path: string) {
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return new Promise<{ closed: Promise<void> }>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk) => {
      if (chunk.toString().startsWith('HTTP/1.1 200')) resolve({ closed });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

it('SIGTERM with idle keep-alive connections (API and metrics): closes them at once and exits 0', async () => {
  const metricsPort = await freePort();
  const { serve, port, exited } = await serving({
    SHUTDOWN_TIMEOUT_MS: '20000',
    METRICS_PORT: String(metricsPort),
  });
  const api = await idleKeepAlive(port, '/healthz');
  const metrics = await idleKeepAlive(metricsPort, '/metrics');
  // connected, nothing sent yet
  const silent = connect(port, '127.0.0.1');
  const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
  // a request in flight on a keep-alive connection, answered after the signal, then idle
  const slow = slowRequest(port);
  await new Promise((r) => setTimeout(r, ARRIVAL_MS));
  const started = Date.now();
  serve.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  slow.finish();
  expect((await slow.answered).status).toBe(401);
  expect(await exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(10_000);
  await Promise.all([api.closed, metrics.closed, silentClosed]);
});
