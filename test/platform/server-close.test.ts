// Closing a server while a request is in flight: the connection closes once its answer is written,
// rather than staying open as an idle keep-alive connection until Fastify's 72 s keep-alive timeout
// (Node 20's server.close() only reaps the connections idle at the moment it is called). This is
// what held every-family.test.ts's afterAll on PostgreSQL: a file download's stream ends one read
// after the client already has every byte, so a close right after the download found it busy.
import { type AddressInfo, connect } from 'node:net';
import { expect, it } from 'vitest';
import { startServer } from '../helpers/server.js';

it('a request in flight at close gets its answer and does not hold the close', async () => {
  const server = await startServer();
  let closed = false;
  try {
    const { token } = await server.account();
    const body = JSON.stringify({ title: 'In flight at close' });
    // Straight to the app (scaled out, server.url is the proxy, which close() shuts first).
    const { port } = server.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (c) => {
      answer += c;
    });
    const half = Math.floor(body.length / 2);
    // the headers and half the body: the request is routed and waits for the rest
    socket.write(
      `POST /v3/surveys HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nAuthorization: bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = server.close().then(() => {
      closed = true;
    });
    socket.write(body.slice(half));
    const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
    expect(await Promise.race([closing.then(() => 'closed'), late])).toBe('closed');
    await gone;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  } finally {
    if (!closed) await server.close();
  }
}, 120_000);
