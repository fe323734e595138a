// One account's analyze page must not stall the process: over HTTP, on a survey of many long written
// answers, the page's word lists are what the answers hold; its heavy figures are computed once per
// results stamp and reused (the x-results-cache header says which), computed again after a new or
// an edited response; each account has at most HEAVY_REQUESTS_PER_ACCOUNT heavy results requests
// at once (a clear 429 page beyond), and /healthz answers while they run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const RESPONSES = 1000;
let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let analyze: string;
let surveyId: string;
let pageId: string;
let qid: { well: string; badly: string };
const texts: { well: string[]; badly: string[] } = { well: [], badly: [] };

// Long answers from a vocabulary of made-up words (no stop words, no numbers), deterministic.
const VOCAB = Array.from({ length: 600 }, (_, i) => `w${'abcdefghij'[i % 10]}${i.toString(36)}x`);
let seed = 7;
function longText(): string {
  const words: string[] = [];
  for (let i = 0; i < 160; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    words.push(VOCAB[Math.floor((seed / 2147483648) ** 2 * VOCAB.length)]);
  }
  return `${words.join(' ')}.`;
}

/** The page's rule, independently: counts, most first; ties by responses using it, then by word. */
function expectedWords(list: string[]): Array<[string, number]> {
  const counts = new Map<string, { count: number; responses: number }>();
  for (const t of list) {
    const words = t.replace('.', '').split(' ');
    for (const w of words) {
      const c = counts.get(w) ?? { count: 0, responses: 0 };
      c.count++;
      counts.set(w, c);
    }
    for (const w of new Set(words)) counts.get(w)!.responses++;
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y.count - x.count || y.responses - x.responses || (a < b ? -1 : 1))
    .slice(0, 50)
    .map(([w, c]) => [w, c.count]);
}

function wordList(page: string, q: string): Array<[string, number]> {
  const re = new RegExp(`id="w-${q}-\\d+" data-word="([^"]*)">[^<]*<span class="count">(\\d+)`, 'g');
  return [...page.matchAll(re)].map((m) => [m[1], Number(m[2])]);
}
const answered = (page: string, q: string) =>
  Number(new RegExp(`id="r${q}"[\\s\\S]*?Answered: (\\d+)`).exec(page)?.[1]);

const tk = () => ({ token: owner.token });
const pagesOf = (well: string, badly: string) => [
  {
    id: pageId,
    questions: [
      { id: qid.well, answers: [{ text: well }] },
      { id: qid.badly, answers: [{ text: badly }] },
    ],
  },
];

beforeAll(async () => {
  server = await startServer({ env: { HEAVY_REQUESTS_PER_ACCOUNT: '2' } });
  owner = await server.account({ plan: 'advantage' });
  const essay = (heading: string) => ({ family: 'open_ended', subtype: 'essay', headings: [{ heading }] });
  const created = await seedSurvey(server, owner, {
    title: 'Long answers',
    questions: { well: essay('What went well?'), badly: essay('What went badly?') },
  });
  surveyId = created.id;
  const details = created.details;
  pageId = created.pages[0];
  qid = { well: created.questions.well, badly: created.questions.badly };
  analyze = new URL(details.analyze_url).pathname;
  const collector = (
    await server.client.post(`/v3/surveys/${surveyId}/collectors`, { type: 'weblink' }, tk())
  ).body.id;
  for (let i = 0; i < RESPONSES; i++) {
    texts.well.push(longText());
    texts.badly.push(longText());
  }
  let next = 0;
  const post = async () => {
    while (next < RESPONSES) {
      const i = next++;
      const r = await server.client.post(
        `/v3/collectors/${collector}/responses`,
        { response_status: 'completed', pages: pagesOf(texts.well[i], texts.badly[i]) },
        tk(),
      );
      expect(r.status, r.text).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 8 }, post));
  // The cap and the cache are kept per process: the pages go to one instance (under scale-out the
  // API's writes still reach both, so the cache must see another process's changes).
  web = await signIn(server.instances[0], owner);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the analyze page of many long answers', () => {
  it('caps an account at two heavy results requests at once; /healthz answers while they run', async () => {
    // Three different filters (each computed, none shared), sent at once: two run, the third is
    // refused with a page that says why; /healthz, asked once the refusal is in, answers while
    // they run.
    const done: string[] = [];
    const ask = (day: string) =>
      web.get(`${analyze}?start=2000-01-${day}`).then((r) => {
        done.push(r.status === 200 ? 'page' : String(r.status));
        return r;
      });
    const running = [ask('01'), ask('02'), ask('03')];
    const refused = await Promise.race([
      ...running.map((p) => p.then((r) => (r.status === 429 ? r : new Promise<never>(() => {})))),
      Promise.all(running).then(() => null),
    ]);
    const health = await fetch(new URL('/healthz', server.instances[0].url));
    done.push(`healthz ${health.status}`);
    const pages = await Promise.all(running);
    expect(pages.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    // The refusal comes first; /healthz, asked then, answers while a page is still being computed
    // (before the last one is done: on a loaded machine the first may finish within its round trip).
    expect(done[0]).toBe('429');
    expect(done.indexOf('healthz 200')).toBeLessThan(done.lastIndexOf('page'));
    expect(refused?.headers.get('retry-after')).toBe('5');
    expect(refused?.text).toContain('Too many results pages at once');
    expect(refused?.text).toMatch(/<h1>[^<]+<\/h1>/);
    for (const page of pages.filter((r) => r.status === 200)) {
      expect(wordList(page.text, qid.well)).toEqual(expectedWords(texts.well));
      expect(wordList(page.text, qid.badly)).toEqual(expectedWords(texts.badly));
      expect(answered(page.text, qid.well)).toBe(RESPONSES);
    }
    // Once they are done, the account may open a results page again.
    expect((await web.get(`${analyze}?start=2000-01-03`)).status).toBe(200);
  });

  it('reuses the page computed under the same results stamp, and computes it again after a change', async () => {
    const first = await web.get(analyze);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-results-cache')).toBe('miss');
    const again = await web.get(analyze);
    expect(again.headers.get('x-results-cache')).toBe('hit');
    expect(wordList(again.text, qid.well)).toEqual(expectedWords(texts.well));
    expect(wordList(again.text, qid.well)).toEqual(wordList(first.text, qid.well));

    // A new response: the very next page counts it.
    const collector = (await server.client.get(`/v3/surveys/${surveyId}/collectors`, tk())).body.data[0].id;
    const extra = Array.from({ length: 1000 }, () => 'wzzzz').join(' ');
    const posted = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      { response_status: 'completed', pages: pagesOf(extra, texts.badly[0]) },
      tk(),
    );
    expect(posted.status, posted.text).toBe(201);
    const after = await web.get(analyze);
    expect(after.headers.get('x-results-cache')).toBe('miss');
    expect(answered(after.text, qid.well)).toBe(RESPONSES + 1);
    expect(wordList(after.text, qid.well)).toEqual(expectedWords([...texts.well, extra]));
    expect(wordList(after.text, qid.well)).toContainEqual(['wzzzz', 1000]);
    expect((await web.get(analyze)).headers.get('x-results-cache')).toBe('hit');

    // An edited response: the same.
    const edited = await server.client.request('PUT', `/v3/surveys/${surveyId}/responses/${posted.body.id}`, {
      ...tk(),
      body: { response_status: 'completed', pages: pagesOf('wyyyy wyyyy', texts.badly[0]) },
    });
    expect(edited.status, edited.text).toBe(200);
    const afterEdit = await web.get(analyze);
    expect(afterEdit.headers.get('x-results-cache')).toBe('miss');
    expect(wordList(afterEdit.text, qid.well)).toEqual(expectedWords([...texts.well, 'wyyyy wyyyy']));
  });
});
