// The notification pages in a real browser, at 1280 and 390 px with axe: the account page's time
// zone and alert opt-out, a survey's response alerts page, and an email message's page with its
// preview and "send a test to me" (the test arrives at the real SMTP server).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { emailCollector } from '../invite/helpers.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { ownerInBrowser } from './fixtures.js';

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
});
ownerInBrowser(
  (f) => {
    ({ server, page, owner } = f);
    worker = new OutboxWorker(server.deps);
  },
  {
    server: () => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Surveys <surveys@example.com>' } }),
    account: { firstName: 'Nora', lastName: 'Notify' },
    scriptOnly: true,
  },
);
// registered after ownerInBrowser, so run before its close (afterAll hooks run last-in first)
afterAll(async () => {
  await worker?.stop();
  await smtp?.stop();
});

const status = async () => (await page.getByRole('status').textContent())?.trim();

describe('notification pages', () => {
  it('sets the time zone and alerts, and sends a test of a message', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByLabel('Your time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.waitForURL(/done=zone/);
    expect(await status()).toBe('Your time zone is saved.');
    await page.getByLabel(/Send me no response alerts/).check();
    await page.getByRole('button', { name: 'Save alerts' }).click();
    await page.waitForURL(/done=alerts/);
    expect(await status()).toBe('Your alert setting is saved.');
    expect(await page.getByLabel(/Send me no response alerts/).isChecked()).toBe(true);
    await checkPage(page, 'account-notifications');

    const { surveyId, collectorId } = await emailCollector(server.client, owner.token);
    const survey = await server.client.get(`/v3/surveys/${surveyId}`, { token: owner.token });
    const sm = new URL(survey.body.collect_url).searchParams.get('sm')!;
    await page.goto(`${server.url}/collect/email/${collectorId}?sm=${sm}`);
    await page.getByRole('link', { name: 'Response alerts' }).click();
    await page.waitForURL(/\/collect\/alerts/);
    expect(await page.getByText(/turned off all alerts/).count()).toBe(1);
    await page.getByLabel('A daily digest').check();
    await page.getByRole('button', { name: 'Save alerts' }).click();
    await page.waitForURL(/done=1/);
    expect(await status()).toBe('The alerts are saved.');
    expect(await page.getByLabel('A daily digest').isChecked()).toBe(true);
    await checkPage(page, 'collect-alerts');

    const msg = await server.client.post(
      `/v3/collectors/${collectorId}/messages`,
      { type: 'invite', subject: 'Hello [FirstName]' },
      { token: owner.token },
    );
    await page.goto(`${server.url}/collect/email/${collectorId}/messages/${msg.body.id}?sm=${sm}`);
    expect(await page.getByLabel('Date and time (America/New_York)').count()).toBe(1);
    await page.getByRole('button', { name: 'Send a test to me' }).click();
    await page.waitForURL(/done=tested/);
    expect(await status()).toBe('A test copy is on its way to your address.');
    await checkPage(page, 'collect-email-test-sent');
    await worker.drain();
    expect(smtp.messages.filter((m) => m.to.includes(owner.user.email))).toHaveLength(1);
  });
});
