// Alerts and integrations in a real browser at 1280 and 390 px with axe: from the analyze page to
// the alerts page, whose recipients are picked among the owner's team; the /integrations form
// picking a survey by name for a Slack-compatible webhook; and the HTML alert email a member gets
// (from the real SMTP server), shown as a mail client would.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { openEnded, seedSurvey, singleChoice } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { ownerInBrowser } from '../web/fixtures.js';
import { Receiver } from './helpers/receiver.js';
import { SmtpSink } from './helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let receiver: Receiver;
let worker: OutboxWorker;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  receiver = await new Receiver().start();
});
ownerInBrowser(
  (f) => {
    ({ server, page, owner } = f);
    worker = new OutboxWorker(server.deps);
  },
  {
    server: () => ({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Surveys <surveys@example.com>',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
    }),
    account: { firstName: 'Olga', lastName: 'Owner' },
    scriptOnly: true,
  },
);
afterAll(async () => {
  await worker?.stop();
  await smtp?.stop();
  await receiver?.stop();
});

const status = async () => (await page.getByRole('status').textContent())?.trim();

describe('alerts and integrations pages', () => {
  it('sends alerts to a chosen member, picks a survey for a webhook, and mails a themed alert', async () => {
    const member = await server.account({ firstName: 'Mia', lastName: 'Member' });
    await server.account({ firstName: 'Sam', lastName: 'Stranger' });
    const team = await createTeam(server.deps, owner.user, { name: 'Canteen' });
    await addMember(
      server.deps,
      team.id,
      { username: member.user.username },
      { userId: owner.user.id, ip: null },
    );
    const s = await seedSurvey(server, owner, {
      title: 'Canteen feedback',
      body: { theme_color: '#8a2be2' },
      questions: {
        dish: singleChoice('Which dish did you have?', ['Soup of the day', 'Salad']),
        why: openEnded('What would make lunch better?'),
      },
      collector: 'weblink',
    });
    const sm = new URL(s.survey.collect_url).searchParams.get('sm')!;

    await page.goto(`${server.url}/analyze/${sm}`);
    await page.getByRole('link', { name: 'Response alerts' }).click();
    await page.waitForURL(/\/collect\/alerts/);
    await page.getByLabel('An email for each completed response').check();
    expect(await page.getByLabel(/^You/).isChecked()).toBe(true);
    expect(await page.getByText('Sam Stranger').count()).toBe(0);
    await page.getByLabel(/^You/).uncheck();
    await page.getByLabel(/Mia Member/).check();
    await page.getByRole('button', { name: 'Save alerts' }).click();
    await page.waitForURL(/done=1/);
    expect(await status()).toBe('The alerts are saved.');
    expect(await page.getByLabel(/Mia Member/).isChecked()).toBe(true);
    await checkPage(page, 'alerts-recipients');

    await page.goto(`${server.url}/integrations`);
    await page.getByLabel('Name').fill('Canteen channel');
    await page.getByLabel('Canteen feedback').check();
    await page.getByLabel('URL').fill(`${receiver.url}/slack`);
    await page.getByLabel('Slack-compatible message').check();
    await checkPage(page, 'integrations-picker');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.waitForURL(/done=created/);
    expect(await page.getByText('Canteen feedback').count()).toBeGreaterThan(0);
    await checkPage(page, 'integrations-webhook');

    const r = await server.client.post(
      `/v3/collectors/${s.collector.id}/responses`,
      {
        pages: [
          {
            id: s.pages[0],
            questions: [
              { id: s.questions.dish, answers: [{ choice_id: s.choices.dish[0] }] },
              { id: s.questions.why, answers: [{ text: 'More seats by the window, please.' }] },
            ],
          },
        ],
      },
      { token: owner.token },
    );
    expect(r.status, r.text).toBe(201);
    await worker.drain();
    const posted = receiver.posts().filter((p) => p.path === '/hook/slack');
    expect(posted).toHaveLength(1);
    expect(posted[0].json.text).toContain('• Which dish did you have?: Soup of the day');

    const mails = smtp.messages.filter((m) => m.to.includes(member.user.email));
    expect(mails).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to.includes(owner.user.email))).toHaveLength(0);
    const raw = mails[0].raw;
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)![1];
    const htmlPart = raw.split(`--${boundary}`).find((p) => /content-type:\s*text\/html/i.test(p))!;
    const body = htmlPart.slice(htmlPart.search(/\r?\n\r?\n/)).trim();
    const htmlText = /base64/i.test(htmlPart.slice(0, htmlPart.search(/\r?\n\r?\n/)))
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    // as a mail client shows it: a blank document without the pages' CSP, which forbids inline styles
    await page.goto('about:blank');
    await page.setContent(htmlText);
    expect(await page.getByRole('link', { name: 'View the response' }).getAttribute('href')).toContain(
      `/analyze/${sm}/responses/${r.body.id}`,
    );
    expect(await page.getByText('More seats by the window, please.').count()).toBe(1);
    await checkPage(page, 'alert-email');
  });
});
