// The /integrations page in a real browser at 1280 and 390 px with axe: a webhook made from the
// page (a real receiver answers its HEAD check), its page with the secret and the delivery log,
// "send again", pausing, and deleting through the confirmation dialog.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { responseCompleted } from '../reach/helpers/events.js';
import { surveyWithCollector } from '../reach/helpers/objects.js';
import { Receiver } from '../reach/helpers/receiver.js';
import { ownerInBrowser } from './fixtures.js';

let server: TestServer;
let worker: OutboxWorker;
let receiver: Receiver;
let page: Page;
let owner: TestAccount;

beforeAll(async () => {
  receiver = await new Receiver().start();
});
ownerInBrowser(
  (f) => {
    ({ server, page, owner } = f);
    worker = new OutboxWorker(server.deps);
  },
  {
    server: () => ({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } }),
    account: { firstName: 'Ivy', lastName: 'Integrations' },
    scriptOnly: true,
  },
);
// registered after ownerInBrowser, so run before its close (afterAll hooks run last-in first)
afterAll(async () => {
  await worker?.stop();
  await receiver?.stop();
});

const status = async () => (await page.getByRole('status').textContent())?.trim();

describe('integrations page', () => {
  it('makes, shows, resends, pauses and deletes a webhook', async () => {
    const watched = await surveyWithCollector(server.client, owner.token, 'Team lunch');
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL(/\/integrations$/);
    await page.getByLabel('Name').fill('Lunch responses');
    await page.getByLabel('Event').selectOption('response_completed');
    await page.getByRole('checkbox', { name: 'Team lunch' }).check();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.waitForURL(/done=created/);
    expect(await status()).toBe('The webhook is created.');
    expect(await page.locator('#secret').textContent()).toMatch(/^whsec_/);

    await responseCompleted(server.deps, owner.user.id, watched.surveyId, watched.collectorId);
    await worker.drain();
    await page.reload();
    expect(await page.getByText('delivered').count()).toBe(1);
    await checkPage(page, 'integrations-webhook');
    await page.getByRole('button', { name: /Send again/ }).click();
    await page.waitForURL(/done=again/);
    await worker.drain();
    expect(receiver.posts()).toHaveLength(2);

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/done=paused/);
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    await page.getByRole('link', { name: '← Integrations' }).click();
    expect(await page.getByRole('cell', { name: 'paused' }).count()).toBe(1);
    await checkPage(page, 'integrations-list');

    await page.getByRole('link', { name: 'Lunch responses' }).click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await page.waitForURL(/done=deleted/);
    expect(await status()).toBe('The webhook is deleted.');
    expect(await page.getByText('You have no webhooks yet.').count()).toBe(1);
  });
});
