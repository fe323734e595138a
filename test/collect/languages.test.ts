// The respondent page in the survey's languages without script: `?lang=` chooses among the survey's
// own language and its enabled translations, else the browser's Accept-Language picks the best
// match; the service's own words (buttons left at their defaults, progress, the checks' messages)
// follow the page's language, an owner's own message stays as written, and right-to-left
// languages get dir="rtl".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import {
  csrfToken,
  type SeededSurvey,
  seedSurvey,
  startServer,
  type TestServer,
  WebSession,
} from '../helpers/fixtures.js';

let server: TestServer;
let owner: TestAccount;
let seeded: SeededSurvey;
let path: string;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  seeded = await seedSurvey(server, owner, {
    title: 'Lunch',
    collector: 'weblink',
    pages: [
      {
        questions: {
          soup: {
            family: 'single_choice',
            subtype: 'vertical',
            headings: [{ heading: 'Soup?' }],
            required: { text: 'This question requires an answer.', type: 'all', amount: '0' },
            answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
          },
          note: {
            family: 'open_ended',
            subtype: 'single',
            headings: [{ heading: 'Anything else?' }],
            validation: { type: 'email', text: 'Our own words about email.' },
          },
        },
      },
      {
        questions: { bread: { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Bread?' }] } },
      },
    ],
  });
  path = new URL(seeded.collector.url).pathname;
  const translate = (lang: string, words: { title: string; soup: string; yes: string }) =>
    server.client.post(
      `/v3/surveys/${seeded.id}/languages/${lang}`,
      {
        translations: [
          { context: 'survey_title_html', resource_id: seeded.id, translation: words.title },
          { context: 'question_heading', resource_id: seeded.questions.soup, translation: words.soup },
          { context: 'question_option_text', resource_id: seeded.choices.soup[0], translation: words.yes },
        ],
      },
      { token: owner.token },
    );
  expect((await translate('de', { title: 'Mittagessen', soup: 'Suppe?', yes: 'Ja' })).status).toBe(200);
  expect((await translate('ar', { title: 'الغداء', soup: 'حساء؟', yes: 'نعم' })).status).toBe(200);
}, 60_000);
afterAll(() => server.close());

const text = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

describe('the respondent page in the survey’s languages', () => {
  it('?lang=de shows German content and German service words, and German check messages', async () => {
    const web = new WebSession(server.url, { 'accept-language': 'en-GB,en;q=0.9' });
    const page = await web.get(`${path}?lang=de`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html lang="de">/);
    const shown = text(page.text);
    expect(shown).toContain('Suppe?');
    expect(shown).toContain('Ja');
    expect(page.text).toContain('>Weiter</button>');
    expect(shown).toContain('Seite 1 von höchstens 2');
    expect(shown).toContain('Suppe? * (erforderlich)');
    // the switcher: plain links to the same page in each language, the current one marked
    expect(page.text).toMatch(/<a href="[^"]*lang=ar[^"]*" lang="ar" hreflang="ar">العربية<\/a>/);
    expect(page.text).toMatch(/lang=de[^"]*" lang="de" aria-current="true">Deutsch</);
    expect(page.text).toMatch(/lang=en[^"]*" lang="en" hreflang="en">English</);

    const sent = await web.post(`${path}?lang=de`, {
      csrf: csrfToken(page.text, 'csrf'),
      p: seeded.pages[0],
      nav: 'next',
      [`q_${seeded.questions.note}`]: 'not an address',
    });
    expect(sent.status).toBe(422);
    const problems = text(sent.text);
    expect(problems).toContain('2 Antworten müssen korrigiert werden.');
    expect(problems).toContain('Suppe?: Diese Frage muss beantwortet werden.');
    // the owner's own message is theirs, in their words
    expect(problems).toContain('Anything else?: Our own words about email.');
    expect(problems).not.toContain('This question requires an answer.');
    // the language rides along: the form posts back to ?lang=de and the next page stays German
    const answered = await web.post(`${path}?lang=de`, {
      csrf: csrfToken(page.text, 'csrf'),
      p: seeded.pages[0],
      nav: 'next',
      [`q_${seeded.questions.soup}`]: seeded.choices.soup[0],
    });
    expect(answered.status).toBe(303);
    expect(answered.location).toContain('lang=de');
    const next = await web.get(answered.location!);
    expect(next.text).toContain('>Fertig</button>');
    expect(next.text).toContain('>Zurück</button>');
    // the thank-you page: the collector's message still at its default is the service's word
    const done = await web.post(answered.location!, {
      csrf: csrfToken(next.text, 'csrf'),
      p: seeded.pages[1],
      nav: 'done',
    });
    expect(done.status).toBe(200);
    expect(text(done.text)).toContain('Vielen Dank, dass Sie an unserer Umfrage teilgenommen haben!');
    expect(done.text).toMatch(/<title>Mittagessen: Vielen Dank · Survey Service<\/title>/);
  });

  it('follows Accept-Language to the best match, right to left for Arabic', async () => {
    const web = new WebSession(server.url, { 'accept-language': 'fi, ar-EG;q=0.8, de;q=0.5' });
    const page = await web.get(path);
    expect(page.text).toMatch(/<html lang="ar" dir="rtl">/);
    expect(text(page.text)).toContain('حساء؟');
    expect(page.text).toContain('>التالي</button>');
    expect(text(page.text)).toContain('الصفحة 1 من 2 على الأكثر');
    // ?lang= wins over the browser; a language the survey does not offer is ignored
    expect((await web.get(`${path}?lang=de`)).text).toMatch(/<html lang="de">/);
    expect((await web.get(`${path}?lang=ja`)).text).toMatch(/<html lang="ar" dir="rtl">/);
    // a browser asking for none of them gets the survey's own language
    const english = await new WebSession(server.url, { 'accept-language': 'fi' }).get(path);
    expect(english.text).toMatch(/<html lang="en">/);
    expect(english.text).toContain('>Next</button>');
  });

  it('the closed page speaks the page’s language', async () => {
    const closed = await server.client.patch(
      `/v3/collectors/${seeded.collector.id}`,
      { status: 'closed' },
      { token: owner.token },
    );
    expect(closed.status).toBe(200);
    const page = await new WebSession(server.url, { 'accept-language': 'ar' }).get(path);
    expect(text(page.text)).toContain('هذا الاستبيان مغلق.');
    expect(text(page.text)).toContain('هذا الاستبيان مغلق حاليًا.');
    await server.client.patch(
      `/v3/collectors/${seeded.collector.id}`,
      { status: 'open' },
      { token: owner.token },
    );
  });

  it('a disabled translation is not offered', async () => {
    const res = await server.client.patch(
      `/v3/surveys/${seeded.id}/languages/ar`,
      {
        enabled: false,
        translations: [{ context: 'survey_title_html', resource_id: seeded.id, translation: 'الغداء' }],
      },
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    const page = await new WebSession(server.url, { 'accept-language': 'ar' }).get(`${path}?lang=ar`);
    expect(page.text).toMatch(/<html lang="en">/);
    expect(page.text).not.toContain('العربية');
    await server.client.patch(
      `/v3/surveys/${seeded.id}/languages/ar`,
      {
        enabled: true,
        translations: [{ context: 'survey_title_html', resource_id: seeded.id, translation: 'الغداء' }],
      },
      { token: owner.token },
    );
  });
});
