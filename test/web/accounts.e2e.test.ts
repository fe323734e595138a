// A person's own account in a real browser, with its mail delivered by the outbox worker to a real
// SMTP server: sign up, confirm the address by the emailed link; forget the password, reset it by
// the emailed link and sign in with the new one; change the password on the account page. Each
// page passes the page checks (axe, 390 px, touch targets) and leaves screenshots.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { releaseBrowser, sharedBrowser, submitSignIn } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded } from '../invite/helpers.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;
let browser: Browser;
let page: Page;

const person = { username: `maya${process.pid}`, email: `maya${process.pid}@example.org` };

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
  worker = new OutboxWorker(server.deps);
  browser = await sharedBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await worker?.stop();
  await server?.close();
  await smtp?.stop();
});

/** Delivers the outbox, then the link in the newest email to `to` on the test server's origin. */
async function linkMailedTo(to: string, subject: string): Promise<string> {
  await worker.drain();
  const mail = smtp.messages.filter((m) => m.to.includes(to)).at(-1);
  expect(mail, `an email to ${to}`).toBeDefined();
  const text = decoded(mail!.raw);
  expect(text).toContain(`Subject: ${subject}`);
  const link = new URL(/https?:\/\/\S+\?token=[A-Za-z0-9_-]+/.exec(text)![0]);
  expect(link.origin, 'the link is on the public URL').toBe('http://localhost');
  return `${server.url}${link.pathname}${link.search}`;
}

async function submit(button: string) {
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button }).click()]);
}

describe('my account', () => {
  it('signs up from the sign-in page and confirms the address by the emailed link', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/signup$/);
    await checkPage(page, 'accounts-sign-up');
    await page.getByLabel('Username').fill(person.username);
    await page.getByLabel('Email address').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('first password');
    await page.getByLabel('Repeat the password').fill('first password!');
    await submit('Create account');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not the same');
    await checkPage(page, 'accounts-sign-up-error');
    await page.getByLabel('Password', { exact: true }).fill('first password');
    await page.getByLabel('Repeat the password').fill('first password');
    await submit('Create account');

    // Not signed in yet: the answer is the same whether or not the address had an account.
    await expect(page.getByRole('status').textContent()).resolves.toContain('We sent a link');
    await checkPage(page, 'accounts-sign-up-sent');
    await page.getByRole('status').getByRole('link', { name: 'sign in' }).click();
    await submitSignIn(page, { user: person, password: 'first password' });
    await page.goto(`${server.url}/account`);
    await expect(page.getByText('not confirmed yet').count()).resolves.toBe(1);
    await checkPage(page, 'accounts-account-unconfirmed');

    await page.goto(await linkMailedTo(person.email, 'Confirm your email address'));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Address confirmed');
    await checkPage(page, 'accounts-verified');
    await page.getByRole('link', { name: 'Go to your surveys' }).click();
    await page.goto(`${server.url}/account`);
    await expect(page.getByText('confirmed', { exact: true }).count()).resolves.toBe(1);
  });

  it('changes the password on the account page', async () => {
    await page.getByLabel('Current password').first().fill('first password');
    await page.getByLabel('New password', { exact: true }).fill('second password');
    await page.getByLabel('Repeat the new password').fill('second password');
    await submit('Change password');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your password is changed');
    await checkPage(page, 'accounts-account');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/logout$/);
  });

  it('resets a forgotten password by the emailed link and signs in with the new one', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await checkPage(page, 'accounts-forgot');
    await page.getByLabel('Email address').fill(person.email);
    await submit('Send the link');
    await expect(page.getByRole('status').textContent()).resolves.toContain(
      `If an account uses ${person.email}`,
    );

    await page.goto(await linkMailedTo(person.email, 'Reset your password'));
    await checkPage(page, 'accounts-reset');
    await page.getByLabel('New password', { exact: true }).fill('third password');
    await page.getByLabel('Repeat the new password').fill('third password');
    await submit('Save the new password');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your new password is saved');

    await page.getByRole('link', { name: 'Sign in with your new password' }).click();
    await submitSignIn(page, { user: person, password: 'third password' });
    expect(new URL(page.url()).pathname, 'signed in, on the survey list').toBe('/');
  });
});
