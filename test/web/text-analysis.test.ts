// Open-ended text on the analyze page over HTTP: word frequencies of a text
// question's answers (stop words of the survey's language removed, numbers and one-letter words
// dropped), each word a link to the responses using it under the page's filter, and a search box.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let web: WebSession;

interface Made {
  analyze: string;
  responses: string;
  q: Record<string, string>;
}

/** A survey in `language` with a comment box, a choice question with "Other" and a choice to
 * filter by; `answers[i]` is the i-th response's [comment, other text or null, pick first choice]. */
async function survey(language: string, answers: Array<[string, string | null, boolean]>): Promise<Made> {
  const tk = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: `Words ${language}`,
      language,
      pages: [
        {
          questions: [
            { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'What did you think?' }] },
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Where did you hear of us?' }],
              answers: { choices: [{ text: 'Radio' }, { text: 'Friends' }], other: { text: 'Elsewhere' } },
            },
          ],
        },
      ],
    },
    tk,
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const [comment, heard] = details.pages[0].questions;
  const collector = (
    await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
  ).body.id;
  for (const [text, other, radio] of answers) {
    const heardAnswers = other
      ? [{ other_id: heard.answers.other.id, text: other }]
      : [{ choice_id: heard.answers.choices[radio ? 0 : 1].id }];
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        response_status: 'completed',
        pages: [
          {
            id: details.pages[0].id,
            questions: [
              { id: comment.id, answers: [{ text }] },
              { id: heard.id, answers: heardAnswers },
            ],
          },
        ],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
  }
  const analyze = new URL(details.analyze_url).pathname;
  return {
    analyze,
    responses: `${analyze}/responses`,
    q: { comment: comment.id, heard: heard.id, radio: heard.answers.choices[0].id },
  };
}

/** [word, count] of a question's word list, in the page's order. */
function wordList(page: string, qid: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const re = new RegExp(`id="w-${qid}-\\d+" data-word="([^"]*)">[^<]*<span class="count">(\\d+)`, 'g');
  for (const m of page.matchAll(re)) out.push([m[1], Number(m[2])]);
  return out;
}
const href = (page: string, qid: string, word: string) =>
  new RegExp(`<a href="([^"]*)" id="w-${qid}-\\d+" data-word="${word}"`)
    .exec(page)?.[1]
    ?.replaceAll('&amp;', '&');
/** The response numbers a responses page lists. */
const listed = (page: string) => [...page.matchAll(/Response #(\d+)</g)].map((m) => Number(m[1]));

let en: Made;
let fr: Made;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  en = await survey('en', [
    ['The delivery was quick and the price was fair.', null, true],
    ['Delivery was slow; the price was HIGH. I paid 30 dollars!', 'A newspaper', false],
    ["The price wasn't great, but the delivery was quick.", null, true],
    ['Friendly staff. Quick delivery, friendly people', 'newspaper advert', false],
  ]);
  fr = await survey('fr', [
    ['La livraison était rapide et le prix est correct.', null, true],
    ["Le prix de l'entreprise est élevé, mais la livraison est rapide.", null, false],
  ]);
  web = await signIn(server, owner);
});
afterAll(async () => {
  await server?.close();
});

describe('word frequencies', () => {
  it('counts the words of an English comment box, stop words, numbers and one-letter words removed', async () => {
    const page = await web.get(en.analyze);
    expect(page.status).toBe(200);
    const words = wordList(page.text, en.q.comment);
    // delivery ×4, price ×3, quick ×3, friendly ×2 (one response), then once each
    expect(words.slice(0, 4)).toEqual([
      ['delivery', 4],
      ['price', 3],
      ['quick', 3],
      ['friendly', 2],
    ]);
    const all = words.map(([w]) => w);
    for (const gone of ['the', 'was', 'and', 'i', 'but', '30', 'wasn', 't'])
      expect(all, gone).not.toContain(gone);
    expect(all).toEqual(
      expect.arrayContaining(['fair', 'slow', 'high', 'paid', 'dollars', 'great', 'staff', 'people']),
    );
    expect(words).toHaveLength(12);
    // The "Other" text of the choice question has its own list.
    expect(wordList(page.text, en.q.heard)).toEqual([
      ['newspaper', 2],
      ['advert', 1],
    ]);
  });

  it('removes the stop words of the survey language (French), elisions split off', async () => {
    const page = await web.get(fr.analyze);
    const words = wordList(page.text, fr.q.comment);
    expect(words.slice(0, 3)).toEqual([
      ['livraison', 2],
      ['prix', 2],
      ['rapide', 2],
    ]);
    const all = words.map(([w]) => w);
    for (const gone of ['la', 'le', 'et', 'est', 'de', 'mais', 'l']) expect(all, gone).not.toContain(gone);
    expect(all).toEqual(expect.arrayContaining(['entreprise', 'élevé', 'correct']));
  });

  it('counts under the page filter', async () => {
    // Only the responses that chose Radio (1st and 3rd).
    const page = await web.get(`${en.analyze}?a=${en.q.heard}:${en.q.radio}`);
    const words = new Map(wordList(page.text, en.q.comment));
    expect(words.get('delivery')).toBe(2);
    expect(words.get('price')).toBe(2);
    expect(words.has('friendly')).toBe(false);
  });

  it('links each word to the responses using it, keeping the page filter', async () => {
    const page = await web.get(en.analyze);
    const link = href(page.text, en.q.comment, 'friendly');
    expect(link).toBe(`${en.responses}?has_${en.q.comment}=friendly`);
    const found = await web.get(link!);
    expect(found.status).toBe(200);
    expect(listed(found.text)).toEqual([4]);
    // Under a filter, the link carries it: price among the Radio responses → 1st and 3rd.
    const filtered = await web.get(`${en.analyze}?a=${en.q.heard}:${en.q.radio}`);
    const priced = href(filtered.text, en.q.comment, 'price')!;
    expect(priced).toContain(`a=${en.q.heard}%3A${en.q.radio}`);
    expect(listed((await web.get(priced)).text)).toEqual([3, 1]);
  });

  it('searches the answers for any text through a GET form with the page filter', async () => {
    const page = await web.get(`${en.analyze}?a=${en.q.heard}:${en.q.radio}`);
    const form =
      /<form class="filters word-search" method="get" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(
        page.text.slice(page.text.indexOf(`id="words-${en.q.comment}"`)),
      );
    expect(form?.[1]).toBe(en.responses);
    expect(form?.[2]).toContain(`<input type="hidden" name="a" value="${en.q.heard}:${en.q.radio}">`);
    expect(form?.[2]).toContain(`name="has_${en.q.comment}"`);
    // What the form sends: the filter and the text (a substring, any case).
    const sent = await web.get(`${en.responses}?a=${en.q.heard}:${en.q.radio}&has_${en.q.comment}=FAIR`);
    expect(listed(sent.text)).toEqual([1]);
    const unfiltered = await web.get(`${en.responses}?has_${en.q.comment}=slow`);
    expect(listed(unfiltered.text)).toEqual([2]);
  });
});

/** A question's latest answers as the page lists them, in its order. */
function latest(page: string, qid: string): string[] {
  const section = page.slice(page.indexOf(`id="r${qid}"`));
  const list = /<ul class="texts">([\s\S]*?)<\/ul>/.exec(
    section.slice(0, section.indexOf('</section>')),
  )?.[1];
  return [...(list ?? '').matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
}

describe('latest answers (read with the words)', () => {
  it('lists the newest answers first, an "Other" text too, under the page filter', async () => {
    const page = await web.get(en.analyze);
    expect(latest(page.text, en.q.comment)).toEqual([
      'Friendly staff. Quick delivery, friendly people',
      'The price wasn&#39;t great, but the delivery was quick.',
      'Delivery was slow; the price was HIGH. I paid 30 dollars!',
      'The delivery was quick and the price was fair.',
    ]);
    expect(latest(page.text, en.q.heard)).toEqual(['newspaper advert', 'A newspaper']);
    const radio = await web.get(`${en.analyze}?a=${en.q.heard}:${en.q.radio}`);
    expect(latest(radio.text, en.q.comment)).toEqual([
      'The price wasn&#39;t great, but the delivery was quick.',
      'The delivery was quick and the price was fair.',
    ]);
  });

  it("joins a response's boxes on one line, the newest 20 responses", async () => {
    const tk = { token: owner.token };
    const created = await server.client.post(
      '/v3/surveys',
      {
        title: 'Boxes',
        pages: [
          {
            questions: [
              {
                family: 'open_ended',
                subtype: 'multi',
                headings: [{ heading: 'Your two ideas' }],
                answers: { rows: [{ text: 'First' }, { text: 'Second' }] },
              },
            ],
          },
        ],
      },
      tk,
    );
    expect(created.status, created.text).toBe(201);
    const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
    const q = details.pages[0].questions[0];
    const collector = (
      await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
    ).body.id;
    for (let i = 1; i <= 22; i++) {
      // Response 5 fills the second box only.
      const answers = [
        ...(i === 5 ? [] : [{ row_id: q.answers.rows[0].id, text: `idea ${i}a` }]),
        { row_id: q.answers.rows[1].id, text: `idea ${i}b` },
      ];
      const r = await server.client.post(
        `/v3/collectors/${collector}/responses`,
        { pages: [{ id: details.pages[0].id, questions: [{ id: q.id, answers }] }] },
        tk,
      );
      expect(r.status, r.text).toBe(201);
    }
    const page = await web.get(new URL(details.analyze_url).pathname);
    const want = [];
    for (let i = 22; i >= 3; i--) want.push(i === 5 ? 'idea 5b' : `idea ${i}a · idea ${i}b`);
    expect(latest(page.text, q.id)).toEqual(want);
    // The same read gives the words ("idea" in every response).
    expect(wordList(page.text, q.id)[0]).toEqual(['idea', 43]);
  });
});
