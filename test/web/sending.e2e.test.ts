// Sending email invitations from the pages, in a real browser against a real SMTP server: the
// owner names a custom field, imports contacts from a CSV file on the Contacts page (mapping
// preview, then a result per row), makes a list, creates an email collector on the collect page,
// writes the invitation, previews it, sends it to the list; a recipient answers through the link
// in the email; the stats show one response; a reminder reaches only those who did not answer; the
// contacts export holds the imported contacts.
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signInPage } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded, linksIn } from '../invite/helpers.js';
import { SmtpSink } from '../reach/helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;
let browser: Browser;
let owner: TestAccount;
let collectPath: string;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Surveys <surveys@example.com>' } });
  worker = new OutboxWorker(server.deps);
  browser = await sharedBrowser();
  owner = await server.account();
  const s = await server.client.post(
    '/v3/surveys',
    {
      title: 'Staff survey',
      pages: [
        { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Ideas?' }] }] },
      ],
    },
    { token: owner.token },
  );
  expect(s.status, s.text).toBe(201);
  const url = new URL(s.body.collect_url);
  collectPath = `${url.pathname}${url.search}`;
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await releaseBrowser(browser);
  await worker?.stop();
  await server?.close();
  await smtp?.stop();
});

const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
const CSV = [
  'Email,First Name,Last Name,Team',
  'ann@example.org,Ann,Archer,Blue',
  'bob@example.org,Bob,Baker,"=HYPERLINK(""http://evil"")"',
  'not-an-email,Cat,Cole,Red',
  'ANN@example.org,Ann,Again,Blue',
].join('\n');

describe('sending invitations from the pages', () => {
  it('imports contacts, invites a list by email, counts the answer and reminds the others', async () => {
    const page = await newPage();
    await signInPage(page, server.url, owner, '/contacts/fields');

    // Name custom field 1 "Team", so the import maps the CSV's Team column to it.
    await page.getByLabel('Label of custom field 1').fill('Team');
    await page.getByRole('button', { name: 'Save labels' }).click();
    expect(await page.getByRole('status').textContent()).toContain('labels were saved');
    await checkPage(page, 'contacts-fields');

    // Import: the file, the mapping preview, the per-row result.
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await checkPage(page, 'contacts-import');
    await page.getByLabel('CSV file (at most 1 MB)').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: 'Preview the import' }).click();
    expect(await page.getByText('4 rows to import').count()).toBe(1);
    expect(await page.getByLabel('Import column Email as').inputValue()).toBe('email');
    expect(await page.getByLabel('Import column First Name as').inputValue()).toBe('first_name');
    expect(await page.getByLabel('Import column Last Name as').inputValue()).toBe('last_name');
    expect(await page.getByLabel('Import column Team as').inputValue()).toBe('custom_1');
    await checkPage(page, 'contacts-import-preview');
    await page.getByRole('button', { name: 'Import 4 contacts' }).click();
    const outcomes = await page
      .locator('table.import-result tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => (r as unknown as { dataset: { outcome: string } }).dataset.outcome),
      );
    expect(outcomes).toEqual(['created', 'created', 'invalid', 'duplicate']);
    expect(await page.locator('tr[data-outcome="invalid"]').textContent()).toContain('not an email address');
    expect(await page.getByRole('status').textContent()).toContain(
      '2 created, 0 updated, 0 already there, 1 invalid, 1 duplicate',
    );
    await checkPage(page, 'contacts-import-result');

    // The address book lists them; the search finds one.
    await page.getByRole('link', { name: 'See the contacts' }).click();
    expect(await page.locator('#contact-count').textContent()).toContain('2 contacts');
    await checkPage(page, 'contacts');
    await page.getByLabel('Search', { exact: true }).fill('bob');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('table.contacts-table tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: 'Edit bob@example.org' }).click();
    expect(await page.getByLabel('Team').inputValue()).toBe('=HYPERLINK("http://evil")');
    await checkPage(page, 'contacts-edit');

    // A list with both.
    await page.getByRole('link', { name: 'Lists' }).click();
    await page.getByLabel('List name').fill('Staff');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByLabel('ann@example.org (Ann Archer)').check();
    await page.getByLabel('bob@example.org (Bob Baker)').check();
    await page.getByRole('button', { name: 'Add selected contacts' }).click();
    expect(await page.getByText('2 contacts in this list').count()).toBe(1);
    await checkPage(page, 'contacts-list');

    // An email collector on the collect page.
    await page.goto(`${server.url}${collectPath}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Staff survey');
    await page.getByLabel('Email invitation: personal links emailed to your contacts').check();
    await page.getByLabel('Collector name (optional)').fill('Staff email');
    await page.getByRole('button', { name: 'Create collector' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('email collector was created');
    await checkPage(page, 'collect');
    await page.getByRole('link', { name: 'Messages, recipients and stats of Staff email' }).click();
    await checkPage(page, 'collect-email');

    // The invitation: subject, body with the placeholders, then its preview.
    await page.getByLabel('Subject').fill('Your views, please');
    const body = page.getByRole('textbox', { name: 'Message' });
    expect(await body.inputValue()).toContain('[SurveyLink]');
    await body.fill(
      'Hello,\n\nPlease tell us your ideas: [SurveyLink]\n\nUnsubscribe: [OptOutLink]\n[FooterLink]',
    );
    await page.getByRole('button', { name: 'Create invitation' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('The message was created');
    const preview = await page.locator('.email-preview').textContent();
    expect(preview).toContain('Your views, please');
    expect(preview).toMatch(/Please tell us your ideas: http:\/\/localhost\/r\/\w+\?rcp=personal-link/);
    expect(preview).toContain('Sent with Survey Service');
    expect(preview).not.toContain('[SurveyLink]');

    // Recipients: the list, plus pasted addresses (one new, one invalid).
    await page.getByLabel('Staff').check();
    await page.getByLabel('Email addresses').fill('dan@example.org, nope');
    await page.getByRole('button', { name: 'Add recipients' }).click();
    const result = await page.locator('table.recipient-result tbody tr').allTextContents();
    expect(result.map((r) => r.replace(/^(Address|Result)/, ''))).toEqual([
      expect.stringMatching(/dan@example.org.*Added/),
      expect.stringMatching(/ann@example.org.*Added/),
      expect.stringMatching(/bob@example.org.*Added/),
      expect.stringMatching(/nope.*Not a valid email address/),
    ]);
    await checkPage(page, 'collect-email-message');

    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('The message was sent');
    await worker.drain();
    for (const who of ['ann@example.org', 'bob@example.org', 'dan@example.org'])
      expect(mailTo(who), who).toHaveLength(1);
    expect(decoded(mailTo('ann@example.org')[0].raw)).toContain('Subject: Your views, please');

    // Ann answers through the link in her email, in a browser of her own.
    const annLink = linksIn(mailTo('ann@example.org')[0].raw, server.url).survey!;
    const ann = await newPage();
    await ann.goto(annLink);
    await ann.getByLabel('Ideas?').fill('More coffee');
    await ann.getByRole('button', { name: 'Done' }).click();
    expect(await ann.getByText(/Thank you/i).count()).toBeGreaterThan(0);

    // The message's stats show the response.
    await page.reload();
    expect(await page.locator('#message-stats [data-stat="Responded"]').textContent()).toBe('1');
    expect(await page.locator('#message-stats [data-stat="Sent"]').textContent()).toBe('3');
    expect(await page.locator('#message-stats [data-stat="Not responded"]').textContent()).toBe('2');
    await checkPage(page, 'collect-email-sent');

    // A reminder reaches only those who have not answered.
    await page.getByRole('link', { name: '← Staff email' }).click();
    expect(await page.locator('#collector-stats [data-stat="Responded"]').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Create reminder' }).click();
    await page.getByRole('button', { name: 'Send reminder' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('The message was sent');
    await worker.drain();
    expect(mailTo('ann@example.org')).toHaveLength(1);
    expect(mailTo('bob@example.org')).toHaveLength(2);
    expect(mailTo('dan@example.org')).toHaveLength(2);
    expect(decoded(mailTo('bob@example.org')[1].raw)).toContain('Subject: Reminder: Your views, please');

    // The export holds the imported contacts (and the one added by address), formulas neutralised.
    const csv = await page.request.get(`${server.url}/contacts/export.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const rows = parse(await csv.text(), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((r) => r.email).sort()).toEqual([
      'ann@example.org',
      'bob@example.org',
      'dan@example.org',
    ]);
    expect(rows.find((r) => r.email === 'ann@example.org')).toMatchObject({
      first_name: 'Ann',
      last_name: 'Archer',
      Team: 'Blue',
    });
    expect(rows.find((r) => r.email === 'bob@example.org')!.Team).toBe(`'=HYPERLINK("http://evil")`);
  }, 300_000);
});
