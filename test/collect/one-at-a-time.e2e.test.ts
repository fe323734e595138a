// A survey shown one question at a time, in Chromium: three pages answered screen by screen without
// script (plain forms; Enter in a text box submits natively) and with it (a choice's key, Enter on a
// choice, the question focused), the progress on each screen, leaving and coming back with the
// answers kept, and the screen's page checks at both widths.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openEnded, seedSurvey, serverAndBrowser, singleChoice } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function survey() {
  const owner = await server.account();
  const s = await seedSurvey(server, owner, {
    title: 'One at a time',
    body: { question_layout: 'one_at_a_time' },
    collector: 'weblink',
    pages: [
      {
        title: 'About you',
        description: 'A few words first.',
        questions: {
          colour: {
            ...singleChoice('Favourite colour?', ['Red', 'Green', 'Blue']),
            required: { text: 'Pick a colour.' },
          },
          name: openEnded('Your name?'),
        },
      },
      { title: 'Your day', questions: { mood: singleChoice('How are you?', ['Good', 'Fine', 'Tired']) } },
      { title: 'Last', questions: { note: openEnded('Anything else?') } },
    ],
  });
  const answers = async () => {
    const res = await server.client.get(`/v3/surveys/${s.id}/responses/bulk`, { token: owner.token });
    return res.body.data as any[];
  };
  return { s, answers };
}

const heading = (page: Page) => page.locator('.screen legend, .screen .qtitle').first().textContent();

describe('one question at a time', () => {
  it('is answered with plain forms: Enter submits a text screen, Back and progress work, answers resume', async () => {
    const { s, answers } = await survey();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(s.collector.url);
      expect(await heading(page)).toContain('Favourite colour?');
      expect(await page.locator('.progress label').textContent()).toBe('Question 1 of 4');
      // required on its own screen: the server's message, nothing else asked
      await page.click('button[value="next"]');
      expect(await page.locator('.error-summary').textContent()).toContain('Pick a colour.');
      await page.check(`input[value="${s.choices.colour[2]}"]`);
      await page.click('button[value="next"]');
      await page.waitForURL(/screen=1/);
      expect(await heading(page)).toContain('Your name?');
      expect(await page.locator('.progress label').textContent()).toBe('Question 2 of 4');
      await page.fill(`input[name="q_${s.questions.name}"]`, 'Ada');
      // Enter in the text box: the browser submits the form by its first button, Next
      await page.press(`input[name="q_${s.questions.name}"]`, 'Enter');
      await page.waitForURL(new RegExp(`p=${s.pages[1]}&screen=0`));
      expect(await heading(page)).toContain('How are you?');

      // leave, come back in the same browser: page 2's screen; Back shows the saved name
      await page.goto('about:blank');
      await page.goto(s.collector.url);
      expect(await heading(page)).toContain('How are you?');
      await page.click('button[value="prev"]');
      await page.waitForURL(/screen=1/);
      expect(await page.inputValue(`input[name="q_${s.questions.name}"]`)).toBe('Ada');
      await page.click('button[value="prev"]');
      expect(await page.isChecked(`input[value="${s.choices.colour[2]}"]`)).toBe(true);
      await page.click('button[value="next"]');
      await page.press(`input[name="q_${s.questions.name}"]`, 'Enter');
      await page.check(`input[value="${s.choices.mood[0]}"]`);
      await page.click('button[value="next"]');
      await page.waitForURL(new RegExp(`p=${s.pages[2]}`));
      expect(await page.locator('.progress label').textContent()).toBe('Question 4 of 4');
      await page.fill(`input[name="q_${s.questions.note}"]`, 'No');
      await page.click('button[value="done"]');
      await page.locator('.thank-you').waitFor();
    } finally {
      await context.close();
    }
    const [r] = await answers();
    expect(r.response_status).toBe('completed');
    expect(r.pages.map((p: any) => p.questions.map((q: any) => q.answers))).toEqual([
      [[{ choice_id: s.choices.colour[2] }], [{ text: 'Ada' }]],
      [[{ choice_id: s.choices.mood[0] }]],
      [[{ text: 'No' }]],
    ]);
  });

  it('with script: keys pick choices, Enter goes on, the question has the focus; checked at both widths', async () => {
    const { s, answers } = await survey();
    const context = await browser.newContext({ reducedMotion: 'no-preference' });
    const page = await context.newPage();
    try {
      await page.goto(s.collector.url);
      await checkPage(page, 'respond-one-at-a-time');
      expect(await page.locator('.screen').getAttribute('class')).toContain('screen-in');
      // each choice shows its key; the first choice has the focus
      expect(await page.locator('.choice-key').allTextContents()).toEqual(['A', 'B', 'C']);
      expect(await page.evaluate('document.activeElement.value')).toBe(s.choices.colour[0]);
      // Enter with no choice: the screen comes back with the owner's message, the summary focused
      await page.keyboard.press('Enter');
      await page.locator('.error-summary').waitFor();
      expect(await page.evaluate('document.activeElement.id')).toBe('problems');
      await checkPage(page, 'respond-one-at-a-time-error');
      await page.keyboard.press('b');
      expect(await page.isChecked(`input[value="${s.choices.colour[1]}"]`)).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(/screen=1/);
      // the text box has the focus: typing answers it, Enter goes on
      expect(await page.evaluate('document.activeElement.name')).toBe(`q_${s.questions.name}`);
      await page.keyboard.type('Grace');
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`p=${s.pages[1]}`));
      await page.keyboard.press('3');
      expect(await page.isChecked(`input[value="${s.choices.mood[2]}"]`)).toBe(true);
      await checkPage(page, 'respond-one-at-a-time-choice');
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`p=${s.pages[2]}`));
      await page.keyboard.type('Thanks');
      await page.keyboard.press('Enter');
      await page.locator('.thank-you').waitFor();
    } finally {
      await context.close();
    }
    const [r] = await answers();
    expect(r.pages.map((p: any) => p.questions.map((q: any) => q.answers))).toEqual([
      [[{ choice_id: s.choices.colour[1] }], [{ text: 'Grace' }]],
      [[{ choice_id: s.choices.mood[2] }]],
      [[{ text: 'Thanks' }]],
    ]);
  });

  it('leaves out the transition when the browser asks for reduced motion', async () => {
    const { s } = await survey();
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      await page.goto(s.collector.url);
      await page.locator('.choice-key').first().waitFor();
      expect(await page.locator('.screen').getAttribute('class')).not.toContain('screen-in');
    } finally {
      await context.close();
    }
  });
});
