// "Finish later" over HTTP, as browsers without script: a respondent answers page 1, leaves page 2
// half answered with Finish later, and a client with no cookies continues from the link with every
// answer kept, to the end; the link then says the response is done. The link is emailed through
// the outbox to a real SMTP server, at most a few times however many requests arrive at once; an
// unknown link and an expired one get their own pages. The analyze page counts where respondents
// stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, type SeededSurvey, seedSurvey, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let owner: TestAccount;
const clock = new TestClock();

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ clock, env: { SMTP_URL: smtp.url } });
  owner = await server.account();
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const choice = (heading: string) => ({
  family: 'single_choice',
  subtype: 'vertical',
  headings: [{ heading }],
  required: { text: 'Please pick one.' },
  answers: { choices: [{ text: 'Red' }, { text: 'Green' }] },
});
const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });

function twoPages(): Promise<SeededSurvey> {
  return seedSurvey(server, owner, {
    title: 'Later please',
    pages: [
      { title: 'First', questions: { colour: choice('Colour?'), why: text('Why?') } },
      { title: 'Second', questions: { size: choice('Size?'), note: text('Anything else?') } },
    ],
    collector: 'weblink',
  });
}

/** A respondent's browser without script: GET a page, post its form with the page's token. */
async function post(web: WebSession, path: string, form: Record<string, string>) {
  const page = await web.get(path);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  const p = /name="p" value="(\d+)"/.exec(page.text)![1];
  return web.post(path, { csrf: csrfToken(page.text, 'csrf'), p, ...form });
}

const linkOf = (html: string) => /href="[^"]*(\/r\/resume\/[A-Za-z0-9_-]+)"/.exec(html)?.[1];

/** Answers page 1 and leaves page 2 (its required answer missing) with Finish later. */
async function leaveOnPage2(s: SeededSurvey) {
  const path = new URL(s.collector.url).pathname;
  const a = new WebSession(server.url);
  const next = await post(a, path, {
    [`q_${s.questions.colour}`]: s.choices.colour[0],
    [`q_${s.questions.why}`]: 'sunny',
  });
  expect(next.status).toBe(303);
  const later = await post(a, next.location!, { [`q_${s.questions.note}`]: 'half way', nav: 'later' });
  expect(later.status).toBe(200);
  expect(later.text).toContain('Your answers are saved.');
  const link = linkOf(later.text);
  expect(link).toBeDefined();
  return { path, link: link!, page: later.text };
}

describe('finish later', () => {
  it('continues in a client without cookies with every answer kept, to the end; the link then says it is done', async () => {
    const s = await twoPages();
    const { path, link } = await leaveOnPage2(s);
    const tk = { token: owner.token };
    const saved = (await server.client.get(`/v3/surveys/${s.id}/responses/bulk`, tk)).body.data;
    expect(saved).toHaveLength(1);
    expect(saved[0].response_status).toBe('partial');

    const b = new WebSession(server.url);
    const opened = await b.get(link);
    expect(opened.status).toBe(303);
    expect(opened.location).toBe(path);
    const page2 = await b.get(path);
    expect(page2.text).toContain('Anything else?');
    expect(page2.text).toContain('value="half way"');
    // Back shows page 1's answers
    const back = await b.post(path, {
      csrf: csrfToken(page2.text, 'csrf'),
      p: s.pages[1],
      nav: 'prev',
    });
    const page1 = await b.get(back.location!);
    expect(page1.text).toContain('value="sunny"');
    expect(page1.text).toMatch(new RegExp(`value="${s.choices.colour[0]}"[^>]*checked`));
    const done = await post(b, path, {
      [`q_${s.questions.size}`]: s.choices.size[1],
      [`q_${s.questions.note}`]: 'half way, then done',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('thank-you');

    const after = (await server.client.get(`/v3/surveys/${s.id}/responses/bulk`, tk)).body.data;
    expect(after).toHaveLength(1);
    expect(after[0].response_status).toBe('completed');
    const answers = after[0].pages.flatMap((p: any) =>
      p.questions.flatMap((q: any) => q.answers.map((x: any) => x.text ?? x.choice_id)),
    );
    expect(answers.sort()).toEqual(
      [s.choices.colour[0], 'sunny', s.choices.size[1], 'half way, then done'].sort(),
    );

    const again = await new WebSession(server.url).get(link);
    expect(again.status).toBe(200);
    expect(again.text).toContain('These answers are already sent.');
  });

  it('emails the link to the address the respondent types, to a real SMTP server', async () => {
    const s = await twoPages();
    const { link, page } = await leaveOnPage2(s);
    const action = /<form method="post" action="([^"]+)" class="resume-email">/.exec(page)![1];
    // the form keeps the page's language, for its messages
    expect(action).toBe(`${link}/email?lang=en`);
    const web = new WebSession(server.url);
    const bad = await web.post(action, { email: 'nobody' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Enter an email address');
    const sent = await web.post(action, { email: 'resp@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('The link is on its way to resp@example.com.');
    await new OutboxWorker(server.deps).runOnce();
    const mail = smtp.messages.find((m) => m.to.includes('resp@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.raw.replace(/=\r?\n/g, '')).toContain(`http://localhost${link}`);
    expect(mail!.raw).toContain('Later please');
  });

  it('emails one link at most three times, however many requests arrive at once', async () => {
    const s = await twoPages();
    const { link } = await leaveOnPage2(s);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new WebSession(server.url)
          .post(`${link}/email`, { email: `many${i}@example.com` })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((x) => x === 200)).toHaveLength(3);
    expect(statuses.filter((x) => x === 429)).toHaveLength(5);
    const queued = await server.deps.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('purpose', '=', 'resume_link')
      .where('to_address', 'like', 'many%')
      .execute();
    expect(queued).toHaveLength(3);
  });

  it('counts on the analyze page where respondents stopped', async () => {
    const s = await twoPages();
    // two stop on page 1, one on page 2, one finishes
    const path = new URL(s.collector.url).pathname;
    for (let i = 0; i < 2; i++) {
      const r = await post(new WebSession(server.url), path, { nav: 'later' });
      expect(r.status).toBe(200);
    }
    await leaveOnPage2(s);
    const w = new WebSession(server.url);
    const n = await post(w, path, { [`q_${s.questions.colour}`]: s.choices.colour[1] });
    const end = await post(w, n.location!, { [`q_${s.questions.size}`]: s.choices.size[0] });
    expect(end.text).toContain('thank-you');

    const web = await signIn(server, owner);
    const analyze = await web.get(new URL(s.survey.analyze_url).pathname);
    expect(analyze.status).toBe(200);
    const section = /<section class="q-result" id="drop-off">([\s\S]*?)<\/section>/.exec(analyze.text)![1];
    const rows = [
      ...section.matchAll(
        /<tr><th scope="row">([^<]+)<\/th><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td>/g,
      ),
    ].map((m) => [m[1], Number(m[2]), m[3]]);
    expect(rows).toEqual([
      ['Stopped on Page 1: First', 2, '50%'],
      ['Stopped on Page 2: Second', 1, '25%'],
      ['Finished', 1, '25%'],
    ]);
    // the page's filter applies: partial responses only
    const partial = await web.get(`${new URL(s.survey.analyze_url).pathname}?status=partial`);
    expect(partial.text).toContain('<th scope="row">Finished</th><td class="num">0</td>');
  });

  it('says an unknown link is not valid, and an expired one has expired', async () => {
    const unknown = await new WebSession(server.url).get(`/r/resume/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('This link is not valid');
    const s = await twoPages();
    const { link } = await leaveOnPage2(s);
    clock.advance(31 * 86_400_000);
    const expired = await new WebSession(server.url).get(link);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This link has expired.');
    const mail = await new WebSession(server.url).post(`${link}/email`, { email: 'late@example.com' });
    expect(mail.status).toBe(410);
  });
  it('speaks the page’s language: German from ?lang=de, Arabic right to left, the link’s pages too', async () => {
    const s = await twoPages();
    for (const [lang, title] of [
      ['de', 'Später bitte'],
      ['ar', 'لاحقًا من فضلك'],
    ]) {
      const res = await server.client.post(
        `/v3/surveys/${s.id}/languages/${lang}`,
        { translations: [{ context: 'survey_title_html', resource_id: s.id, translation: title }] },
        { token: owner.token },
      );
      expect(res.status, res.text).toBe(200);
    }
    /** Leaves page 2 with Finish later on the page in `lang`: the page that gives the link. */
    async function later(lang: string) {
      const path = `${new URL(s.collector.url).pathname}?lang=${lang}`;
      const web = new WebSession(server.url);
      const next = await post(web, path, {
        [`q_${s.questions.colour}`]: s.choices.colour[0],
        [`q_${s.questions.why}`]: 'sunny',
      });
      expect(next.location).toContain(`lang=${lang}`);
      const res = await post(web, next.location!, { nav: 'later' });
      expect(res.status).toBe(200);
      return { page: res.text, link: linkOf(res.text)! };
    }

    const de = await later('de');
    expect(de.page).toMatch(/<html lang="de">/);
    expect(de.page).toContain('<h1>Später bitte</h1>');
    expect(de.page).toContain('Ihre Antworten sind gespeichert.');
    expect(de.page).toContain('<label for="resume-email">Link per E-Mail senden</label>');
    expect(de.page).toContain('Zurück zur Umfrage');
    expect(de.page).not.toContain('Your answers are saved.');
    // the email form keeps the language: its messages are German too
    const action = /action="([^"]*\/email[^"]*)"/.exec(de.page)![1];
    expect(action).toContain('lang=de');
    const bad = await new WebSession(server.url).post(action, { email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<html lang="de">/);
    expect(bad.text).toContain('Geben Sie eine E-Mail-Adresse ein');
    const sent = await new WebSession(server.url).post(action, { email: 'spaeter@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('Der Link ist unterwegs an spaeter@example.com.');
    // and so is the email it sends (quoted-printable undone)
    await new OutboxWorker(server.deps).runOnce();
    const mail = smtp.messages.find((m) => m.to.includes('spaeter@example.com'));
    const body = Buffer.from(
      mail!.raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
    expect(body).toContain('Um dort weiterzumachen, wo Sie aufgehört haben');
    expect(body).not.toContain('To continue where you left off');

    const ar = await later('ar');
    expect(ar.page).toMatch(/<html lang="ar" dir="rtl">/);
    expect(ar.page).toContain('تم حفظ إجاباتك.');
    // opened from an email, an ended link's page follows the browser's language
    const unknown = await new WebSession(server.url, { 'accept-language': 'ar' }).get(
      `/r/resume/${'y'.repeat(43)}`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.text).toMatch(/<html lang="ar" dir="rtl">/);
    expect(unknown.text).toContain('هذا الرابط غير صالح');
    clock.advance(31 * 86_400_000);
    const expired = await new WebSession(server.url, { 'accept-language': 'ar, en;q=0.5' }).get(ar.link);
    expect(expired.status).toBe(410);
    expect(expired.text).toMatch(/<html lang="ar" dir="rtl">/);
    expect(expired.text).toContain('انتهت صلاحية هذا الرابط.');
    const german = await new WebSession(server.url, { 'accept-language': 'de' }).get(de.link);
    expect(german.text).toMatch(/<html lang="de">/);
    expect(german.text).toContain('Dieser Link ist abgelaufen.');
  });
});
