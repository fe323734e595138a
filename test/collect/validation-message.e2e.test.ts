// The owner's own validation and required messages on the respondent page, with JavaScript on and
// off: the same error summary and the same message by each question either way, never a wording
// of the browser's or the script's own.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedSurvey, serverAndBrowser } from '../helpers/fixtures.js';
import { checkPage, screenshot } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const EMAIL_TEXT = 'Give us your work address, like ada@example.com.';
const REQUIRED_TEXT = 'Tell us which team you are in.';

describe('respondent page: the owner’s validation message', () => {
  it('shows the owner’s message and the error summary alike with and without JavaScript', async () => {
    const a = await server.account();
    const seeded = await seedSurvey(server, a, {
      title: 'Team sign-up',
      collector: 'weblink',
      body: { custom_variables: { org: 'Organisation' } },
      questions: {
        email: {
          family: 'open_ended',
          subtype: 'single',
          headings: [{ heading: 'Your work email' }],
          validation: { type: 'email', text: EMAIL_TEXT },
        },
        team: {
          family: 'single_choice',
          subtype: 'vertical',
          // A recall in the heading: the summary names the question as the respondent reads it.
          headings: [{ heading: 'Your team at [custom_variable("org")]' }],
          required: { text: REQUIRED_TEXT, type: 'all', amount: '0' },
          answers: { choices: [{ text: 'Design' }, { text: 'Sales' }] },
        },
      },
    });
    const emailField = `input[name="q_${seeded.questions.email}"]`;
    const seen: Record<string, { summary: string; messages: string[] }> = {};
    for (const javaScriptEnabled of [true, false]) {
      const label = javaScriptEnabled ? 'js' : 'nojs';
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      try {
        await page.goto(`${seeded.collector.url}?org=Acme`);
        await page.fill(emailField, 'not-an-email');
        await page.click('form[data-respond] button[value="done"]');
        const summary = page.locator('.error-summary');
        await summary.waitFor();
        // The server answered (the page was posted), in the owner's words, the entry kept.
        expect(await page.inputValue(emailField)).toBe('not-an-email');
        const text = ((await summary.textContent()) ?? '').replace(/\s+/g, ' ').trim();
        expect(text).toContain(`Your work email: ${EMAIL_TEXT}`);
        expect(text).toContain(`Your team at Acme: ${REQUIRED_TEXT}`);
        expect(await page.content()).not.toContain('Please enter a valid email address');
        const messages = (await page.locator('form[data-respond] .error').allInnerTexts()).map((m) =>
          m.trim(),
        );
        expect(messages).toEqual([EMAIL_TEXT, REQUIRED_TEXT]);
        if (javaScriptEnabled)
          expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('problems');
        seen[label] = { summary: text, messages };
        // checkPage's axe needs script; the page without it is the same HTML, shot at both widths.
        if (javaScriptEnabled) await checkPage(page, 'respond-validation-js');
        else
          for (const width of [1280, 390]) {
            await page.setViewportSize({ width, height: 800 });
            await screenshot(page, `respond-validation-nojs-${width}`);
          }

        // Put right, the page goes through.
        await page.fill(emailField, 'ada@example.com');
        await page.check(`input[name="q_${seeded.questions.team}"][value="${seeded.choices.team[0]}"]`);
        await page.click('form[data-respond] button[value="done"]');
        await page.locator('.thank-you').waitFor();
      } finally {
        await context.close();
      }
    }
    expect(seen.js).toEqual(seen.nojs);
    const done = await server.client.get(`/v3/surveys/${seeded.id}/responses`, { token: a.token });
    expect(done.body.total).toBe(2);
  });
});
