// The builder's "Insert answer from…" in a real browser: without script the Insert button brings
// the form back with the recall added to the question text; with script it goes in at the cursor;
// a recall that names nothing is refused beside the question text; the question list and a
// respondent read the result. Axe and screenshots at 1280 and 390 px.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey } from '../helpers/fixtures.js';
import { checkPage, screenshot } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { ownerInBrowser } from '../web/fixtures.js';

let server: TestServer;
let page: Page;
let jsPage: Page;
let owner: TestAccount;

ownerInBrowser((f) => {
  ({ server, page, jsPage, owner } = f);
});

const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });

async function survey() {
  return seedSurvey(server, owner, {
    title: 'Welcome survey',
    body: { custom_variables: { team: 'Team' } },
    pages: [
      { questions: { name: text('What should we call you?') } },
      { questions: { hope: text('What do you hope for this year?') } },
    ],
  });
}

const editOf = (url: string, open: string) => {
  const u = new URL(url);
  return `${server.url}${u.pathname}${u.search}&open=${open}#q-${open}`;
};

describe('"Insert answer from…" in the builder', () => {
  it('without script: Insert brings the form back with the recall, Save keeps it, the list reads it', async () => {
    const s = await survey();
    await page.goto(editOf(s.survey.edit_url, s.questions.hope));
    const heading = page.locator(`#q-${s.questions.hope}-heading`);
    await heading.fill('Thanks!');
    const picker = page.getByLabel('Insert answer from…');
    expect(
      await picker.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label'))),
    ).toEqual(['Earlier questions', 'Contact (email invitations)', 'Custom variables']);
    await picker.selectOption({ label: 'Q1: What should we call you?' });
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Insert', exact: true }).click(),
    ]);
    expect(await heading.inputValue()).toBe(`Thanks! [question("value"), id="${s.questions.name}"]`);
    // axe needs script (checkPage runs on the script page below); this one is only looked at
    await screenshot(page, 'builder-piping-inserted-noscript');
    await page.getByRole('button', { name: 'Save question' }).click();
    expect(await page.locator('.notice').allTextContents()).toEqual(['The question was saved.']);
    expect(await page.locator(`#q-${s.questions.hope} .q-heading`).textContent()).toBe(
      'Thanks! [answer to Q1]',
    );
  });

  it('with script: the recall goes in at the cursor, nothing is posted until Save', async () => {
    const s = await survey();
    await jsPage.goto(editOf(s.survey.edit_url, s.questions.hope));
    const heading = jsPage.locator(`#q-${s.questions.hope}-heading`);
    await heading.fill('Hello , what do you hope for?');
    // the cursor after "Hello "
    await heading.press('Home');
    for (let i = 0; i < 6; i++) await heading.press('ArrowRight');
    await jsPage.getByLabel('Insert answer from…').selectOption({ label: 'First name' });
    await jsPage.getByRole('button', { name: 'Insert', exact: true }).click();
    expect(await heading.inputValue()).toBe('Hello [contact("first_name")], what do you hope for?');
    const stored = await server.client.get(`/v3/surveys/${s.id}/details`, { token: owner.token });
    expect(stored.body.pages[1].questions[0].headings[0].heading).toBe('What do you hope for this year?');
    await checkPage(jsPage, 'builder-piping-script');
    await jsPage.getByRole('button', { name: 'Save question' }).click();
    await jsPage.locator('.notice').waitFor();
    expect(await jsPage.locator(`#q-${s.questions.hope} .q-heading`).textContent()).toBe(
      'Hello [First name], what do you hope for?',
    );

    // a guessed recall is refused, the message at the question text
    await jsPage.goto(editOf(s.survey.edit_url, s.questions.hope));
    await heading.fill('Hi [question(1)]');
    await jsPage.getByRole('button', { name: 'Save question' }).click();
    const error = jsPage.locator(`#q-${s.questions.hope}-error`);
    expect(await error.textContent()).toContain(
      'Question text: [question(1)] does not name anything to recall',
    );
    expect(await heading.getAttribute('aria-invalid')).toBe('true');
    expect(await heading.inputValue()).toBe('Hi [question(1)]');
    await checkPage(jsPage, 'builder-piping-refused');
  });
});
