// The Share page and the survey list's "Shared with me" in a real browser, at 1280 and 390 px:
// the owner shares a survey with a workgroup (with script, through the confirmation dialog for
// removing), the member finds it under "Shared with me" with who shared it and the role.
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { serverAndBrowser, signedInPages, smOf } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { makeTeam } from '../teams/fixtures.js';
import { api, ROLES } from './fixtures.js';

let server: TestServer;
let browser: Browser;
serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

it('shares a survey with a workgroup, changes its role and removes it; the member sees it under Shared with me', async () => {
  const t = await makeTeam(server);
  const a = api(server);
  const created = await server.client.post(
    '/v3/surveys',
    { title: 'Quarterly staff survey' },
    { token: t.owner.token },
  );
  const sm = smOf(created.body.edit_url);
  await a.survey(t.regular.token, 'My own survey');
  await a.workgroup(t.owner.token, 'Field researchers', [t.regular.user.id]);
  const other = await a.workgroup(t.owner.token, 'Analysts', [t.admin.user.id]);
  await a.workgroup(t.owner.token, 'Designers');
  const outsider = await server.account();
  const { page, jsPage } = await signedInPages(browser, server.url, t.owner);

  // Without script: from the survey list to the Share page, sharing as Viewer.
  await page.goto(`${server.url}/`);
  await page.getByRole('link', { name: 'Share Quarterly staff survey' }).click();
  expect(new URL(page.url()).search).toBe(`?sm=${sm}`);
  expect(await page.locator('#not-shared').textContent()).toContain('only the owner has access');
  const byGroup = page.getByRole('region', { name: 'Share with a workgroup' });
  await byGroup.getByLabel('Workgroup', { exact: true }).selectOption({ label: 'Field researchers' });
  await byGroup.getByLabel('Role', { exact: true }).selectOption({ label: 'Viewer' });
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByText('The survey is shared with the workgroup.').waitFor();
  const row = page.getByRole('row', { name: /Field researchers/ });
  expect(await row.getByLabel('Role of Field researchers', { exact: true }).inputValue()).toBe(ROLES.viewer);

  // With script: the page's checks, a second share as Analyzer, then a role change.
  await jsPage.goto(`${server.url}/share?sm=${sm}`);
  const jsByGroup = jsPage.getByRole('region', { name: 'Share with a workgroup' });
  await jsByGroup.getByLabel('Workgroup', { exact: true }).selectOption({ label: 'Analysts' });
  await jsByGroup.getByLabel('Role', { exact: true }).selectOption({ label: 'Analyzer' });
  await jsPage.getByRole('button', { name: 'Share', exact: true }).click();
  await jsPage.getByText('The survey is shared with the workgroup.').waitFor();
  // A person of the team, by address, as Collector; an address outside the team is refused.
  const byPerson = jsPage.getByRole('region', { name: 'Share with a person' });
  await byPerson.getByLabel('Username or email address').fill(outsider.user.email);
  await byPerson.getByRole('button', { name: 'Share with this person' }).click();
  await jsPage.locator('#person-error').waitFor();
  expect(await jsPage.locator('#person-error').textContent()).toContain(
    'is not an active member of your team',
  );
  await byPerson.getByLabel('Username or email address').fill(t.admin.user.email);
  await byPerson.getByLabel('Role', { exact: true }).selectOption({ label: 'Collector' });
  await byPerson.getByRole('button', { name: 'Share with this person' }).click();
  await jsPage.getByText('The survey is shared with the person.').waitFor();
  expect(await jsPage.getByLabel(`Role of ${t.admin.user.username}`, { exact: true }).inputValue()).toBe(
    ROLES.collector,
  );
  await jsPage.getByText('2 members of Field researchers').click();
  await checkPage(jsPage, 'share-page');
  await jsPage.getByLabel('Role of Field researchers', { exact: true }).selectOption({ label: 'Editor' });
  await jsPage.getByRole('button', { name: 'Change role of Field researchers' }).click();
  await jsPage.getByText('The role was changed.').waitFor();
  expect(await jsPage.getByLabel('Role of Field researchers', { exact: true }).inputValue()).toBe(
    ROLES.editor,
  );

  // The member's list: "Shared with me" names who shared it and the role, with no Share or Delete.
  const member = await signedInPages(browser, server.url, t.regular);
  await member.jsPage.goto(`${server.url}/`);
  await member.jsPage.getByRole('link', { name: 'Shared with me' }).click();
  const shared = member.jsPage.getByRole('row', { name: /Quarterly staff survey/ });
  expect(await shared.textContent()).toContain(`Shared by ${t.owner.user.username} · Editor`);
  expect(await member.jsPage.getByRole('link', { name: 'My own survey', exact: true }).count()).toBe(0);
  expect(await shared.getByRole('link', { name: /^Share/ }).count()).toBe(0);
  expect(await shared.getByRole('button', { name: /Delete/ }).count()).toBe(0);
  await checkPage(member.jsPage, 'share-shared-with-me');
  await member.jsPage.getByRole('link', { name: 'Mine' }).click();
  await member.jsPage.getByRole('link', { name: 'My own survey', exact: true }).waitFor();
  expect(await member.jsPage.getByRole('link', { name: 'Quarterly staff survey', exact: true }).count()).toBe(
    0,
  );

  // Removing asks first (the dialog), then the workgroup's row is gone.
  await jsPage.getByRole('button', { name: 'Remove the access of Analysts' }).click();
  const dialog = jsPage.getByRole('dialog');
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('Stop sharing “Quarterly staff survey” with Analysts?');
  await dialog.getByRole('button', { name: 'Remove access' }).click();
  await jsPage.getByText('The workgroup no longer has access.').waitFor();
  expect(await jsPage.getByRole('row', { name: /Analysts/ }).count()).toBe(0);
  const remaining = await server.client.get(`/v3/workgroups/${other.id}/shares`, { token: t.owner.token });
  expect(remaining.body.data).toEqual([]);
  // The person shared with directly (their workgroup's share removed): the role, no workgroup named.
  const admin = await signedInPages(browser, server.url, t.admin);
  await admin.page.goto(`${server.url}/?view=shared`);
  const direct = admin.page.getByRole('row', { name: /Quarterly staff survey/ });
  expect(await direct.textContent()).toContain(`Shared by ${t.owner.user.username} · Collector`);
  expect(await direct.textContent()).not.toContain('through');
});
