// The importer reads the source's origin only: a links.next or a redirect to another origin (a
// second local server on another port) is never requested, so the source token never reaches it;
// the import (and the dry run) report a malformed source, and nothing of the other server's answer
// appears in the error.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { forwardRewritten } from './fixtures.js';

const FOREIGN_BODY = 'FOREIGN-SERVER-ANSWER';

let source: TestServer;
let dest: TestServer;
let srcToken: string;
let proxy: Server;
let proxyUrl: string;
let foreign: Server;
let foreignUrl: string;
/** What the other origin received (it answers every request with a 500 naming itself). */
const foreignSaw: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
/** How the proxy in front of the source bends an answer (none: passed through). */
let bend: (path: string) => { redirect?: string; next?: string } | undefined = () => undefined;

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  source = await startServer();
  srcToken = (await source.account()).token;
  foreign = createServer((req, res) => {
    foreignSaw.push({ url: req.url!, headers: req.headers });
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(FOREIGN_BODY);
  });
  foreignUrl = await listen(foreign);
  // The source as the import sees it: a proxy that may redirect a request or add a links.next.
  proxy = createServer((req, res) => {
    const how = bend(req.url!);
    if (how?.redirect) {
      res.writeHead(302, { location: how.redirect });
      res.end();
      return;
    }
    forwardRewritten(req, res, source.url, (_status, text) =>
      how?.next ? JSON.stringify({ ...JSON.parse(text), links: { next: how.next } }) : text,
    );
  });
  proxyUrl = await listen(proxy);
  dest = await startServer({ env: { IMPORT_PAGE_SOURCES: proxyUrl } });
}, 120_000);

afterAll(async () => {
  await dest?.close();
  await source?.close();
  await Promise.all([proxy, foreign].map((s) => s && new Promise((r) => s.close(r))));
});

/** Starts an import for a new owner through the API and waits for it to end. */
async function importToEnd() {
  const owner = await dest.account();
  const started = await dest.client.post(
    '/v3/imports',
    { from: proxyUrl, token: srcToken, daily_budget: 1000 },
    { token: owner.token },
  );
  expect(started.status, started.text).toBe(202);
  let job = started.body;
  for (let i = 0; i < 300 && job.state !== 'done' && job.state !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await dest.client.get(`/v3/imports/${started.body.id}`, { token: owner.token })).body;
  }
  return job;
}

describe('an import reads the source origin only', () => {
  it('does not follow a links.next to another origin: the import fails as a malformed source', async () => {
    foreignSaw.length = 0;
    bend = (path) =>
      path.startsWith('/v3/surveys?') ? { next: `${foreignUrl}/v3/surveys?page=2&per_page=1000` } : undefined;
    const job = await importToEnd();
    expect(JSON.stringify(foreignSaw)).not.toContain(srcToken);
    expect(foreignSaw).toEqual([]);
    expect(job.state).toBe('failed');
    expect(job.last_error).toContain(
      "the source's list of surveys is malformed: its links.next leads away from",
    );
    expect(job.last_error).not.toContain(FOREIGN_BODY);
  });

  it('does not follow a redirect to another origin: the import fails as a malformed source', async () => {
    foreignSaw.length = 0;
    bend = (path) =>
      path.startsWith('/v3/contact_fields') ? { redirect: `${foreignUrl}${path}` } : undefined;
    const job = await importToEnd();
    expect(JSON.stringify(foreignSaw)).not.toContain(srcToken);
    expect(foreignSaw).toEqual([]);
    expect(job.state).toBe('failed');
    expect(job.last_error).toMatch(
      /^the source redirected GET \/v3\/contact_fields away from http:\/\/127\.0\.0\.1:/,
    );
    expect(job.last_error).not.toContain(FOREIGN_BODY);
  });

  it('a dry run redirected to another origin answers a malformed source, without the other answer', async () => {
    foreignSaw.length = 0;
    bend = (path) =>
      path.startsWith('/v3/survey_folders') ? { redirect: `${foreignUrl}${path}` } : undefined;
    const owner = await dest.account();
    const plan = await dest.client.post(
      '/v3/imports',
      { from: proxyUrl, token: srcToken, dry_run: true },
      { token: owner.token },
    );
    expect([plan.status, plan.body.error?.id]).toEqual([400, '1002']);
    expect(plan.body.error.message).toContain('not what its API documents: the source redirected GET');
    expect(plan.text).not.toContain(FOREIGN_BODY);
    expect(foreignSaw).toEqual([]);
  });

  it('follows a redirect within the source origin', async () => {
    foreignSaw.length = 0;
    bend = (path) =>
      path.startsWith('/v3/contact_fields') && !path.includes('moved=1')
        ? { redirect: `${path}&moved=1` }
        : undefined;
    const job = await importToEnd();
    expect([job.state, job.last_error]).toEqual(['done', null]);
  });
});
