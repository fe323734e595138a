// The OAuth pages in a real browser (Chromium via Playwright) with JavaScript turned off: register
// an app, authorize it, exchange the code, call the API; deny; refusals for draft and private apps;
// revoke under linked apps; reused and expired codes; the operator's review; escaping and access.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/domain/accounts/apps.js';
import { setOperator } from '../../src/domain/accounts/users.js';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { otherSite, serverAndBrowser, signInPage } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { authorizePath, exchange } from './flow.js';

let server: TestServer;
let browser: Browser;
const clock = new TestClock('2026-06-01T12:00:00Z');
/** The client app's site: its callback answers a stub page. */
const client = otherSite('<!doctype html><title>client</title><p>client</p>');
const callback = () => `${client.origin}/callback`;
const REVOKED = { status: 1, errmsg: 'Client revoked access grant' };

serverAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { clock },
);

/** A browser context without JavaScript. */
async function visitor(javaScriptEnabled = false): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled, baseURL: server.url });
  return { context, page: await context.newPage() };
}

interface Registered {
  appId: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
}

async function registerApp(page: Page, name: string): Promise<Registered> {
  await page.goto('/developer/apps');
  await page.getByRole('link', { name: 'Register an app' }).click();
  await page.getByLabel('App name').fill(name);
  await page.getByLabel('Redirect URIs').fill(callback());
  await page.getByLabel('View Users').selectOption('required');
  await page.getByLabel('View Surveys', { exact: true }).selectOption('optional');
  await page.getByLabel('View Collectors').selectOption('optional');
  await page.getByRole('button', { name: 'Register app' }).click();
  const text = async (id: string) => (await page.locator(`#${id}`).textContent())!.trim();
  const settings = await page.getByRole('link', { name: 'App settings' }).getAttribute('href');
  return {
    appId: settings!.split('/').pop()!,
    clientId: await text('client-id'),
    clientSecret: await text('client-secret'),
    accessToken: await text('access-token'),
  };
}

async function approveOnConsent(
  page: Page,
  clientId: string,
  state: string,
  uncheck: string[] = [],
): Promise<URL> {
  await page.goto(authorizePath({ clientId, redirectUri: callback(), state }));
  for (const label of uncheck) await page.getByLabel(label).uncheck();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback()));
  return new URL(page.url());
}

function tokenFields(app: Registered, code: string) {
  return {
    grant_type: 'authorization_code',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    code,
    redirect_uri: callback(),
  };
}

describe('the authorization code flow in a browser', () => {
  let owner: TestAccount;
  let app: Registered;
  let ownerPage: Page;

  beforeAll(async () => {
    owner = await server.account({ plan: 'premier' });
    ({ page: ownerPage } = await visitor());
    await signInPage(ownerPage, server.url, owner);
    app = await registerApp(ownerPage, 'Survey Sync');
  });

  it('registers an app and shows its credentials and a working draft token', async () => {
    expect(app.clientId).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(app.clientSecret.length).toBeGreaterThan(20);
    const me = await server.client.get('/v3/users/me', { token: app.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(owner.user.id);
    expect(me.headers['x-oauth-scopes-granted']).toBe('surveys_read,collectors_read,users_read');
    await ownerPage.goto(`/developer/apps/${app.appId}`);
    expect(await ownerPage.locator('#app-status').textContent()).toBe('draft');
    expect(await ownerPage.content()).not.toContain(app.clientSecret);
  });

  it('authorize → approve → exchange → GET /v3/users/me', async () => {
    await ownerPage.goto(authorizePath({ clientId: app.clientId, redirectUri: callback(), state: 'st-1' }));
    expect(await ownerPage.locator('h1').textContent()).toBe('Allow Survey Sync to use your account?');
    const required = await ownerPage
      .locator('fieldset', { hasText: 'Required access' })
      .locator('li')
      .allTextContents();
    expect(required).toEqual(['View Users']);
    expect(await ownerPage.getByLabel('View Surveys').isChecked()).toBe(true);
    const url = await approveOnConsent(ownerPage, app.clientId, 'st-1', ['View Collectors']);
    expect(`${url.origin}${url.pathname}`).toBe(callback());
    expect(url.searchParams.get('state')).toBe('st-1');
    const res = await exchange(server.url, tokenFields(app, url.searchParams.get('code')!));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      access_url: 'http://localhost',
    });
    const me = await server.client.get(
      `${res.body.access_url.replace('http://localhost', server.url)}/v3/users/me`,
      {
        token: res.body.access_token,
      },
    );
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(owner.user.username);
    expect(me.headers['x-oauth-scopes-granted']).toBe('surveys_read,users_read');
  });

  it('deny → access_denied at the redirect URI', async () => {
    await ownerPage.goto(authorizePath({ clientId: app.clientId, redirectUri: callback(), state: 'st-2' }));
    await ownerPage.getByRole('button', { name: 'Deny' }).click();
    await ownerPage.waitForURL((url) => url.href.startsWith(callback()));
    const url = new URL(ownerPage.url());
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBe('Resource owner canceled the request');
    expect(url.searchParams.get('state')).toBe('st-2');
    expect(url.searchParams.has('code')).toBe(false);
  });

  it('a reused code and an expired code → invalid_grant', async () => {
    const first = await approveOnConsent(ownerPage, app.clientId, 'r');
    const code = first.searchParams.get('code')!;
    expect((await exchange(server.url, tokenFields(app, code))).status).toBe(200);
    const reused = await exchange(server.url, tokenFields(app, code));
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const late = await approveOnConsent(ownerPage, app.clientId, 'e');
    clock.advance(5 * 60_000 + 1000);
    const expired = await exchange(server.url, tokenFields(app, late.searchParams.get('code')!));
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('invalid_grant');
  });

  it('refuses another account on a draft app, without redirecting', async () => {
    const other = await server.account({ plan: 'premier' });
    const { context, page } = await visitor();
    await signInPage(
      page,
      server.url,
      other,
      authorizePath({ clientId: app.clientId, redirectUri: callback() }),
    );
    expect(page.url()).toContain(`${server.url}/oauth/authorize`);
    expect(await page.locator('h1').textContent()).toBe('App not available');
    expect(await page.getByRole('alert').textContent()).toContain('only its developer can authorize it');
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await context.close();
  });

  it('revoking under linked apps makes the token answer the revoked body', async () => {
    const url = await approveOnConsent(ownerPage, app.clientId, 'rv');
    const res = await exchange(server.url, tokenFields(app, url.searchParams.get('code')!));
    expect((await server.client.get('/v3/users/me', { token: res.body.access_token })).status).toBe(200);
    await ownerPage.goto('/account');
    await ownerPage.getByRole('link', { name: 'Linked apps' }).first().click();
    expect(await ownerPage.getByRole('row', { name: /Survey Sync/ }).count()).toBe(1);
    await ownerPage.getByRole('button', { name: 'Remove Survey Sync' }).click();
    expect(await ownerPage.getByRole('status').textContent()).toContain('removed');
    expect(await ownerPage.getByRole('row', { name: /Survey Sync/ }).count()).toBe(0);
    const me = await server.client.get('/v3/users/me', { token: res.body.access_token });
    expect(me.status).toBe(401);
    expect(me.body).toEqual(REVOKED);
  });
});

describe('private apps', () => {
  it('refuses a user outside the team and an owner on the basic plan', async () => {
    const owner = await server.account({ plan: 'premier' });
    const { context, page } = await visitor();
    await signInPage(page, server.url, owner);
    const app = await registerApp(page, 'Team Tool');
    await page.goto(`/developer/apps/${app.appId}`);
    await page.getByRole('button', { name: 'Deploy as private' }).click();
    expect(await page.locator('#app-status').textContent()).toBe('private');
    // the owner (a team of one, paid plan) may use it
    const url = await approveOnConsent(page, app.clientId, 'p');
    expect(url.searchParams.get('code')).toBeTruthy();

    // a paid member of the owner's team may use it too
    const team = await createTeam(server.deps, owner.user, { name: 'Tool Team' });
    const member = await server.account({ plan: 'standard' });
    await addMember(
      server.deps,
      team.id,
      { username: member.user.username },
      { userId: owner.user.id, ip: null },
    );
    const inTeam = await visitor();
    await signInPage(inTeam.page, server.url, member);
    const memberUrl = await approveOnConsent(inTeam.page, app.clientId, 'm');
    expect(memberUrl.searchParams.get('code')).toBeTruthy();
    await inTeam.context.close();

    const outsider = await server.account({ plan: 'enterprise' });
    const other = await visitor();
    await signInPage(
      other.page,
      server.url,
      outsider,
      authorizePath({ clientId: app.clientId, redirectUri: callback() }),
    );
    expect(await other.page.locator('h1').textContent()).toBe('App not available');
    expect(await other.page.getByRole('alert').textContent()).toContain('private app');
    await other.context.close();

    const basicOwner = await server.account({ plan: 'basic' });
    const basic = await visitor();
    await signInPage(basic.page, server.url, basicOwner);
    const cheap = await registerApp(basic.page, 'Basic Tool');
    await basic.page.goto(`/developer/apps/${cheap.appId}`);
    await basic.page.getByRole('button', { name: 'Deploy as private' }).click();
    await basic.page.goto(authorizePath({ clientId: cheap.clientId, redirectUri: callback() }));
    expect(await basic.page.locator('h1').textContent()).toBe('App not available');
    expect(await basic.page.getByRole('alert').textContent()).toContain('paid plan');
    await basic.context.close();
    await context.close();
  });
});

describe('public apps and the operator', () => {
  it('submits for review, the operator approves on the operator page, the app is listed', async () => {
    const owner = await server.account({ plan: 'premier' });
    const operator = await server.account({ plan: 'basic' });
    await setOperator(server.deps, operator.user.id, true);
    const dev = await visitor();
    await signInPage(dev.page, server.url, owner);
    const app = await registerApp(dev.page, 'Directory App');
    await dev.page.goto(`/developer/apps/${app.appId}`);
    await dev.page.getByRole('button', { name: 'Submit for public review' }).click();
    expect(await dev.page.getByRole('status').textContent()).toContain('submitted for review');
    expect(await dev.page.locator('#app-status').textContent()).toBe('draft');

    // a non-operator cannot open the operator page
    await dev.page.goto('/operator/apps');
    expect(await dev.page.locator('h1').textContent()).toBe('Operators only');

    const op = await visitor();
    await signInPage(op.page, server.url, operator, '/operator/apps');
    const row = op.page.locator(`#app-${app.appId}`);
    expect(await row.textContent()).toContain('pending');
    await row.getByRole('button', { name: 'Approve Directory App' }).click();
    expect(await op.page.locator(`#app-${app.appId}`).textContent()).toContain('public');

    await dev.page.goto('/apps');
    expect(await dev.page.locator('ul.directory').textContent()).toContain('Directory App');

    // anyone may now authorize it
    const user = await server.account({ plan: 'basic' });
    const u = await visitor();
    await signInPage(u.page, server.url, user);
    const url = await approveOnConsent(u.page, app.clientId, 'pub');
    const res = await exchange(server.url, tokenFields(app, url.searchParams.get('code')!));
    expect((await server.client.get('/v3/users/me', { token: res.body.access_token })).body.id).toBe(
      user.user.id,
    );
    for (const v of [dev, op, u]) await v.context.close();
  });
});

describe('escaping and accessibility', () => {
  const NAME = '<script>alert("x")</script><b>Evil</b> & co';

  it('shows a <script> app name as text on every page, even with JavaScript on', async () => {
    const owner = await server.account({ plan: 'premier' });
    await setOperator(server.deps, owner.user.id, true);
    const { context, page } = await visitor(true);
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs += 1;
      await d.dismiss();
    });
    await signInPage(page, server.url, owner);
    const app = await registerApp(page, NAME);
    expect(await page.locator('h1').textContent()).toBe(`App registered: ${NAME}`);
    const pages = [
      `/developer/apps/${app.appId}`,
      '/developer/apps',
      authorizePath({ clientId: app.clientId, redirectUri: callback() }),
      '/account/apps',
      '/operator/apps',
    ];
    for (const path of pages) {
      await page.goto(path);
      expect(await page.locator('b', { hasText: 'Evil' }).count(), path).toBe(0);
      expect(await page.content(), path).toContain('&lt;script&gt;alert(');
      expect(await page.locator('body').textContent(), path).toContain(NAME);
    }
    expect(await page.title()).not.toContain('<b>');
    expect(dialogs).toBe(0);
    await context.close();
  });

  /** Every form control has a label or accessible name; the page has a language and one h1. */
  async function auditPage(page: Page, path: string) {
    await page.goto(path);
    const problems = await page.evaluate(() => {
      // runs in the page: the DOM is not in this project's TypeScript lib
      const { document, getComputedStyle } = globalThis as any;
      const out: string[] = [];
      if (!document.documentElement.lang) out.push('no lang');
      if (document.querySelectorAll('h1').length !== 1) out.push('not exactly one h1');
      for (const el of document.querySelectorAll('input, select, textarea') as any[]) {
        if (el.type === 'hidden') continue;
        const named =
          (el.labels?.length ?? 0) > 0 || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
        if (!named) out.push(`unlabelled ${el.tagName} ${el.name}`);
      }
      for (const b of document.querySelectorAll('button') as any[])
        if (!(b.textContent ?? '').trim() && !b.getAttribute('aria-label')) out.push('button without a name');
      // WCAG contrast of the text colours used on these pages
      const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) => {
        const [r, g, b] = rgb(c).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = (el: any): string => {
        for (let e = el; e; e = e.parentElement) {
          const bg = getComputedStyle(e).backgroundColor;
          if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
        }
        return 'rgb(255, 255, 255)';
      };
      for (const el of document.querySelectorAll(
        'p, a, button, label, th, td, dt, dd, li, h1, h2, .muted, .error',
      )) {
        if (!(el.textContent ?? '').trim()) continue;
        const fg = lum(getComputedStyle(el).color);
        const bg = lum(background(el));
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        if (ratio < 4.5) out.push(`contrast ${ratio.toFixed(2)} on ${el.tagName}.${el.className}`);
      }
      return out;
    });
    expect(problems, path).toEqual([]);
  }

  it('labels every control, keeps contrast and a visible keyboard focus on every page', async () => {
    const owner = await server.account({ plan: 'premier' });
    await setOperator(server.deps, owner.user.id, true);
    const created = await createApp(server.deps, owner.user, {
      name: 'Audit app',
      redirectUris: [callback()],
      scopes: { users_read: 'required', surveys_read: 'optional' },
    });
    const { context, page } = await visitor(true);
    await auditPage(page, '/login');
    await signInPage(page, server.url, owner);
    for (const path of [
      '/account',
      '/account/apps',
      '/developer/apps',
      '/developer/apps/new',
      `/developer/apps/${created.app.id}`,
      '/apps',
      '/operator/apps',
      authorizePath({ clientId: created.app.client_id, redirectUri: callback() }),
      authorizePath({ clientId: 'unknown', redirectUri: callback() }),
    ])
      await auditPage(page, path);
    await context.close();
  });

  it('moves keyboard focus in reading order with a visible outline', async () => {
    const owner = await server.account({ plan: 'premier' });
    const created = await createApp(server.deps, owner.user, {
      name: 'Focus app',
      redirectUris: [callback()],
      scopes: { users_read: 'required', surveys_read: 'optional', collectors_read: 'optional' },
    });
    const { context, page } = await visitor(true);
    await page.goto('/login');
    const focused = () =>
      page.evaluate(() => {
        const { document, getComputedStyle } = globalThis as any;
        const el = document.activeElement;
        return { id: el.id || el.textContent?.trim(), outline: getComputedStyle(el).outlineStyle };
      });
    // autofocus runs after the load event: wait for it (a loaded machine is slower to get there)
    await expect.poll(async () => (await focused()).id).toBe('username');
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ id: 'password', outline: 'solid' });
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('Sign in');
    await page.getByLabel('Username').fill(owner.user.username);
    await page.getByLabel('Password').fill(owner.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/:\d+\/$/);
    await page.goto(authorizePath({ clientId: created.app.client_id, redirectUri: callback() }));
    await page.getByLabel('View Surveys').focus();
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      order.push((await focused()).id!);
    }
    expect(order).toEqual(['scope-collectors_read', 'Allow', 'Deny']);
    await context.close();
  });
});
