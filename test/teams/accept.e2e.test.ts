// The invitation accept page in a real browser.
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { acceptUrl } from '../../src/domain/teams/invitations.js';
import { addMember } from '../../src/domain/teams/teams.js';
import { serverAndBrowser } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { makeTeam } from './fixtures.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The accept link on the test server's own address. */
function link(url: string): string {
  const u = new URL(url);
  return `${server.url}${u.pathname}${u.search}`;
}

it('lets an invited user accept with their password, and only with it', async () => {
  const t = await makeTeam(server, {}, 'Growth <Team>');
  const guest = await server.account();
  const inv = await addMember(
    server.deps,
    t.team.id,
    { username: guest.user.username, type: 'admin', pending: true },
    { userId: t.owner.user.id },
  );
  const page = await browser.newPage();
  const res = await page.goto(link(acceptUrl(server.deps, inv, 'us')));
  expect(res?.status()).toBe(200);
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  expect(await page.locator('h1').textContent()).toBe('Join the team Growth <Team>');
  expect(await page.getByLabel('Username').inputValue()).toBe(guest.user.username);
  expect(await page.getByLabel('Username').getAttribute('readonly')).not.toBeNull();

  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toContain('That password is not right');
  expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

  await page.getByLabel('Password').fill(guest.password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('status').waitFor();
  expect(await page.locator('h1').textContent()).toBe('Welcome to Growth <Team>');

  const groups = await server.client.get('/v3/groups', { token: guest.token });
  expect(groups.body.data[0].name).toBe('Growth <Team>');
  const member = await server.client.get(`/v3/groups/${t.team.id}/members/${inv.id}`, { token: guest.token });
  expect(member.body).toMatchObject({ type: 'admin', status: 'active' });

  // The link is spent.
  const again = await page.goto(link(acceptUrl(server.deps, inv, 'us')));
  expect(again?.status()).toBe(404);
  expect(await page.locator('h1').textContent()).toBe('Invitation not found');
  await page.close();
});

it('refuses a forged or missing token, and a POST without the token', async () => {
  const page = await browser.newPage();
  for (const q of ['', '?token=123.abcdefghijklmnopqrstuvwxyz', '?token=%3Cscript%3E']) {
    const res = await page.goto(`${server.url}/teams/invitations/accept${q}`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Invitation not found');
  }
  await page.close();
  const post = await server.client.request('POST', '/teams/invitations/accept', {
    rawBody: 'password=whatever',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(post.status).toBe(404);
});

it('keeps a visible focus outline on the form controls', async () => {
  const t = await makeTeam(server, {}, 'Focus');
  const guest = await server.account();
  const inv = await addMember(
    server.deps,
    t.team.id,
    { username: guest.user.username, pending: true },
    { userId: t.owner.user.id },
  );
  const page = await browser.newPage();
  await page.goto(link(acceptUrl(server.deps, inv, 'us')));
  // Reach the password field from the keyboard alone; it must show a focus outline.
  let focused = '';
  for (let i = 0; i < 10 && focused !== 'password'; i++) {
    await page.keyboard.press('Tab');
    focused = String(await page.evaluate('document.activeElement ? document.activeElement.id : ""'));
  }
  expect(focused).toBe('password');
  const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
  expect(outline).toBe('solid');
  await page.close();
});
