// Importing copies history without replaying it: responses copied in (the first run and a later
// resync) reach no webhook receiver and queue no response alert, while a response taken here
// afterwards still fires both. A real HTTP receiver and a real SMTP server on the other side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { seedSurvey, signIn, smOf } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let source: TestServer;
let dest: TestServer;
let worker: OutboxWorker;
let receiver: Receiver;
let smtp: SmtpSink;

// The source's timestamps have whole seconds: the response finished there is moved a few seconds on
// by hand, as a change made later would be (within its second, the next pass could not tell it).
const sourceClock = new TestClock();

beforeAll(async () => {
  source = await startServer({ clock: sourceClock });
  receiver = await new Receiver().start();
  smtp = await new SmtpSink().start();
  dest = await startServer({
    env: {
      IMPORT_PAGE_SOURCES: source.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Surveys <surveys@example.com>',
    },
  });
  worker = new OutboxWorker(dest.deps);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await dest?.close();
  await source?.close();
  await receiver?.stop();
  await smtp?.stop();
});

describe('an import does not replay history', () => {
  it('sends no webhook and no alert for imported responses, and both for a live one', async () => {
    const src = await source.account();
    const seeded = await seedSurvey(source, src, { kind: 'simple', collector: 'weblink' });
    const partials: string[] = [];
    const respondAtSource = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await source.client.post(
          `/v3/collectors/${seeded.collector.id}/responses`,
          {
            response_status: i % 2 ? 'partial' : 'completed',
            pages: [
              {
                id: seeded.pages[0],
                questions: [
                  { id: seeded.questions.choice, answers: [{ choice_id: seeded.choices.choice[0] }] },
                ],
              },
            ],
          },
          { token: src.token },
        );
        expect(r.status, r.text).toBe(201);
        if (i % 2) partials.push(r.body.id);
      }
    };
    await respondAtSource(4);

    const owner = await dest.account({ plan: 'premier' });
    const t = { token: owner.token };
    // Every survey of the account, so the copy's responses are watched from the first run on.
    for (const event_type of ['response_completed', 'response_created', 'response_updated']) {
      const hook = await dest.client.post(
        '/v3/webhooks',
        {
          name: event_type,
          event_type,
          object_type: 'survey',
          object_ids: [],
          subscription_url: `${receiver.url}/${event_type}`,
        },
        t,
      );
      expect(hook.status, hook.text).toBe(201);
    }
    const importOnce = async () => {
      const started = await dest.client.post('/v3/imports', { from: source.url, token: src.token }, t);
      expect(started.status, started.text).toBe(202);
      let job = started.body;
      for (let i = 0; i < 600 && job.state !== 'done' && job.state !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        job = (await dest.client.get(`/v3/imports/${started.body.id}`, t)).body;
      }
      expect([job.state, job.last_error]).toEqual(['done', null]);
      return job;
    };
    const alertsQueued = async () =>
      (await dest.deps.db.kysely.selectFrom('emails').select('id').where('purpose', '=', 'alert').execute())
        .length;

    const first = await importOnce();
    expect(first.progress.copied.responses).toBe(4);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.json?.event_type?.startsWith('response_'))).toEqual([]);

    // The copy asks for an alert on each response; a resync then brings two more and one finished
    // since (a partial response completed at the source: updated here).
    const surveys = (await dest.client.get('/v3/surveys', t)).body.data;
    expect(surveys).toHaveLength(1);
    const copy = (await dest.client.get(`/v3/surveys/${surveys[0].id}`, t)).body;
    const web = await signIn(dest, owner);
    const alerts = `/collect/alerts?sm=${smOf(copy.collect_url)}`;
    const set = await web.post(alerts, { _csrf: await web.csrf(alerts), mode: 'each' });
    expect(set.status).toBe(303);
    await respondAtSource(2);
    sourceClock.advance(5_000);
    const finished = await source.client.patch(
      `/v3/surveys/${seeded.id}/responses/${partials[0]}`,
      { response_status: 'completed' },
      { token: src.token },
    );
    expect(finished.status, finished.text).toBe(200);
    await importOnce();
    const copied = await dest.client.get(`/v3/surveys/${copy.id}/responses`, t);
    expect(copied.body.total).toBe(6);
    const second = await dest.client.get(`/v3/imports/${first.id}`, t);
    expect(second.body.progress.copied.responses_updated).toBeGreaterThanOrEqual(1);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.json?.event_type?.startsWith('response_'))).toEqual([]);
    expect(await alertsQueued()).toBe(0);
    expect(smtp.messages.filter((m) => m.raw.includes('New response'))).toEqual([]);

    // A response taken here after the import is news: both fire, once.
    const collectors = (await dest.client.get(`/v3/surveys/${copy.id}/collectors`, t)).body.data;
    const live = await dest.client.post(
      `/v3/collectors/${collectors[0].id}/responses`,
      { response_status: 'completed', pages: [] },
      t,
    );
    expect(live.status, live.text).toBe(201);
    await worker.drain();
    const completed = receiver.posts().filter((p) => p.json?.event_type === 'response_completed');
    expect(completed.map((p) => p.json.object_id)).toEqual([live.body.id]);
    expect(await alertsQueued()).toBe(1);
    expect(smtp.messages.filter((m) => /^Subject: New response/m.test(m.raw))).toHaveLength(1);
  }, 120_000);
});
