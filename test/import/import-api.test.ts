// The import through the API (POST /v3/imports, GET /v3/imports/{id}), against a second server as
// the source: refusals (a source outside IMPORT_PAGE_SOURCES, a token without contacts_write, bad
// bodies), a dry run, then a copy run in the background to the end and compared field by field;
// another account cannot read the import, and the token is stored nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { compareAccounts, fillSource, type SourceAccount } from './fixtures.js';

let source: TestServer;
let dest: TestServer;
let srcToken: string;
let owner: TestAccount;
let filled: SourceAccount;

beforeAll(async () => {
  source = await startServer();
  srcToken = (await source.account()).token;
  filled = await fillSource(source.client, srcToken, 30);
  dest = await startServer({ env: { IMPORT_PAGE_SOURCES: source.url } });
  owner = await dest.account();
}, 120_000);
afterAll(async () => {
  await dest?.close();
  await source?.close();
});

const post = (body: unknown, token = owner.token) => dest.client.post('/v3/imports', body, { token });

describe('POST /v3/imports', () => {
  it('refuses a source the server does not import from, a token without contacts_write, and bad bodies', async () => {
    const elsewhere = await post({ from: 'http://127.0.0.1:1/', token: srcToken });
    expect([elsewhere.status, elsewhere.body.error.id]).toEqual([400, '1002']);
    expect(elsewhere.body.error.message).toContain('IMPORT_PAGE_SOURCES');

    const surveysOnly = await dest.account({ scopes: ['surveys_read', 'surveys_write'] });
    const scoped = await post({ from: source.url, token: srcToken }, surveysOnly.token);
    expect([scoped.status, scoped.body.error.id]).toEqual([403, '1014']);

    for (const body of [
      {},
      { from: source.url, token: srcToken, daily_budget: 0 },
      { token: 'x', extra: 1 },
    ]) {
      const bad = await post(body);
      expect([bad.status, bad.body.error.id], JSON.stringify(body)).toEqual([400, '1002']);
    }
    const wrongToken = await post({ from: source.url, token: 'not-a-token' });
    expect([wrongToken.status, wrongToken.body.error.id]).toEqual([400, '1002']);
    expect(wrongToken.body.error.message).toContain('refused the token');
  });

  it('counts what a copy needs with dry_run, then copies the account in the background', async () => {
    const plan = await post({ from: source.url, token: srcToken, dry_run: true });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      surveys: filled.surveyIds.length,
      responses: filled.responses,
      folders: 1,
    });
    expect(plan.body.requests).toBeGreaterThan(plan.body.requests_made);

    const started = await post({ from: source.url, token: srcToken, daily_budget: 1000 });
    expect(started.status).toBe(202);
    expect(started.body.href).toBe(`${dest.url}/v3/imports/${started.body.id}`);
    expect(started.body.source_url).toBe(source.url);
    let job = started.body;
    for (let i = 0; i < 600 && job.state !== 'done' && job.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const read = await dest.client.get(`/v3/imports/${started.body.id}`, { token: owner.token });
      expect(read.status).toBe(200);
      job = read.body;
    }
    expect([job.state, job.last_error]).toEqual(['done', null]);
    expect(job.progress.copied.responses).toBe(filled.responses);
    expect(job.progress.requests_total).toBeGreaterThan(0);
    await compareAccounts(source.client, srcToken, dest.client, owner.token);

    // Another account does not see it; the token is in no table.
    const other = await dest.account();
    const hidden = await dest.client.get(`/v3/imports/${job.id}`, { token: other.token });
    expect([hidden.status, hidden.body.error.id]).toEqual([404, '1020']);
    const jobs = await dest.deps.db.kysely.selectFrom('import_jobs').selectAll().execute();
    expect(JSON.stringify(jobs)).not.toContain(srcToken);
  }, 180_000);
});
