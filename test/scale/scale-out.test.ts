// Scale-out as operators run it: two `serve --no-worker` processes and one `worker` process on one
// PostgreSQL database, behind a round-robin proxy. The API works through the proxy end to end,
// webhooks are delivered once by the worker, and one rate limit holds across both processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson, runCliJsonAsync, startServeProcess, startWorkerProcess } from '../helpers/cli.js';
import { ApiClient } from '../helpers/client.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { csrfToken, signIn } from '../helpers/fixtures.js';
import { freePort } from '../helpers/ports.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { authorize, exchange } from '../oauth/flow.js';
import { Receiver } from '../reach/helpers/receiver.js';

const MINUTE = 60_000;
const REDIRECT = 'http://localhost:9/callback';
const PASSWORD = 'a long password';

let db: TestDatabase;
let env: Record<string, string>;
let proxy: TestProxy;
let client: ApiClient;
/** Each serve process directly, bypassing the proxy. */
let bases: string[];
let upstreams: ApiClient[];
const processes: Array<{ stop(): Promise<void> }> = [];

async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Verbs run without blocking: the proxy's health checks run in this process, and a blocked event
// loop would time them out and take a healthy upstream out of rotation.
function createUser(username: string) {
  return runCliJsonAsync(
    [
      'user',
      'create',
      '--username',
      username,
      '--email',
      `${username}@example.com`,
      '--password',
      PASSWORD,
      '--plan',
      'premier',
    ],
    env,
  );
}

/** The share of `served` since `from` that each upstream took. */
function servedSince(from: number): number[] {
  const counts = [0, 0];
  for (const i of proxy.served.slice(from)) counts[i]++;
  return counts;
}

describe.skipIf(!usingPostgres)(
  'two serve processes and a worker on PostgreSQL (needs TEST_DATABASE_URL: npm run test:pg)',
  () => {
    beforeAll(async () => {
      db = await createTestDatabase();
      env = {
        DATABASE_URL: db.url,
        SECRET_KEY: 'scale-out-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOX_POLL_MS: '100',
      };
      runCliJson(['migrate'], env);
      const ports = [await freePort(), await freePort()];
      const serves = ports.map((port) => startServeProcess({ ...env, PORT: String(port) }, ['--no-worker']));
      const worker = startWorkerProcess(env);
      processes.push(...serves, worker);
      await Promise.all([...serves, worker].map((p) => p.ready));
      proxy = await startProxy(
        ports.map((port) => `http://127.0.0.1:${port}`),
        { healthPath: '/readyz', healthIntervalMs: 100 },
      );
      client = new ApiClient(proxy.url);
      bases = ports.map((port) => `http://127.0.0.1:${port}`);
      upstreams = bases.map((base) => new ApiClient(base));
    }, 60_000);
    afterAll(async () => {
      await proxy?.close();
      await Promise.all(processes.map((p) => p.stop()));
      await db?.drop();
    });

    it('serves a whole survey flow through the proxy, both processes taking part', {
      timeout: 90_000,
    }, async () => {
      await createUser('ada');
      const app = await runCliJsonAsync(
        [
          'app',
          'create',
          '--owner',
          'ada',
          '--name',
          'Scale',
          '--redirect-uri',
          REDIRECT,
          '--minute-limit',
          '0',
          '--day-limit',
          '0',
        ],
        env,
      );
      const token = app.access_token;
      const from = proxy.served.length;

      // Design: a survey, a second page, questions on both pages.
      const survey = await client.post('/v3/surveys', { title: 'Scaled' }, { token });
      expect(survey.status).toBe(201);
      const sid = survey.body.id;
      const page2 = await client.post(`/v3/surveys/${sid}/pages`, { title: 'Second' }, { token });
      expect(page2.status).toBe(201);
      const pages = await client.get(`/v3/surveys/${sid}/pages`, { token });
      expect(pages.body.data.map((p: any) => p.id)).toEqual([pages.body.data[0].id, page2.body.id]);
      const questions = [
        {
          page: pages.body.data[0].id,
          body: {
            family: 'single_choice',
            subtype: 'vertical',
            headings: [{ heading: 'Colour?' }],
            answers: { choices: [{ text: 'Red' }, { text: 'Blue' }] },
          },
        },
        {
          page: page2.body.id,
          body: { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Why?' }] },
        },
      ];
      for (const q of questions) {
        const res = await client.post(`/v3/surveys/${sid}/pages/${q.page}/questions`, q.body, { token });
        expect(res.status, res.text).toBe(201);
      }
      const details = await client.get(`/v3/surveys/${sid}/details`, { token });
      expect(details.body.question_count).toBe(2);
      const [choice, essay] = details.body.pages.map((p: any) => p.questions[0]);

      // A webhook to a real receiver, then a collector and responses.
      const receiver = await new Receiver().start();
      try {
        const hook = await client.post(
          '/v3/webhooks',
          {
            name: 'Done',
            event_type: 'response_completed',
            object_type: 'survey',
            object_ids: [sid],
            subscription_url: receiver.url,
          },
          { token },
        );
        expect(hook.status, hook.text).toBe(201);
        const collector = await client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' }, { token });
        expect(collector.status).toBe(201);
        const sent = new Map<string, any[]>();
        await Promise.all(
          Array.from({ length: 12 }, async (_, n) => {
            const answers = [
              {
                id: details.body.pages[0].id,
                questions: [{ id: choice.id, answers: [{ choice_id: choice.answers.choices[n % 2].id }] }],
              },
              {
                id: details.body.pages[1].id,
                questions: [{ id: essay.id, answers: [{ text: `because ${n}` }] }],
              },
            ];
            const res = await client.post(
              `/v3/collectors/${collector.body.id}/responses`,
              { pages: answers },
              { token },
            );
            expect(res.status, res.text).toBe(201);
            sent.set(res.body.id, answers);
          }),
        );

        // Read back one by one, list, and export page by page (links point at the proxy).
        for (const [id, answers] of sent) {
          const one = await client.get(`/v3/surveys/${sid}/responses/${id}/details`, { token });
          expect(one.status).toBe(200);
          expect(one.body.pages).toEqual(answers);
        }
        const list = await client.get(`/v3/surveys/${sid}/responses`, { token });
        expect(list.body.total).toBe(12);
        const exported = new Map<string, any[]>();
        let url: string | undefined = `/v3/surveys/${sid}/responses/bulk?per_page=5`;
        while (url) {
          const res: any = await client.get(url, { token });
          expect(res.status).toBe(200);
          for (const r of res.body.data) exported.set(r.id, r.pages);
          url = res.body.links.next;
          if (url) expect(url.startsWith(`${proxy.url}/`), url).toBe(true);
        }
        expect(exported).toEqual(sent);
        const rollup = await client.get(
          `/v3/surveys/${sid}/pages/${details.body.pages[0].id}/questions/${choice.id}/rollups`,
          { token },
        );
        expect(rollup.status).toBe(200);
        expect(rollup.body.summary[0].choices.map((c: any) => c.count)).toEqual([6, 6]);

        // The worker delivers every response_completed once (it records a delivery after the
        // receiver answered, so wait for the log, not the receiver).
        const deliveries = () =>
          client.get(`/v3/webhooks/${hook.body.id}/deliveries?per_page=100`, { token });
        await waitFor('12 recorded deliveries', async () => {
          const log = (await deliveries()).body;
          return log.total === 12 && log.data.every((d: any) => d.status === 'delivered');
        });
        const log = await deliveries();
        expect(log.body.data.every((d: any) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
        expect(
          receiver
            .posts()
            .map((p) => p.json.object_id)
            .sort(),
        ).toEqual([...sent.keys()].sort());
      } finally {
        await receiver.stop();
      }

      // OAuth: sign in, consent and exchange through the proxy; the new token works on both processes.
      const web = await signIn(proxy, { username: 'ada', password: PASSWORD });
      const redirect = await authorize(web, { clientId: app.client_id, redirectUri: REDIRECT, state: 'x' });
      const issued = await exchange(proxy.url, {
        grant_type: 'authorization_code',
        client_id: app.client_id,
        client_secret: app.client_secret,
        code: redirect.searchParams.get('code')!,
        redirect_uri: REDIRECT,
      });
      expect(issued.status).toBe(200);
      const start = proxy.served.length;
      for (let i = 0; i < 2; i++) {
        const me = await client.get('/v3/users/me', { token: issued.body.access_token });
        expect(me.status).toBe(200);
        expect(me.body.username).toBe('ada');
      }
      expect(servedSince(start)).toEqual([1, 1]);

      const counts = servedSince(from);
      expect(counts[0]).toBeGreaterThan(20);
      expect(counts[1]).toBeGreaterThan(20);
    });

    it('holds one rate limit across both processes', { timeout: 90_000 }, async () => {
      await createUser('lim');
      const app = await runCliJsonAsync(
        ['app', 'create', '--owner', 'lim', '--name', 'Limited', '--minute-limit', '10', '--day-limit', '0'],
        env,
      );
      // Start inside a minute window with 10 s to spare (the 24 requests take about 2), so that all
      // of them fall in the same one.
      const intoMinute = Date.now() % MINUTE;
      if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, MINUTE - intoMinute + 100));
      const from = proxy.served.length;
      const results = await Promise.all(
        Array.from({ length: 24 }, () => client.get('/v3/users/me', { token: app.access_token })),
      );
      expect(servedSince(from)).toEqual([12, 12]);
      // A new app is tolerated up to 150% of its limit: 15 served in all, the other 9 refused.
      expect(results.filter((r) => r.status === 200)).toHaveLength(15);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(9);
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(r.body.error).toMatchObject({ id: '1040', http_status_code: 429 });
      }
    });

    // Each process remembers the callers it has seen (http/auth.ts): a revocation made through
    // one must be seen by the other on its very next request.
    it('refuses a token on every process as soon as one process revoked it', {
      timeout: 60_000,
    }, async () => {
      await createUser('rev');
      const app = await runCliJsonAsync(
        [
          'app',
          'create',
          '--owner',
          'rev',
          '--name',
          'Revoked',
          '--redirect-uri',
          REDIRECT,
          '--day-limit',
          '0',
        ],
        env,
      );
      const base = bases[0];
      const web = await signIn(base, { username: 'rev', password: PASSWORD });
      const redirect = await authorize(web, { clientId: app.client_id, redirectUri: REDIRECT, state: 'r' });
      const issued = await exchange(base, {
        grant_type: 'authorization_code',
        client_id: app.client_id,
        client_secret: app.client_secret,
        code: redirect.searchParams.get('code')!,
        redirect_uri: REDIRECT,
      });
      expect(issued.status).toBe(200);
      const token = issued.body.access_token;
      for (let i = 0; i < 3; i++)
        for (const upstream of upstreams)
          expect((await upstream.get('/v3/users/me', { token })).status).toBe(200);

      const page = await web.get('/account/apps');
      const csrf = csrfToken(page.text.slice(page.text.indexOf(`/account/apps/${app.app_id}/revoke`)));
      expect((await web.post(`/account/apps/${app.app_id}/revoke`, { _csrf: csrf })).status).toBe(303);
      for (const upstream of [upstreams[1], upstreams[0]]) {
        const me = await upstream.get('/v3/users/me', { token });
        expect(me.status).toBe(401);
        expect(me.body).toEqual({ status: 1, errmsg: 'Client revoked access grant' });
      }
    });

    // Last: it stops one of the two serve processes.
    it('takes a serve process out of rotation when its /readyz stops answering, so no request fails', async () => {
      await createUser('ready');
      const app = await runCliJsonAsync(
        ['app', 'create', '--owner', 'ready', '--name', 'Ready', '--day-limit', '0'],
        env,
      );
      expect(proxy.healthy()).toEqual([true, true]);
      await processes[0].stop();
      for (let i = 0; i < 100 && proxy.healthy()[0]; i++) await new Promise((r) => setTimeout(r, 50));
      expect(proxy.healthy()).toEqual([false, true]);
      const from = proxy.served.length;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => client.get('/v3/users/me', { token: app.access_token })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(servedSince(from)).toEqual([0, 10]);
    });
  },
);
