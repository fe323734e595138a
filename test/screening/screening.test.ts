// Keeping bots and duplicates aside: plain-form bots (a filled honeypot, 0.2 s a page, 50
// responses from one address at once) against respondents who take their time, on the respondent
// page over HTTP; what /v3 lists, bulk, rollups and counts show of the flagged ones (nothing,
// unless include_flagged=true); the owner's review page releasing one (it counts then, and its
// webhook is sent then) and deleting one; the duplicate rules; the collector option's checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { openEnded, type SeededSurvey, seedSurvey, signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';

const clock = new TestClock('2026-03-02T09:00:00Z');
let server: TestServer;
let owner: TestAccount;
let worker: OutboxWorker;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({
    clock,
    env: {
      RESPONDENT_MIN_PAGE_MS: '1500',
      // the bots below post 100 pages a minute from one address: the per-minute cap is not what
      // this file measures
      RESPONSES_PER_MINUTE_PER_ADDRESS: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  owner = await server.account();
  worker = new OutboxWorker(server.deps);
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await worker.stop();
  await receiver.stop();
  await server.close();
});

const api = async (path: string) => {
  const res = await server.client.get(path, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** A browser without JavaScript: keeps its cookies, posts each page's form as the page gives it. */
class Visitor {
  readonly cookies = new Map<string, string>();
  page = '';
  constructor(readonly path: string) {}

  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  private get cookie() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  field(name: string): string {
    return new RegExp(`name="${name}" value="([^"]*)"`).exec(this.page)?.[1] ?? '';
  }
  async open(location = this.path): Promise<void> {
    const res = await fetch(new URL(location, server.url), { headers: { cookie: this.cookie } });
    this.keep(res);
    this.page = await res.text();
  }
  /** Posts the page shown with this answer; answers where it was sent. */
  async answer(text: string, extra: Record<string, string> = {}): Promise<string> {
    const p = this.field('p');
    const res = await fetch(`${server.url}${this.path}`, {
      method: 'POST',
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: this.field('csrf'),
        p,
        started: this.field('started'),
        shown: this.field('shown'),
        leave_this_blank: '',
        nav: 'next',
        [`q_${this.questionOn()}`]: text,
        ...extra,
      }).toString(),
      redirect: 'manual',
    });
    this.keep(res);
    const location = res.headers.get('location');
    if (res.status === 303 && location) {
      await this.open(location);
      return location;
    }
    this.page = await res.text();
    return `${res.status}`;
  }
  questionOn(): string {
    return /name="q_([0-9]+)"/.exec(this.page)?.[1] ?? '';
  }
  finished(): boolean {
    return /Thank you/i.test(this.page);
  }
}

async function twoPageSurvey(screening: Record<string, unknown> = {}, more: Record<string, unknown> = {}) {
  return seedSurvey(server, owner, {
    pages: [{ questions: { a: openEnded('Your name?') } }, { questions: { b: openEnded('Your town?') } }],
    collector: { type: 'weblink', screening, ...more },
  });
}

/** Every visitor answers both pages, the clock moving `pageMs` while each page is shown: the
 * visitors step together, each step's requests sent at once. */
async function answerAll(visitors: Visitor[], pageMs: number, extra: Record<string, string> = {}) {
  await Promise.all(visitors.map((v) => v.open()));
  for (const text of ['Ada', 'Paris']) {
    clock.advance(pageMs);
    await Promise.all(visitors.map((v) => v.answer(text, extra)));
  }
}

const counted = async (s: SeededSurvey) => (await api(`/v3/surveys/${s.id}/responses`)).total as number;
const flaggedOf = async (s: SeededSurvey) => {
  const all = await api(`/v3/surveys/${s.id}/responses?include_flagged=true&per_page=1000`);
  return all.data.filter((r: { flagged: boolean }) => r.flagged).length as number;
};

describe('bots are kept aside, people are not', () => {
  it('never flags people answering one question at a time', async () => {
    const s = await twoPageSurvey();
    const patched = await server.client.patch(
      `/v3/surveys/${s.id}`,
      { question_layout: 'one_at_a_time' },
      { token: owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const visitors = Array.from({ length: 5 }, () => new Visitor(new URL(s.collector.url).pathname));
    await Promise.all(visitors.map((v) => v.open()));
    for (const text of ['Ada', 'Paris']) {
      clock.advance(3000);
      await Promise.all(visitors.map((v) => v.answer(text, { screen: v.field('screen') })));
    }
    expect(visitors.filter((v) => v.finished())).toHaveLength(5);
    expect({ flagged: await flaggedOf(s), counted: await counted(s) }).toEqual({ flagged: 0, counted: 5 });
  });

  it('flags filled honeypots, 0.2 s pages and 50 at once from one address over a limit of 10; never people', async () => {
    const figures: Record<string, { sent: number; flagged: number; counted: number }> = {};
    const run = async (name: string, s: SeededSurvey, n: number, pageMs: number, extra = {}) => {
      const path = new URL(s.collector.url).pathname;
      const visitors = Array.from({ length: n }, () => new Visitor(path));
      await answerAll(visitors, pageMs, extra);
      // every visitor, flagged or not, saw the thank-you page
      expect(visitors.filter((v) => v.finished())).toHaveLength(n);
      figures[name] = { sent: n, flagged: await flaggedOf(s), counted: await counted(s) };
    };
    await run('honeypot filled, 3 s a page', await twoPageSurvey(), 20, 3000, {
      leave_this_blank: 'https://spam.example',
    });
    await run('0.2 s a page', await twoPageSurvey(), 20, 200);
    await run(
      '50 at once from one address, limit 10, 3 s a page',
      await twoPageSurvey({ max_per_address: 10 }),
      50,
      3000,
    );
    await run('people, 3 s a page', await twoPageSurvey(), 20, 3000);
    await run('people, 1.5 s a page', await twoPageSurvey(), 20, 1500);
    console.log('screening figures', JSON.stringify(figures, null, 1));
    expect(figures['honeypot filled, 3 s a page']).toEqual({ sent: 20, flagged: 20, counted: 0 });
    expect(figures['0.2 s a page']).toEqual({ sent: 20, flagged: 20, counted: 0 });
    expect(figures['50 at once from one address, limit 10, 3 s a page']).toEqual({
      sent: 50,
      flagged: 40,
      counted: 10,
    });
    expect(figures['people, 3 s a page']).toEqual({ sent: 20, flagged: 0, counted: 20 });
    expect(figures['people, 1.5 s a page']).toEqual({ sent: 20, flagged: 0, counted: 20 });
  });

  it('flags a form posted without the page’s signed time, or with a forged one', async () => {
    const s = await twoPageSurvey();
    const path = new URL(s.collector.url).pathname;
    const a = new Visitor(path);
    const b = new Visitor(path);
    await a.open();
    await b.open();
    clock.advance(5000);
    await a.answer('Ada', { shown: '' });
    await b.answer('Ada', { shown: `${(Date.now() - 60_000).toString(36)}.${'x'.repeat(43)}` });
    expect(await flaggedOf(s)).toBe(2);
  });
});

describe('flagged responses stay out of what counts', () => {
  it('moves a response aside when a later page is too fast, taking its counts with it', async () => {
    const s = await twoPageSurvey();
    const v = new Visitor(new URL(s.collector.url).pathname);
    await v.open();
    clock.advance(4000);
    await v.answer('Ada');
    expect(await counted(s)).toBe(1);
    clock.advance(200);
    await v.answer('Paris');
    expect(v.finished()).toBe(true);
    expect(await counted(s)).toBe(0);
    expect((await api(`/v3/collectors/${s.collector.id}`)).response_count).toBe(0);
    const [kept] = (await api(`/v3/surveys/${s.id}/responses/bulk?include_flagged=true`)).data;
    expect(kept).toMatchObject({ flagged: true, response_status: 'completed' });
    expect(kept.pages.map((p: { id: string }) => p.id)).toEqual(s.pages);
  });

  it('are absent from lists, bulk, rollups and counts; listed with include_flagged=true; released and deleted on the review page', async () => {
    const s = await twoPageSurvey();
    await server.client.post(
      '/v3/webhooks',
      {
        name: 'Completed',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [s.id],
        subscription_url: `${receiver.url}/done`,
      },
      { token: owner.token },
    );
    const path = new URL(s.collector.url).pathname;
    const person = new Visitor(path);
    await answerAll([person], 4000);
    const bots = [new Visitor(path), new Visitor(path)];
    await answerAll(bots, 100);
    expect(bots.every((b) => b.finished())).toBe(true);

    const list = await api(`/v3/surveys/${s.id}/responses`);
    expect(list.total).toBe(1);
    expect((await api(`/v3/collectors/${s.collector.id}/responses/bulk`)).total).toBe(1);
    const answered = async () =>
      (await api(`/v3/surveys/${s.id}/rollups`)).data.map((q: any) => q.summary[0].answered);
    expect(await answered()).toEqual([1, 1]);
    expect((await api(`/v3/collectors/${s.collector.id}`)).response_count).toBe(1);
    expect((await api(`/v3/surveys/${s.id}`)).response_count).toBe(1);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.path === '/hook/done')).toHaveLength(1);
    // the export holds the one counted response
    const job = await server.client.post(
      `/v3/surveys/${s.id}/exports`,
      { format: 'csv' },
      { token: owner.token },
    );
    expect([201, 202], job.text).toContain(job.status);
    await worker.drain();
    await worker.exportsSettled();
    const done = await api(new URL(job.body.href).pathname);
    expect(done).toMatchObject({ status: 'completed', progress: { done: 1, total: 1 } });
    const file = await fetch(done.download_url.replace(/^http:\/\/localhost/, server.url), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const lines = (await file.text()).trim().split('\n');
    expect(lines.filter((l) => l.includes('Paris'))).toHaveLength(1);

    const withFlagged = await api(`/v3/surveys/${s.id}/responses/bulk?include_flagged=true`);
    expect(withFlagged.total).toBe(3);
    expect(withFlagged.data.map((r: { flagged: boolean }) => r.flagged)).toEqual([false, true, true]);
    expect(withFlagged.data[1].pages.map((p: { id: string }) => p.id)).toEqual(s.pages);
    const ids = await api(
      `/v3/collectors/${s.collector.id}/responses?include_flagged=true&per_page=2&page=2`,
    );
    expect(ids.total).toBe(3);
    expect(ids.data).toHaveLength(1);
    expect(ids.data[0].flagged).toBe(true);

    const web = await signIn(server, owner);
    const review = `/analyze/${s.survey.analyze_url.split('/').pop()}/flagged`;
    const page = await web.get(review);
    expect(page.status).toBe(200);
    expect(page.text).toContain('2 flagged responses');
    expect(page.text).toContain('Pages answered too fast');
    const flagged = withFlagged.data
      .filter((r: { flagged: boolean }) => r.flagged)
      .map((r: { id: string }) => r.id);
    const released = await web.postForm(`${review}/${flagged[0]}/release`, {}, review);
    expect(released.status).toBe(303);
    expect((await api(`/v3/surveys/${s.id}/responses`)).total).toBe(2);
    expect((await api(`/v3/collectors/${s.collector.id}`)).response_count).toBe(2);
    expect(await answered()).toEqual([2, 2]);
    await worker.drain();
    expect(receiver.posts().filter((p) => p.path === '/hook/done')).toHaveLength(2);

    // without confirm=yes the delete asks first; with it the response is gone
    const ask = await web.postForm(`${review}/${flagged[1]}/delete`, {}, review);
    expect(ask.status).toBe(200);
    expect(await flaggedOf(s)).toBe(1);
    const gone = await web.postForm(`${review}/${flagged[1]}/delete`, { confirm: 'yes' }, review);
    expect(gone.status).toBe(303);
    expect(await flaggedOf(s)).toBe(0);
    expect((await api(`/v3/surveys/${s.id}/responses`)).total).toBe(2);
  });
});

describe('duplicate rules', () => {
  it('one response per browser or per address in a window; none by default', async () => {
    for (const [duplicates, second] of [
      ['browser', 1],
      ['address', 1],
      ['none', 0],
    ] as const) {
      const s = await twoPageSurvey({ duplicates, window_hours: 24 }, { allow_multiple_responses: true });
      const path = new URL(s.collector.url).pathname;
      const browser = new Visitor(path);
      await answerAll([browser], 3000);
      // the same browser again (the finished response's session was forgotten)
      await answerAll([browser], 3000);
      expect(await flaggedOf(s), duplicates).toBe(second);
      // another browser: on the same address only the address rule sees it
      await answerAll([new Visitor(path)], 3000);
      expect(await flaggedOf(s), duplicates).toBe(duplicates === 'address' ? 2 : second);
      if (duplicates === 'browser') {
        // after the window, the browser counts again
        clock.advance(25 * 3_600_000);
        await answerAll([browser], 3000);
        expect(await counted(s)).toBe(3);
      }
    }
  });

  it('checks the collector option and shows it on the collector', async () => {
    const s = await twoPageSurvey();
    const url = `/v3/collectors/${s.collector.id}`;
    expect((await api(url)).screening).toEqual({
      min_page_seconds: null,
      max_per_address: null,
      duplicates: 'none',
      window_hours: 24,
    });
    const bad = await server.client.patch(
      url,
      { screening: { duplicates: 'cookie' } },
      { token: owner.token },
    );
    expect(bad.status).toBe(400);
    const ok = await server.client.patch(
      url,
      { screening: { min_page_seconds: 3, max_per_address: 5 } },
      { token: owner.token },
    );
    expect(ok.status, ok.text).toBe(200);
    expect((await api(url)).screening).toEqual({
      min_page_seconds: 3,
      max_per_address: 5,
      duplicates: 'none',
      window_hours: 24,
    });
    // 2 s a page is now too fast on this collector
    const v = new Visitor(new URL(s.collector.url).pathname);
    await answerAll([v], 2000);
    expect(await flaggedOf(s)).toBe(1);
  });
});
