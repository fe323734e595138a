// PostgreSQL stopped under load: while it is down every request fails fast with 503/1051 (no 500,
// no hang, the process stays up); when it is back the service recovers by itself, and every
// response it acknowledged with 201 before, during or after the outage is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson, startServeProcess } from '../helpers/cli.js';
import { ApiClient, type ApiResponse } from '../helpers/client.js';
import { usingPostgres } from '../helpers/database.js';
import { type PgCluster, startPgCluster } from '../helpers/pg-cluster.js';
import { freePort } from '../helpers/ports.js';

/** No request may take longer than this, database down or not. */
const BOUND_MS = 10_000;
const LOOPS = 20;

interface Outcome {
  kind: 'read' | 'write';
  start: number;
  end: number;
  status: number;
  code?: string;
  id?: string;
  failure?: string;
}

let cluster: PgCluster;
let serve: ReturnType<typeof startServeProcess>;
let client: ApiClient;
let token: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request with a time bound: a hang or a dropped connection is an outcome too. */
async function timed(kind: Outcome['kind'], send: () => Promise<ApiResponse>): Promise<Outcome> {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    send().then(
      (res) => ({
        status: res.status,
        code: res.body?.error?.id,
        id: res.status === 201 ? res.body.id : undefined,
      }),
      (err: Error) => ({ status: 0, failure: err.message }),
    ),
    new Promise<Partial<Outcome>>((resolve) => {
      timer = setTimeout(() => resolve({ status: 0, failure: `no answer within ${BOUND_MS} ms` }), BOUND_MS);
    }),
  ]);
  clearTimeout(timer);
  return { kind, start, end: Date.now(), ...outcome } as Outcome;
}

describe.skipIf(!usingPostgres)(
  'PostgreSQL stopped under load (needs TEST_DATABASE_URL: npm run test:pg)',
  () => {
    beforeAll(async () => {
      cluster = await startPgCluster();
      await cluster.createDatabase('outage');
      const env = {
        DATABASE_URL: cluster.url('outage'),
        SECRET_KEY: 'outage-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
      };
      runCliJson(['migrate'], env);
      runCliJson(
        [
          'user',
          'create',
          '--username',
          'oz',
          '--email',
          'oz@example.com',
          '--password',
          'password1',
          '--plan',
          'premier',
        ],
        env,
      );
      token = runCliJson(
        ['app', 'create', '--owner', 'oz', '--name', 'O', '--minute-limit', '0', '--day-limit', '0'],
        env,
      ).access_token;
      const port = await freePort();
      serve = startServeProcess({ ...env, PORT: String(port) });
      await serve.ready;
      client = new ApiClient(`http://127.0.0.1:${port}`);
    }, 60_000);
    afterAll(async () => {
      await serve?.stop();
      cluster?.destroy();
    });

    it('answers 503/1051 while it is down, recovers when it is back, and keeps every acknowledged write', {
      timeout: 120_000,
    }, async () => {
      const survey = await client.post('/v3/surveys', { title: 'Outage' }, { token });
      const page = (await client.get(`/v3/surveys/${survey.body.id}/pages`, { token })).body.data[0];
      const question = await client.post(
        `/v3/surveys/${survey.body.id}/pages/${page.id}/questions`,
        { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Say' }] },
        { token },
      );
      const collector = await client.post(
        `/v3/surveys/${survey.body.id}/collectors`,
        { type: 'weblink' },
        { token },
      );
      expect(collector.status).toBe(201);

      const outcomes: Outcome[] = [];
      const sent = new Map<string, string>();
      let running = true;
      let n = 0;
      const loop = async (i: number) => {
        while (running) {
          const text = `answer ${n++}`;
          const o =
            i % 2
              ? await timed('read', () => client.get('/v3/users/me', { token }))
              : await timed('write', () =>
                  client.post(
                    `/v3/collectors/${collector.body.id}/responses`,
                    { pages: [{ id: page.id, questions: [{ id: question.body.id, answers: [{ text }] }] }] },
                    { token },
                  ),
                );
          outcomes.push(o);
          if (o.id) sent.set(o.id, text);
          // Without a database an answer is immediate: pace the loop so it does not spin.
          if (o.status >= 300) await sleep(20);
        }
      };
      const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));

      await sleep(1500);
      const before = sent.size;
      await cluster.stop();
      const downFrom = Date.now();
      await sleep(2000);
      const downUntil = Date.now();
      await cluster.start();
      const upAt = Date.now();
      // Recovery: the service needs no restart; give its pool a moment to reconnect.
      let recovered = 0;
      for (let i = 0; i < 300 && !recovered; i++) {
        await sleep(50);
        recovered = outcomes.find((o) => o.start >= upAt && o.status === 201 && o.kind === 'write')?.end ?? 0;
      }
      expect(recovered, 'a write succeeded after PostgreSQL came back').toBeGreaterThan(0);
      await sleep(1500);
      running = false;
      await Promise.all(loops);

      expect(before).toBeGreaterThan(0);
      // Nothing but success or 503/1051; no dropped connection, no hang, no 500.
      const failures = outcomes.filter((o) => o.status !== 200 && o.status !== 201);
      for (const o of failures)
        expect({ status: o.status, code: o.code, failure: o.failure }).toEqual({
          status: 503,
          code: '1051',
          failure: undefined,
        });
      expect(serve.child.exitCode).toBeNull();
      // While it was down, every request failed, reads and writes alike.
      const whileDown = outcomes.filter((o) => o.start >= downFrom && o.end <= downUntil);
      // (How many fit in the window depends on the machine's load: at least one of each kind.)
      expect(whileDown.filter((o) => o.kind === 'read').length).toBeGreaterThan(0);
      expect(whileDown.filter((o) => o.kind === 'write').length).toBeGreaterThan(0);
      expect(whileDown.every((o) => o.status === 503)).toBe(true);
      // Once recovered, nothing failed: every later request of either kind succeeded.
      const after = outcomes.filter((o) => o.start > recovered);
      expect(after.filter((o) => o.kind === 'read').length).toBeGreaterThan(0);
      expect(after.filter((o) => o.kind === 'write').length).toBeGreaterThan(0);
      expect(after.filter((o) => o.status >= 300)).toEqual([]);

      // Every acknowledged write is there, with its answer.
      const stored = new Map<string, string>();
      let url: string | undefined = `/v3/collectors/${collector.body.id}/responses/bulk?per_page=100`;
      while (url) {
        const res: any = await client.get(url, { token });
        expect(res.status).toBe(200);
        for (const r of res.body.data) stored.set(r.id, r.pages[0].questions[0].answers[0].text);
        url = res.body.links.next;
      }
      for (const [id, text] of sent) expect(stored.get(id), id).toBe(text);
    });
  },
);
