// Embedding and sharing a web link collector over HTTP: `embed_origins` in the API (refused with
// the field named unless each is https://host[:port]); framing refused by default and allowed to
// exactly the listed origins; the respondent's cookies made for a third-party frame over https;
// the collect page's QR code, snippets and allowed-sites form; /embed.js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { csrfToken, openEnded, seedSurvey, signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let surveyId: string;
let collectUrl: string;

const tk = () => ({ token: owner.token });

async function weblink() {
  const c = await server.client.post(`/v3/surveys/${surveyId}/collectors`, { type: 'weblink' }, tk());
  expect(c.status, c.text).toBe(201);
  return c.body as { id: string; url: string; embed_origins: string[] };
}

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
  owner = await server.account();
  const s = await seedSurvey(server, owner, {
    title: 'Shop feedback',
    questions: { why: openEnded('Why?') },
  });
  surveyId = s.id;
  collectUrl = s.survey.collect_url;
});
afterAll(() => server.close());

describe('embed_origins', () => {
  it('is an extension field of weblink collectors, empty by default, each origin checked', async () => {
    const c = await weblink();
    expect(c.embed_origins).toEqual([]);
    for (const bad of [
      'http://shop.example.com',
      'https://*.example.com',
      'https://shop.example.com/path',
      'shop.example.com',
      'https://a.example:99999',
    ]) {
      const res = await server.client.patch(`/v3/collectors/${c.id}`, { embed_origins: [bad] }, tk());
      expect(res.status, bad).toBe(400);
      expect(res.body.error.id).toBe('1002');
      expect(JSON.stringify(res.body)).toContain('embed_origins');
    }
    const ok = await server.client.patch(
      `/v3/collectors/${c.id}`,
      { embed_origins: ['https://Shop.Example.com', 'https://b.example:8443/', 'https://shop.example.com'] },
      tk(),
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.embed_origins).toEqual(['https://shop.example.com', 'https://b.example:8443']);
    expect((await server.client.get(`/v3/collectors/${c.id}`, tk())).body.embed_origins).toEqual([
      'https://shop.example.com',
      'https://b.example:8443',
    ]);
    const email = await server.client.post(
      `/v3/surveys/${surveyId}/collectors`,
      { type: 'email', embed_origins: ['https://shop.example.com'] },
      tk(),
    );
    expect(email.status).toBe(400);
    expect(email.body.error.message).toContain('embed_origins');
  });

  it('framing is refused by default and allowed to exactly the listed origins; cookies fit a frame', async () => {
    const closed = await weblink();
    const plain = await fetch(closed.url);
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(plain.headers.get('x-frame-options')).toBe('DENY');
    expect(plain.headers.get('set-cookie')).toMatch(/SameSite=Lax/i);

    const open = await weblink();
    await server.client.patch(
      `/v3/collectors/${open.id}`,
      { embed_origins: ['https://shop.example.com'] },
      tk(),
    );
    const framed = await fetch(open.url, { headers: { 'x-forwarded-proto': 'https' } });
    const csp = framed.headers.get('content-security-policy')!;
    expect(csp).toMatch(/frame-ancestors https:\/\/shop\.example\.com(;|$)/);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const cookie = framed.headers.get('set-cookie')!;
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Partitioned/);
    // the page tells the embedding page its height
    expect(await framed.text()).toContain('/assets/respond-frame.js');
    // the other collector of the survey stays unframeable
    expect((await fetch(closed.url)).headers.get('content-security-policy')).toContain(
      "frame-ancestors 'none'",
    );
  });
});

describe('QR code and the collect page', () => {
  it('serves the link as an SVG and a PNG QR code; not for unknown tokens', async () => {
    const c = await weblink();
    const svg = await fetch(`${c.url}/qr.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg[^>]*viewBox/);
    const png = await fetch(`${c.url}/qr.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(1200);
    expect((await fetch(`${server.url}/r/NOSUCHTOKEN1/qr.svg`)).status).toBe(404);
  });

  it('shows the QR code, download buttons and snippets; saves allowed sites, refusing a bad one by name', async () => {
    const c = await weblink();
    const web = await signIn(server, owner);
    const path = new URL(collectUrl).pathname + new URL(collectUrl).search;
    const page = await web.get(path);
    expect(page.text).toContain(`src="${c.url}/qr.svg"`);
    expect(page.text).toContain(`href="${c.url}/qr.png" download`);
    expect(page.text).toMatch(/\/embed\.js(&quot;|&#34;|") data-survey=/);
    expect(page.text).toContain('&lt;iframe src=');
    const csrf = csrfToken(page.text);
    const sm = new URL(collectUrl).searchParams.get('sm');
    const bad = await web.post(`/collect/collectors/${c.id}/embed?sm=${sm}`, {
      _csrf: csrf,
      embed_origins: 'https://ok.example\nftp://nope.example',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('embed_origins');
    expect(bad.text).toContain('ftp://nope.example');
    const good = await web.post(`/collect/collectors/${c.id}/embed?sm=${sm}`, {
      _csrf: csrf,
      embed_origins: 'https://ok.example\nhttps://two.example:444',
    });
    expect(good.status).toBe(303);
    expect((await server.client.get(`/v3/collectors/${c.id}`, tk())).body.embed_origins).toEqual([
      'https://ok.example',
      'https://two.example:444',
    ]);
  });

  it('serves /embed.js', async () => {
    const res = await fetch(`${server.url}/embed.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(await res.text()).toContain('survey-service:height');
  });
});
