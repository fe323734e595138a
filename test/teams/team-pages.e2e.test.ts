// The Team pages in a real browser, at 1280 and 390 px with axe: creating a team, the members page
// as an admin (invite, role, cancel an invitation without script) and as a plain member (no
// controls), workgroups (create, add a member) and the activity page.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedSurvey, serverAndBrowser, signedInPages, type TestServer } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { makeTeam } from './fixtures.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('the Team pages', () => {
  it('lets a user in no team create one', async () => {
    const solo = await server.account();
    const { jsPage } = await signedInPages(browser, server.url, solo);
    await jsPage.goto(`${server.url}/`);
    await jsPage.getByRole('link', { name: 'Team', exact: true }).click();
    await jsPage.waitForURL(/\/team$/);
    await checkPage(jsPage, 'team-create');
    await jsPage.getByLabel('Team name').fill('Northwind Research');
    await jsPage.getByRole('button', { name: 'Create team' }).click();
    await jsPage.waitForURL(/done=created/);
    expect(await jsPage.getByRole('status').textContent()).toContain('Your team was created');
    await jsPage.context().close();
  });

  it('shows an admin every control and a plain member none', async () => {
    const t = await makeTeam(server, { firstName: 'Ana', lastName: 'Lopez-Fernandez' }, 'Customer Insights');
    const guest = await server.account();
    const admin = await signedInPages(browser, server.url, t.admin);
    const p = admin.jsPage;
    await p.goto(`${server.url}/team`);
    await p.getByLabel('Email address or username').fill(guest.user.email);
    await p.getByLabel('Role', { exact: true }).selectOption('admin');
    await p.getByRole('button', { name: 'Send invitation' }).click();
    await p.waitForURL(/done=invited/);
    expect(await p.getByRole('status').textContent()).toBe('The invitation was emailed.');
    await p.getByLabel(`Role of ${t.regular.user.username}`).selectOption('admin');
    await p.getByRole('button', { name: `Change role of ${t.regular.user.username}` }).click();
    await p.waitForURL(/done=role/);
    expect(await p.getByLabel(`Role of ${t.regular.user.username}`).inputValue()).toBe('admin');
    await p.getByLabel(`Role of ${t.regular.user.username}`).selectOption('regular');
    await p.getByRole('button', { name: `Change role of ${t.regular.user.username}` }).click();
    await p.waitForURL(/done=role/);
    // A leaving member's survey goes to another member first.
    const survey = await seedSurvey(server, t.regular, { kind: 'simple', title: 'Quarterly NPS' });
    await p.reload();
    await p
      .getByLabel('Survey', { exact: true })
      .selectOption({ label: `Quarterly NPS (${t.regular.user.username})` });
    await p.getByLabel('New owner').selectOption({ label: t.owner.user.username });
    await p.getByRole('button', { name: 'Transfer survey' }).click();
    await p.waitForURL(/done=transferred/);
    expect((await server.client.get(`/v3/surveys/${survey.id}`, { token: t.owner.token })).status).toBe(200);
    await checkPage(p, 'team-members-admin');

    // Without script, cancelling asks on a page of its own first.
    const plain = admin.page;
    await plain.goto(`${server.url}/team`);
    await plain.getByRole('button', { name: `Cancel invitation ${guest.user.username}` }).click();
    expect(await plain.locator('h1').textContent()).toBe(`Cancel the invitation of ${guest.user.username}?`);
    await plain.getByRole('button', { name: 'Cancel invitation' }).click();
    await plain.waitForURL(/done=cancelled/);
    expect(await plain.locator('body').textContent()).not.toContain(guest.user.username);

    const member = await signedInPages(browser, server.url, t.regular);
    await member.jsPage.goto(`${server.url}/team`);
    expect(await member.jsPage.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await member.jsPage.getByRole('combobox').count()).toBe(0);
    expect(await member.jsPage.locator('form[action^="/team/members"]').count()).toBe(0);
    await checkPage(member.jsPage, 'team-members-regular');
    for (const ctx of [admin.page, admin.jsPage, member.page, member.jsPage]) await ctx.context().close();
  });

  it('manages workgroups and shows the activity', async () => {
    const t = await makeTeam(server, {}, 'Product');
    const { jsPage: p } = await signedInPages(browser, server.url, t.owner);
    await p.goto(`${server.url}/team`);
    await p.getByRole('link', { name: 'Workgroups' }).click();
    await p.waitForURL(/\/team\/workgroups$/);
    await p.getByLabel('Name').fill('Onboarding study');
    await p.getByLabel('Description (optional)').fill('New customers, first 90 days');
    await p.getByRole('button', { name: 'Create workgroup' }).click();
    await p.waitForURL(/done=created/);
    await p.getByLabel(t.regular.user.username).check();
    await p.getByRole('button', { name: 'Add selected members' }).click();
    await p.waitForURL(/done=added/);
    expect(await p.locator('ul.member-list').textContent()).toContain(t.regular.user.username);
    await checkPage(p, 'team-workgroup');
    await p.getByRole('link', { name: '← All workgroups' }).click();
    await p.waitForURL(/\/team\/workgroups$/);
    await checkPage(p, 'team-workgroups');

    await p.getByRole('link', { name: 'Activity' }).click();
    await p.waitForURL(/\/team\/activity$/);
    expect(await p.locator('table').textContent()).toContain('Joined the team');
    await checkPage(p, 'team-activity');
    await p.context().close();
  });
});
