// The audit log's pages in a real browser at 1280 and 390 px with axe: the team owner's
// /account/audit filtered by a member, and the operators' /operator/audit filtered by action.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import type { TestAccount } from '../helpers/accounts.js';
import { checkPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';
import { ownerInBrowser } from '../web/fixtures.js';

let server: TestServer;
let page: Page;
let owner: TestAccount;
let member: TestAccount;

ownerInBrowser(
  (f) => {
    ({ server, page, owner } = f);
  },
  { account: { firstName: 'Olga', lastName: 'Owner' }, scriptOnly: true },
);

beforeAll(async () => {
  member = await server.account({ firstName: 'Mia', lastName: 'Member' });
  const team = await createTeam(server.deps, owner.user, { name: 'Audited' });
  await addMember(server.deps, team.id, { username: member.user.username }, { userId: owner.user.id });
  await setOperator(server.deps, owner.user.id, true);
  const { body } = await server.client.post(
    '/v3/surveys',
    { title: 'Quarterly survey' },
    { token: member.token },
  );
  await server.client.patch(
    `/v3/surveys/${body.id}`,
    { title: 'Quarterly survey (final)' },
    { token: member.token },
  );
  await server.client.delete(`/v3/surveys/${body.id}`, { token: owner.token });
});

describe('audit log pages', () => {
  it("the team owner filters their team's log by a member", async () => {
    await page.goto(`${server.url}/account`);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/account\/audit$/);
    await page.getByLabel('Actor').fill(member.user.username);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/actor=/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    await expect.poll(() => rows.first().textContent()).toContain('PATCH /v3/surveys/{survey_id}');
    await checkPage(page, 'account-audit');
  });

  it('an operator filters the whole log by action', async () => {
    await page.goto(`${server.url}/operator/audit`);
    await page.getByLabel('Action starts with').fill('DELETE');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=DELETE/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(owner.user.username);
    await checkPage(page, 'operator-audit');
  });
});
