// The optional CAPTCHA (Turnstile or hCaptcha) on the respondent pages, against a local stand-in
// for the provider's siteverify: the widget and the page's policy only when configured, a rejected
// token kept aside, no token or an unreachable provider counted, and nothing sent when it is off.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from '../../src/config.js';
import type { TestAccount } from '../helpers/accounts.js';
import { openEnded, seedSurvey, signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Stands in for siteverify: records each form it is sent; "good" passes, any other token fails;
 * while `down`, it drops every connection unanswered; while `silent`, it never answers. */
class SiteVerify {
  readonly sent: Array<Record<string, string>> = [];
  down = false;
  silent = false;
  dropped = 0;
  private server: Server | undefined;
  url = '';
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      if (this.down) {
        this.dropped++;
        req.socket.destroy();
        return;
      }
      if (this.silent) return;
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        this.sent.push(form);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: form.response === 'good' }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/siteverify`;
    return this;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const verify = new SiteVerify();
let withCaptcha: TestServer;
let without: TestServer;
let owner: TestAccount;
let ownerOff: TestAccount;

beforeAll(async () => {
  await verify.start();
  const env = { RESPONDENT_MIN_PAGE_MS: '0', CAPTCHA_VERIFY_URL: verify.url };
  withCaptcha = await startServer({
    env: {
      ...env,
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site-key-1',
      CAPTCHA_SECRET_KEY: 'secret-key-1',
    },
  });
  // the verify URL is set here too: with no provider, still nothing may reach it
  without = await startServer({ env });
  owner = await withCaptcha.account();
  ownerOff = await without.account();
});
afterAll(async () => {
  await withCaptcha.close();
  await without.close();
  await verify.stop();
});

async function onePage(server: TestServer, account: TestAccount) {
  const s = await seedSurvey(server, account, {
    pages: [{ questions: { a: openEnded('Your name?') } }],
    collector: { type: 'weblink' },
  });
  return { s, path: new URL(s.collector.url).pathname };
}

/** Opens the page as a browser would, then posts its form with `extra` fields (the widget's
 * token among them when given); answers the page and where the post sent the respondent. */
async function respond(server: TestServer, path: string, extra: Record<string, string>) {
  const page = await fetch(new URL(path, server.url));
  const html = await page.text();
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const q = /name="q_([0-9]+)"/.exec(html)?.[1] ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf: field('csrf'),
      p: field('p'),
      started: field('started'),
      shown: field('shown'),
      leave_this_blank: '',
      nav: 'next',
      [`q_${q}`]: 'Ada',
      ...extra,
    }).toString(),
    redirect: 'manual',
  });
  const after =
    res.status === 303
      ? await fetch(new URL(res.headers.get('location')!, server.url), { headers: { cookie } })
      : res;
  const thanked = /Thank you/i.test(await after.text());
  return { html, csp: page.headers.get('content-security-policy') ?? '', thanked };
}

async function tally(server: TestServer, account: TestAccount, surveyId: string) {
  const all = await server.client.get(`/v3/surveys/${surveyId}/responses?include_flagged=true&per_page=100`, {
    token: account.token,
  });
  expect(all.status, all.text).toBe(200);
  const flagged = all.body.data.filter((r: { flagged: boolean }) => r.flagged).length as number;
  return { counted: all.body.data.length - flagged, flagged };
}

describe('a configured CAPTCHA', () => {
  it('puts the widget on the page and its origin in the page’s policy', async () => {
    const { path } = await onePage(withCaptcha, owner);
    const { html, csp } = await respond(withCaptcha, path, {});
    expect(html).toContain('<div class="cf-turnstile" data-sitekey="site-key-1"></div>');
    expect(html).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"');
    expect(csp).toMatch(/script-src 'self' https:\/\/challenges\.cloudflare\.com/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/challenges\.cloudflare\.com/);
  });

  it('puts the widget on each screen of a survey shown one question at a time', async () => {
    const { s, path } = await onePage(withCaptcha, owner);
    const patched = await withCaptcha.client.patch(
      `/v3/surveys/${s.id}`,
      { question_layout: 'one_at_a_time' },
      { token: owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const { html } = await respond(withCaptcha, path, { 'cf-turnstile-response': 'good' });
    expect(html).toContain('name="screen"');
    expect(html).toContain('<div class="cf-turnstile" data-sitekey="site-key-1"></div>');
  });

  it('counts a token the provider accepts and keeps aside one it rejects, for the reason shown to the owner', async () => {
    const { s, path } = await onePage(withCaptcha, owner);
    const before = verify.sent.length;
    // both see the thank-you page: a rejected token is kept aside, not refused
    expect((await respond(withCaptcha, path, { 'cf-turnstile-response': 'good' })).thanked).toBe(true);
    expect((await respond(withCaptcha, path, { 'cf-turnstile-response': 'bad' })).thanked).toBe(true);
    expect(await tally(withCaptcha, owner, s.id)).toEqual({ counted: 1, flagged: 1 });
    const sent = verify.sent.slice(before);
    expect(sent.map((f) => [f.secret, f.response])).toEqual([
      ['secret-key-1', 'good'],
      ['secret-key-1', 'bad'],
    ]);
    expect(sent[0].remoteip).toBeTruthy();
    const web = await signIn(withCaptcha, owner);
    const review = await web.get(`/analyze/${s.survey.analyze_url.split('/').pop()}/flagged`);
    expect(review.text).toContain('Failed the CAPTCHA');
  });

  it('counts a post without a token (no JavaScript) and asks the provider nothing', async () => {
    const { s, path } = await onePage(withCaptcha, owner);
    const before = verify.sent.length;
    expect((await respond(withCaptcha, path, {})).thanked).toBe(true);
    expect(await tally(withCaptcha, owner, s.id)).toEqual({ counted: 1, flagged: 0 });
    expect(verify.sent.length).toBe(before);
  });

  it('counts a post while the provider cannot be reached', async () => {
    const { s, path } = await onePage(withCaptcha, owner);
    verify.down = true;
    try {
      expect((await respond(withCaptcha, path, { 'cf-turnstile-response': 'bad' })).thanked).toBe(true);
    } finally {
      verify.down = false;
    }
    expect(verify.dropped).toBeGreaterThan(0);
    expect(await tally(withCaptcha, owner, s.id)).toEqual({ counted: 1, flagged: 0 });
  });

  it('counts a post once the provider has been silent for 3 s', async () => {
    const { s, path } = await onePage(withCaptcha, owner);
    verify.silent = true;
    const t0 = Date.now();
    try {
      expect((await respond(withCaptcha, path, { 'cf-turnstile-response': 'bad' })).thanked).toBe(true);
    } finally {
      verify.silent = false;
    }
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(2900);
    expect(waited).toBeLessThan(8000);
    expect(await tally(withCaptcha, owner, s.id)).toEqual({ counted: 1, flagged: 0 });
  }, 20_000);
});

describe('without a CAPTCHA (the default)', () => {
  it('shows no widget, allows no third party, and sends nothing whatever the form carries', async () => {
    const { s, path } = await onePage(without, ownerOff);
    const before = verify.sent.length;
    const { html, csp } = await respond(without, path, { 'cf-turnstile-response': 'bad' });
    expect(html).not.toContain('cf-turnstile');
    expect(html).not.toContain('h-captcha');
    expect(csp).not.toContain('cloudflare');
    expect(csp).not.toContain('frame-src');
    expect(await tally(without, ownerOff, s.id)).toEqual({ counted: 1, flagged: 0 });
    expect(verify.sent.length).toBe(before);
  });
});

describe('the settings', () => {
  it('refuse a provider without its keys, with the other errors at once; mask the secret; default the endpoint', () => {
    let error: unknown;
    try {
      loadConfig({ CAPTCHA_PROVIDER: 'hcaptcha', SCRYPT_LOG_N: '8' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('SCRYPT_LOG_N');
    expect(message).toContain('CAPTCHA_SITE_KEY');
    expect(message).toContain('CAPTCHA_SECRET_KEY');
    const env = { CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET_KEY: 'hush' };
    expect(loadConfig(env).captcha).toEqual({
      provider: 'hcaptcha',
      siteKey: 'site',
      secretKey: 'hush',
      verifyUrl: 'https://api.hcaptcha.com/siteverify',
    });
    const described = describeConfig(env);
    expect(described.find((v) => v.name === 'CAPTCHA_SECRET_KEY')?.value).toBe('****');
    expect(described.find((v) => v.name === 'CAPTCHA_SITE_KEY')?.value).toBe('site');
    expect(loadConfig({}).captcha).toBeNull();
  });
});
