// "Finish later" in Chromium: page 1 answered and page 2 half answered in one browser, the link
// emailed to a real SMTP server, then opened from the email in a fresh context with no cookies and
// script off, every answer still there, and finished; the analyze page's drop-off. Each page is
// checked at both widths.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { seedSurvey, serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let server: TestServer;
let browser: Browser;
const smtp = new SmtpSink();
await smtp.start();

serverAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { env: { SMTP_URL: smtp.url } },
);

const choice = (heading: string) => ({
  family: 'single_choice',
  subtype: 'vertical',
  headings: [{ heading }],
  required: { text: 'Please pick one.' },
  answers: { choices: [{ text: 'Red' }, { text: 'Green' }] },
});
const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });

describe('finish later', () => {
  it('saves, emails the link, and continues in another browser without cookies or script', async () => {
    const owner = await server.account();
    const s = await seedSurvey(server, owner, {
      title: 'Later please',
      pages: [
        { title: 'First', questions: { colour: choice('Colour?'), why: text('Why?') } },
        { title: 'Second', questions: { size: choice('Size?'), note: text('Anything else?') } },
      ],
      collector: 'weblink',
    });
    const first = await (await browser.newContext()).newPage();
    await first.goto(s.collector.url);
    await first.getByLabel('Red').check();
    await first.getByLabel('Why?').fill('sunny');
    await first.getByRole('button', { name: 'Next' }).click();
    await first.getByLabel('Anything else?').waitFor();
    await first.getByLabel('Anything else?').fill('half way');
    // the required size is left out: Finish later saves what is valid
    await first.getByRole('button', { name: 'Finish later' }).click();
    await first.locator('.finish-later').waitFor();
    expect(await first.locator('.finish-later').textContent()).toContain('Your answers are saved.');
    await checkPage(first, 'finish-later');
    await first.getByLabel('Email me the link').fill('resp@example.com');
    await first.getByRole('button', { name: 'Send the link' }).click();
    await first.locator('.resume-sent').waitFor();
    await checkPage(first, 'finish-later-sent');

    await new OutboxWorker(server.deps).runOnce();
    const mail = smtp.messages.find((m) => m.to.includes('resp@example.com'));
    expect(mail).toBeDefined();
    const url = /http:\/\/localhost(\/r\/resume\/[A-Za-z0-9_-]{43})/.exec(mail!.raw.replace(/=\r?\n/g, ''));
    expect(url).not.toBeNull();

    const other = await browser.newContext({ javaScriptEnabled: false });
    expect(await other.cookies()).toEqual([]);
    const second = await other.newPage();
    await second.goto(`${server.url}${url![1]}`);
    expect(await second.getByLabel('Anything else?').inputValue()).toBe('half way');
    await second.getByRole('button', { name: 'Prev' }).click();
    expect(await second.getByLabel('Why?').inputValue()).toBe('sunny');
    expect(await second.getByLabel('Red').isChecked()).toBe(true);
    await second.getByRole('button', { name: 'Next' }).click();
    await second.getByLabel('Green').check();
    await second.getByRole('button', { name: 'Done' }).click();
    await second.locator('.thank-you').waitFor();

    const got = (await server.client.get(`/v3/surveys/${s.id}/responses/bulk`, { token: owner.token })).body;
    expect(got.data).toHaveLength(1);
    expect(got.data[0].response_status).toBe('completed');
    const texts = got.data[0].pages
      .flatMap((p: any) => p.questions.flatMap((q: any) => q.answers))
      .map((a: any) => a.text)
      .filter(Boolean);
    expect(texts.sort()).toEqual(['half way', 'sunny']);

    // the link, once more: done
    await second.goto(`${server.url}${url![1]}`);
    expect(await second.locator('.resume-ended').textContent()).toContain('These answers are already sent.');
    await first.goto(`${server.url}${url![1]}`);
    await checkPage(first, 'finish-later-done');

    // where respondents stopped: one more leaves on page 1
    const third = await (await browser.newContext()).newPage();
    await third.goto(s.collector.url);
    await third.getByRole('button', { name: 'Finish later' }).click();
    await third.locator('.finish-later').waitFor();
    const analyze = await (await browser.newContext()).newPage();
    await signInPage(analyze, server.url, owner, new URL(s.survey.analyze_url).pathname);
    const section = analyze.locator('#drop-off');
    await section.waitFor();
    expect(await section.locator('tbody tr').allTextContents()).toEqual([
      'Stopped on Page 1: First150%',
      'Stopped on Page 2: Second00%',
      'Finished150%',
    ]);
    await section.scrollIntoViewIfNeeded();
    await checkPage(analyze, 'analyze-drop-off');
    for (const p of [first, second, third, analyze]) await p.context().close();
    await smtp.stop();
  });
});
