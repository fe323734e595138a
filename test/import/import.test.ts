// `survey-service import` against a second instance of this service holding a realistic account:
// paused by a small daily budget, killed in the middle, resumed, compared field by field through
// the API; a second run copies nothing; a 429 from the source is waited out.
// IMPORT_TEST_RESPONSES=10000 runs the heavy variant (default: 300 responses).

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireUser } from '../../src/domain/accounts/users.js';
import { runImport } from '../../src/domain/import/importer.js';
import { CLI_ARGS, type CliResult, ROOT } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { compareAccounts, fillSource, forwardRewritten } from './fixtures.js';

const RESPONSES = Number(process.env.IMPORT_TEST_RESPONSES ?? 300);

let source: TestServer;
let dest: TestServer;
let srcToken: string;
let dstToken: string;
let owner: string;
let env: Record<string, string>;

beforeAll(async () => {
  source = await startServer();
  dest = await startServer();
  const a = await source.account();
  srcToken = a.token;
  await fillSource(source.client, srcToken, RESPONSES);
  const b = await dest.account();
  dstToken = b.token;
  owner = b.user.username;
  env = {
    DATABASE_URL: dest.config.databaseUrl,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    SCRYPT_LOG_N: '10',
  };
}, 600_000);

afterAll(async () => {
  await source?.close();
  await dest?.close();
});

/**
 * Runs `survey-service import` in a child process (asynchronously: the source server answers from
 * this process). With `killAt`, kills it (SIGKILL) once that many responses are in.
 */
function importProcess(args: string[], killAt?: number): Promise<CliResult & { signal: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...CLI_ARGS, 'import', '--from', source.url, '--owner', owner, ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env, SURVEY_IMPORT_TOKEN: srcToken } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
      const m = [...stderr.matchAll(/responses (\d+)\//g)].at(-1);
      if (killAt !== undefined && m && Number(m[1]) >= killAt && child.exitCode === null)
        child.kill('SIGKILL');
    });
    child.once('exit', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
const cli = (args: string[]) => importProcess(args);

describe('import', () => {
  it('dry run: what would be copied and the requests it needs', async () => {
    const r = await cli(['--dry-run', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({
      dry_run: true,
      surveys: 2,
      responses: RESPONSES,
      folders: 1,
      contacts: 13,
      contactLists: 2,
    });
    expect(plan.requests).toBeGreaterThan(RESPONSES / 100);
    expect(plan.requests).toBeLessThan(RESPONSES / 100 + 60);
  });

  it('pauses at the daily budget, survives a kill, resumes, and the copy matches the source', async () => {
    const paused = await cli(['--daily-budget', '8', '--json']);
    expect(paused.status, paused.stderr).toBe(75);
    const report = JSON.parse(paused.stdout);
    expect(report.state).toBe('paused');
    expect(report.requests_total).toBe(8);
    expect(Date.parse(report.resume_at)).toBeGreaterThan(Date.now());
    expect(paused.stderr).toMatch(/requests 8\/8 today/);
    // The same budget again the same day: nothing more is spent.
    const still = await cli(['--daily-budget', '8', '--json']);
    expect(still.status).toBe(75);
    expect(JSON.parse(still.stdout).requests_total).toBe(8);

    const killed = await importProcess(['--daily-budget', '100000'], 100);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(killed.stderr).toMatch(/import responses/);

    const done = await cli(['--daily-budget', '100000', '--json']);
    expect(done.status, done.stderr).toBe(0);
    const final = JSON.parse(done.stdout);
    expect(final.state).toBe('done');
    expect(final.responses_copied).toBe(RESPONSES);
    expect(final.copied_total.responses).toBe(RESPONSES);
    expect(final.copied_total.surveys).toBe(2);
    console.log(
      `import of ${RESPONSES} responses: ${final.requests_total} requests, ${final.requests_per_response.toFixed(4)} per response`,
    );
    await compareAccounts(source.client, srcToken, dest.client, dstToken);
  }, 600_000);

  it('a second run copies nothing new; a new and a changed response are copied', async () => {
    const again = await cli(['--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).copied).toEqual({});

    const { data: surveys } = (
      await source.client.get('/v3/surveys?title=Customer%20survey', { token: srcToken })
    ).body;
    const sid = surveys[0].id;
    const { data: collectors } = (
      await source.client.get(`/v3/surveys/${sid}/collectors`, { token: srcToken })
    ).body;
    const open = collectors.find((c: any) => c.name === 'Web link');
    const bulk = (
      await source.client.get(`/v3/surveys/${sid}/responses/bulk?per_page=1`, { token: srcToken })
    ).body;
    const first = bulk.data[0];
    // date_modified has a one-second grain: make the change land in a later second.
    await new Promise((r) => setTimeout(r, 1100));
    const changed = await source.client.patch(
      `/v3/surveys/${sid}/responses/${first.id}`,
      { custom_variables: { changed: 'yes' } },
      { token: srcToken },
    );
    expect(changed.status, changed.text).toBe(200);
    const added = await source.client.post(
      `/v3/collectors/${open.id}/responses`,
      { pages: first.pages, custom_value: 'late arrival' },
      { token: srcToken },
    );
    expect(added.status, added.text).toBe(201);

    // Design changes at the source: a question reworded and one added on a survey with
    // responses; on the other, a page (the target of rules) deleted and one added. A contact renamed.
    const o = { token: srcToken };
    const src = source.client;
    const details = (await src.get(`/v3/surveys/${sid}/details`, o)).body;
    const [p1] = details.pages;
    const q1 = p1.questions[0];
    expect(
      (
        await src.patch(
          `/v3/surveys/${sid}/pages/${p1.id}/questions/${q1.id}`,
          { headings: [{ heading: 'Reworded?' }] },
          o,
        )
      ).status,
    ).toBe(200);
    const addedQ = await src.post(
      `/v3/surveys/${sid}/pages/${p1.id}/questions`,
      { family: 'open_ended', subtype: 'single', position: 1, headings: [{ heading: 'New first question' }] },
      o,
    );
    expect(addedQ.status, addedQ.text).toBe(201);
    const poll = (await src.get('/v3/surveys?title=Quick%20poll', o)).body.data[0];
    const pollPages = (await src.get(`/v3/surveys/${poll.id}/details`, o)).body.pages;
    expect((await src.delete(`/v3/surveys/${poll.id}/pages/${pollPages[1].id}`, o)).status).toBe(200);
    expect((await src.post(`/v3/surveys/${poll.id}/pages`, { title: 'Added' }, o)).status).toBe(201);
    const contact = (await src.get('/v3/contacts?per_page=1000', o)).body.data.find(
      (c: { email: string }) => c.email === 'person0@example.com',
    );
    expect((await src.patch(`/v3/contacts/${contact.id}`, { first_name: 'Renamed' }, o)).status).toBe(200);

    const next = await cli(['--json']);
    expect(next.status, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).copied).toMatchObject({
      responses: 1,
      responses_updated: 1,
      surveys_updated: 2,
      contacts_updated: 1,
    });
    await compareAccounts(source.client, srcToken, dest.client, dstToken);
  }, 600_000);

  it('a copy edited here keeps its design when the source changes too', async () => {
    const o = { token: srcToken };
    const poll = (await source.client.get('/v3/surveys?title=Quick%20poll', o)).body.data[0];
    const copy = (await dest.client.get('/v3/surveys?title=Quick%20poll', { token: dstToken })).body.data[0];
    const copyPages = (await dest.client.get(`/v3/surveys/${copy.id}/details`, { token: dstToken })).body
      .pages;
    await new Promise((r) => setTimeout(r, 1100));
    const edited = await dest.client.patch(
      `/v3/surveys/${copy.id}/pages/${copyPages[0].id}`,
      { title: 'Edited here' },
      { token: dstToken },
    );
    expect(edited.status, edited.text).toBe(200);
    expect((await source.client.post(`/v3/surveys/${poll.id}/pages`, { title: 'Another' }, o)).status).toBe(
      201,
    );
    const run = await cli(['--json']);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.copied).toMatchObject({ surveys_updated: 1 });
    expect(report.skipped).toContainEqual({
      kind: 'survey',
      name: 'Quick poll',
      reason: expect.stringContaining('edited here since the copy'),
    });
    const after = (await dest.client.get(`/v3/surveys/${copy.id}/details`, { token: dstToken })).body.pages;
    expect(after.map((p: { title: string }) => p.title)).toEqual(
      copyPages.map((p: { title: string }, i: number) => (i === 0 ? 'Edited here' : p.title)),
    );
  }, 600_000);

  it('waits out a 429 from the source', async () => {
    // A proxy in front of the source answers every third request with 429 and Retry-After.
    let n = 0;
    let refused = 0;
    const proxy = createServer((req, res) => {
      n += 1;
      if (n % 3 === 0) {
        refused += 1;
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error":{"id":"1040","message":"Too many requests"}}');
        return;
      }
      forwardRewritten(req, res, source.url, (_status, text) => text);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const user = await requireUser(dest.deps, (await dest.account()).user.username);
      const waits: number[] = [];
      const result = await runImport(dest.deps, {
        owner: user,
        from: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        token: srcToken,
        dailyBudget: 100_000,
        sleep: async (ms) => void waits.push(ms),
      });
      expect(result.state).toBe('done');
      expect(refused).toBeGreaterThan(0);
      expect(waits.filter((w) => w === 1000).length).toBe(refused);
      expect(result.responsesCopied).toBe(RESPONSES + 1);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  }, 600_000);

  it('a malformed answer from the source is reported by name; a malformed listing fails the run clearly', async () => {
    // A proxy in front of the source rewrites some of its answers.
    let corrupt: (path: string, body: any) => any = (_p, b) => b;
    const proxy = createServer((req, res) => {
      forwardRewritten(req, res, source.url, (status, text) =>
        status === 200 ? JSON.stringify(corrupt(req.url!, JSON.parse(text))) : text,
      );
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const from = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      corrupt = (path, body) => {
        if (/\/surveys\/\d+\/details/.test(path) && body.title === 'Quick poll')
          return { ...body, pages: 'none' };
        if (/\/contacts\/\d+$/.test(path) && body.email === 'person3@example.com')
          return { ...body, email: 42 };
        if (path.includes('/responses/bulk') && body.data?.[0])
          body.data[0] = { ...body.data[0], collector_id: null };
        return body;
      };
      const user = await requireUser(dest.deps, (await dest.account()).user.username);
      const result = await runImport(dest.deps, { owner: user, from, token: srcToken, dailyBudget: 100_000 });
      expect(result.state).toBe('done');
      const reasons = result.skipped.map((s) => `${s.kind} ${s.name}: ${s.reason}`);
      expect(reasons).toContainEqual(
        expect.stringMatching(/^survey Quick poll: malformed at the source: 'pages' /),
      );
      expect(reasons).toContainEqual(
        expect.stringMatching(/^contact \d+: malformed at the source: 'email' /),
      );
      expect(reasons).toContainEqual(
        expect.stringMatching(
          /^response Customer survey \/ response \d+: malformed at the source: 'collector_id' /,
        ),
      );
      expect(result.copiedTotal.surveys).toBe(1);
      expect(result.copiedTotal.contacts).toBe(12);

      corrupt = (path, body) => (path.startsWith('/v3/survey_folders') ? { data: 'none' } : body);
      const other = await requireUser(dest.deps, (await dest.account()).user.username);
      await expect(
        runImport(dest.deps, { owner: other, from, token: srcToken, dailyBudget: 100_000 }),
      ).rejects.toThrow("the source's list of folders is malformed: 'data' ");
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  }, 600_000);
});
