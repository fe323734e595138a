// The invitation email in a real browser at 1280 and 390 px with axe: the owner names themself on
// the account page, the email collector's page (both composers on it once an invitation went out,
// the reminder started from the invitation), and the invitation as a mail client shows it: a
// button named "Begin Survey" with the address below it, greeting a recipient without a name "Hi,".
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { ownerInBrowser } from '../web/fixtures.js';
import { emailCollector } from './helpers.js';

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
    scriptOnly: true,
  },
);
afterAll(async () => {
  await worker?.stop();
  await smtp?.stop();
});

/** The decoded HTML part of a raw email. */
function htmlPart(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)![1];
  const part = raw.split(`--${boundary}`).find((p) => /content-type:\s*text\/html/i.test(p))!;
  const cut = part.search(/\r?\n\r?\n/);
  const body = part.slice(cut).trim();
  return /base64/i.test(part.slice(0, cut))
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

describe('the invitation email', () => {
  it('takes the owner’s name on the account page, prefills a reminder and shows a real button', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByLabel('First name').fill('Tess');
    await page.getByLabel('Last name').fill('Tester');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.waitForURL(/done=name/);
    expect(await page.getByLabel('First name').inputValue()).toBe('Tess');
    await checkPage(page, 'account-name');

    const t = { token: owner.token };
    const { surveyId, collectorId } = await emailCollector(server.client, owner.token);
    const sm = new URL(
      (await server.client.get(`/v3/surveys/${surveyId}`, t)).body.collect_url,
    ).searchParams.get('sm')!;
    const c = `/v3/collectors/${collectorId}`;
    const msg = await server.client.post(
      `${c}/messages`,
      {
        type: 'invite',
        subject: 'Lunch survey',
        body_text:
          'Hi [FirstName],\n\nTell us about lunch.\n\nBegin Survey: [SurveyLink]\n\nNot for you? [OptOutLink]\n[FooterLink]',
      },
      t,
    );
    expect(msg.status, msg.text).toBe(201);
    await server.client.post(`${c}/messages/${msg.body.id}/recipients`, { email: owner.user.email }, t);
    expect((await server.client.post(`${c}/messages/${msg.body.id}/send`, {}, t)).status).toBe(200);
    await worker.drain();

    await page.goto(`${server.url}/collect/email/${collectorId}?sm=${sm}`);
    expect(await page.getByRole('textbox', { name: 'Subject' }).count()).toBe(2);
    expect(await page.locator('#reminder-subject').inputValue()).toBe('Reminder: Lunch survey');
    await checkPage(page, 'collect-email-reminder');

    const mail = smtp.messages.filter((m) => m.to.includes(owner.user.email));
    expect(mail).toHaveLength(1);
    await page.goto('about:blank'); // as a mail client shows it, without the pages' CSP
    await page.setContent(htmlPart(mail[0].raw));
    // the recipient was added by address alone: no first name, so "Hi," and never "Hi ,"
    expect(await page.getByText('Hi,', { exact: true }).count()).toBe(1);
    const button = page.getByRole('link', { name: 'Begin Survey' });
    const href = await button.getAttribute('href');
    expect(href).toMatch(/\/r\/[A-Za-z0-9]+\?/);
    expect(await page.getByRole('link', { name: href! }).count()).toBe(1); // the fallback address
    await checkPage(page, 'invitation-email');
  });
});
