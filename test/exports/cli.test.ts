// `survey-service export` as operators run it: the same file as the API's, to a file or stdout,
// with the acting user's access and plan.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const strict = (text: string | Buffer): string[][] =>
  parse(text, { bom: true, record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false });

describe('survey-service export', () => {
  it('writes the API export to a file and stdout; a user without access is refused', {
    timeout: 240_000,
  }, async () => {
    const a = await server.account();
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Cli',
        pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] }] }],
      },
      { token: a.token },
    );
    const d = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: a.token })).body;
    const c = await server.client.post(
      `/v3/surveys/${d.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    for (const text of ['one', '+two'])
      await server.client.post(
        `/v3/collectors/${c.body.id}/responses`,
        {
          pages: [
            { id: d.pages[0].id, questions: [{ id: d.pages[0].questions[0].id, answers: [{ text }] }] },
          ],
        },
        { token: a.token },
      );
    const api = await server.client.post(
      `/v3/surveys/${d.id}/exports`,
      { format: 'csv' },
      { token: a.token },
    );
    const fromApi = await fetch(`${server.url}${new URL(api.body.download_url).pathname}`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const apiText = await fromApi.text();
    const env = {
      DATABASE_URL: server.config.databaseUrl,
      SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    };
    const to = join(mkdtempSync(join(tmpdir(), 'cli-export-')), 'out.csv');
    const r = runCli(
      ['export', '--survey', d.id, '--format', 'csv', '--to', to, '--owner', a.user.username],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const file = readFileSync(to, 'utf8');
    expect(file).toBe(apiText);
    expect(
      strict(file)
        .slice(2)
        .map((l) => l[10]),
    ).toEqual(['one', "'+two"]);
    const out = runCli(['export', '--survey', d.id], env);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe(apiText);
    const stranger = await server.account();
    const refused = runCli(['export', '--survey', d.id, '--owner', stranger.user.username], env);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('not found');
  });
});
