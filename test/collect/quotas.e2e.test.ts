// Quotas in a real browser: the builder's quotas page (plain forms, without script), a respondent
// beyond a full quota seeing its end message without script, and the analyze page's count.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedSurvey, serverAndBrowser, signedInPages, singleChoice } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** A respondent (without script unless asked): opens the link, picks `choice`, presses Done; the page it ends on. */
async function respond(url: string, choice: string, javaScriptEnabled = false): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await page.goto(url);
  await page.getByLabel(choice).check();
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Done' }).click()]);
  return page;
}

describe('quotas pages', () => {
  it('adds a quota on the builder, ends the respondent beyond it with its message, and shows the count', async () => {
    const owner = await server.account();
    const s = await seedSurvey(server, owner, {
      title: 'Panel survey',
      questions: { age: singleChoice('Your age?', ['Under 30', '30 or over']) },
      collector: 'weblink',
    });
    const { page, jsPage } = await signedInPages(browser, server.url, owner);

    // The builder links to the quotas page; a refused form shows its error in the form's words.
    await page.goto(s.survey.edit_url);
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Quotas' }).click()]);
    expect(await page.getByRole('heading', { name: 'Quotas', level: 1 }).count()).toBe(1);
    expect(await page.getByText('This survey has no quotas.').count()).toBe(1);
    await page.getByLabel('Name').fill('Under 30');
    await page.getByLabel('Limit (completed responses)').fill('1');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Add quota' }).click()]);
    expect(await page.getByRole('alert').textContent()).toContain(
      'The answers: a quota needs at least one condition.',
    );

    await page.getByLabel('Name').fill('Under 30');
    await page.getByLabel('Limit (completed responses)').fill('1');
    await page.getByRole('checkbox', { name: 'Under 30' }).check();
    await page.getByRole('radio', { name: 'End the survey with a message' }).check();
    await page
      .getByLabel('Message (for the end and close actions; optional)')
      .fill('Thanks, we have enough people like you.');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Add quota' }).click()]);
    expect(await page.getByRole('status').first().textContent()).toContain('The quota was added.');
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Under 30' }) });
    expect(await card.textContent()).toContain('0 of 1');
    expect(await card.textContent()).toContain('Your age?: Under 30');

    // The first matching respondent completes; the next is over quota and sees the message.
    const first = await respond(s.collector.url, 'Under 30');
    expect(await first.locator('.thank-you').textContent()).not.toContain('enough people');
    const second = await respond(s.collector.url, 'Under 30');
    expect(await second.getByRole('status').textContent()).toContain(
      'Thanks, we have enough people like you.',
    );
    // (the page checks run axe as script)
    const third = await respond(s.collector.url, 'Under 30', true);
    expect(await third.getByRole('status').textContent()).toContain(
      'Thanks, we have enough people like you.',
    );
    await checkPage(third, 'quota-respondent-end');

    // The builder page counts it, and the analyze page shows x of limit.
    await jsPage.goto(`${server.url}/create/quotas?sm=${new URL(s.survey.edit_url).searchParams.get('sm')}`);
    expect(await jsPage.locator('section.card').first().textContent()).toContain('1 of 1');
    await checkPage(jsPage, 'quotas-builder');
    await jsPage.goto(s.survey.analyze_url);
    expect(await jsPage.locator('#quota-counts-heading').count()).toBe(1);
    expect(await jsPage.getByText('Under 30: 1 of 1').count()).toBe(1);
    await checkPage(jsPage, 'quotas-analyze');
  });
});
