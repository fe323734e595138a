// A survey with a German and an Arabic translation in a real browser: ?lang=de without script shows
// German buttons and a German message for a required question left empty; a browser asking for
// Arabic gets the page right to left (stars and the 0–10 scale mirrored), checked at both widths;
// the language links switch without script. The builder's translations page: the texts downloaded
// as XLIFF and as CSV, translated, uploaded back and stored (the untranslated ones named), and a
// malformed, an entity-declaring ("billion laughs") and an oversized file refused with a message
// and nothing stored.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import {
  downloaded,
  type SeededSurvey,
  seedSurvey,
  serverAndBrowser,
  signInPage,
} from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let owner: TestAccount;
let seeded: SeededSurvey;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const H = (heading: string) => [{ heading }];

beforeAll(async () => {
  owner = await server.account();
  seeded = await seedSurvey(server, owner, {
    title: 'Garden survey',
    collector: 'weblink',
    questions: {
      visit: {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('How was your visit?'),
        required: { text: 'This question requires an answer.', type: 'all', amount: '0' },
        answers: { choices: [{ text: 'Great' }, { text: 'Poor' }] },
      },
      stars: {
        family: 'matrix',
        subtype: 'rating',
        headings: H('Rate our plants'),
        display_options: { display_type: 'emoji', display_subtype: 'star' },
        answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
      },
      nps: {
        family: 'matrix',
        subtype: 'rating',
        headings: H('How likely are you to recommend us?'),
        display_options: { left_label: 'Not at all likely', right_label: 'Extremely likely' },
        answers: {
          rows: [{ text: '' }],
          choices: Array.from({ length: 11 }, (_, i) => ({ text: String(i), weight: i })),
        },
      },
    },
  });
  const post = (lang: string, words: Record<string, string>) =>
    server.client.post(
      `/v3/surveys/${seeded.id}/languages/${lang}`,
      {
        translations: [
          { context: 'survey_title_html', resource_id: seeded.id, translation: words.title },
          { context: 'question_heading', resource_id: seeded.questions.visit, translation: words.visit },
          { context: 'question_option_text', resource_id: seeded.choices.visit[0], translation: words.great },
          { context: 'question_heading', resource_id: seeded.questions.stars, translation: words.stars },
          { context: 'question_heading', resource_id: seeded.questions.nps, translation: words.nps },
        ],
      },
      { token: owner.token },
    );
  expect(
    (
      await post('de', {
        title: 'Gartenumfrage',
        visit: 'Wie war Ihr Besuch?',
        great: 'Großartig',
        stars: 'Bewerten Sie unsere Pflanzen',
        nps: 'Wie wahrscheinlich empfehlen Sie uns weiter?',
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await post('ar', {
        title: 'استبيان الحديقة',
        visit: 'كيف كانت زيارتك؟',
        great: 'رائعة',
        stars: 'قيّم نباتاتنا',
        nps: 'ما مدى احتمال أن توصي بنا؟',
      })
    ).status,
  ).toBe(200);
}, 60_000);

async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

describe('the respondent page in its languages', () => {
  it('?lang=de without script: German buttons and a German message for a required question', async () => {
    const page = await newPage({ javaScriptEnabled: false, locale: 'en-GB' });
    await page.goto(`${seeded.collector.url}?lang=de`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Gartenumfrage');
    await page.getByRole('button', { name: 'Fertig' }).click();
    const summary = page.locator('.error-summary');
    await summary.waitFor();
    expect((await summary.textContent())?.replace(/\s+/g, ' ')).toContain(
      'Wie war Ihr Besuch?: Diese Frage muss beantwortet werden.',
    );
    expect(await page.locator('form[data-respond] .error').first().textContent()).toContain(
      'Diese Frage muss beantwortet werden.',
    );
    // the switcher: a plain link, the language kept through the post
    await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: 'English' }).click();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByRole('button', { name: 'Done' }).count()).toBe(1);
    await page.getByRole('link', { name: 'العربية' }).click();
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await page.context().close();
  });

  it('a browser asking for Arabic gets it right to left, mirrored, at both widths', async () => {
    const page = await newPage({ locale: 'ar-EG' });
    await page.goto(seeded.collector.url);
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.locator('h1').first().textContent()).toBe('استبيان الحديقة');
    expect(await page.getByRole('button', { name: 'إنهاء' }).count()).toBe(1);
    // mirrored: the first star and the 0 of the scale sit at the right, the question text starts there
    const x = async (selector: string) => (await page.locator(selector).first().boundingBox())!.x;
    const starIds = seeded.choices.stars;
    expect(await x(`label[for="c${seeded.questions.stars}_${starIds[0]}"]`)).toBeGreaterThan(
      await x(`label[for="c${seeded.questions.stars}_${starIds[4]}"]`),
    );
    const npsIds = seeded.choices.nps;
    expect(await x(`label[for="c${seeded.questions.nps}_${npsIds[0]}"]`)).toBeGreaterThan(
      await x(`label[for="c${seeded.questions.nps}_${npsIds[10]}"]`),
    );
    await checkPage(page, 'respond-arabic');
    await page.context().close();
  });
});

describe('the builder’s translations page', () => {
  let page: Page;
  const url = () =>
    `${server.url}/create/translate?sm=${new URL(seeded.survey.edit_url).searchParams.get('sm')}`;
  const german = async () =>
    (await server.client.get(`/v3/surveys/${seeded.id}/languages/de`, { token: owner.token })).body;

  async function download(format: 'XLIFF 2.0 (translation tools)' | 'CSV (spreadsheets)'): Promise<string> {
    await page.goto(url());
    await page.getByLabel('Target language').first().selectOption('de');
    await page.getByLabel(format).check();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    return (await downloaded(file)).toString('utf8');
  }

  async function upload(name: string, body: string | Buffer): Promise<void> {
    await page.goto(url());
    await page.getByLabel('Target language').nth(1).selectOption('de');
    await page
      .getByLabel(/XLIFF 2.0 or CSV file/)
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(body) });
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Upload and save' }).click(),
    ]);
  }

  it('round-trips XLIFF and CSV, naming the texts left untranslated', async () => {
    page = await newPage({ javaScriptEnabled: false });
    await signInPage(page, server.url, owner, url());
    const xliff = await download('XLIFF 2.0 (translation tools)');
    expect(xliff).toContain('urn:oasis:names:tc:xliff:document:2.0');
    expect(xliff).toContain('trgLang="de"');
    expect(xliff).toContain(`<unit id="question_heading.${seeded.questions.visit}" name="question_heading">`);
    expect(xliff).toContain('<target>Wie war Ihr Besuch?</target>');
    // the translator changes one text and translates another
    const edited = xliff
      .replace('<target>Wie war Ihr Besuch?</target>', '<target>Wie fanden Sie Ihren Besuch?</target>')
      .replace(
        new RegExp(
          `(<unit id="question_option_text\\.${seeded.choices.visit[1]}"[^>]*>\\s*<segment>\\s*<source>Poor</source>)`,
        ),
        '$1<target>Schlecht</target>',
      );
    await upload('garden-de.xlf', edited);
    const result = page.locator('#import-result');
    await result.waitFor();
    const shown = ((await result.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(shown).toContain('German:');
    expect(shown).toContain('Not translated yet');
    expect(shown).toContain('Next button: Next'); // named, in the survey's own words
    expect(shown).not.toContain('Answer choice: Poor');
    let stored = await german();
    const text = (context: string, id: string) =>
      stored.translations.find((t: any) => t.context === context && t.resource_id === id)?.translation;
    expect(text('question_heading', seeded.questions.visit)).toBe('Wie fanden Sie Ihren Besuch?');
    expect(text('question_option_text', seeded.choices.visit[1])).toBe('Schlecht');
    await checkPage(await jsCopy(page), 'builder-translations');

    const csv = await download('CSV (spreadsheets)');
    expect(csv.split('\r\n')[0]).toBe('\ufeffcontext,resource_id,source,translation');
    expect(csv).toContain(`survey_next,${seeded.id},Next,`);
    await upload(
      'garden-de.csv',
      csv.replace(`survey_next,${seeded.id},Next,`, `survey_next,${seeded.id},Next,Weiter geht's`),
    );
    await page.locator('#import-result').waitFor();
    expect(await page.locator('#import-result').textContent()).not.toContain('Next button: Next');
    stored = await german();
    expect(text('survey_next', seeded.id)).toBe("Weiter geht's");
  });

  it('refuses a malformed, an entity-declaring and an oversized file, storing nothing', async () => {
    const before = JSON.stringify((await german()).translations);
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de"><file id="f"><unit id="survey_title_html.${seeded.id}"><segment><source>Garden survey</source><target>&lol2;</target></segment></unit></file></xliff>`;
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['broken.xlf', '<xliff version="2.0"><file><unit id="x', /not well-formed XML/],
      ['bomb.xlf', bomb, /document type or entities/],
      ['huge.csv', Buffer.alloc(2 * 1024 * 1024 + 100, 'a'), /larger than 2 MB/],
      ['other.xlf', '<?xml version="1.0"?><html><body>hi</body></html>', /not an XLIFF 2.0 document/],
    ];
    for (const [name, body, message] of cases) {
      await upload(name, body);
      expect(await page.locator('[role="alert"]').first().textContent()).toMatch(message);
      expect(JSON.stringify((await german()).translations)).toBe(before);
    }
  });
});

/** The same page in a context with script, for the page checks (axe runs as script). */
async function jsCopy(page: Page): Promise<Page> {
  const context = await browser.newContext();
  await context.addCookies(await page.context().cookies());
  const copy = await context.newPage();
  await copy.goto(page.url());
  return copy;
}
