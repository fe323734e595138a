// A survey's theme over HTTP: the builder's theme page (ready themes, preview without saving,
// every refusal naming its field), the survey's theme_id in the API (a string), and the
// respondent page drawn in it (its stylesheet, its logo served with the survey, sharing tags).
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { csrfToken, openEnded, seedSurvey, signIn, smOf, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let survey: { id: string; edit_url: string };
let sm: string;
let respondentPath: string;

const tk = () => ({ token: owner.token });
const themePath = () => `/create/theme?sm=${sm}`;

/** Posts the theme form as a browser does (multipart), with the session's cookies. */
async function postTheme(fields: Record<string, string>, logo?: { name: string; bytes: Buffer }) {
  const page = await web.get(themePath());
  const csrf = csrfToken(page.text);
  const form = new FormData();
  form.append('_csrf', csrf);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (logo) form.append('logo', new Blob([logo.bytes]), logo.name);
  const res = await fetch(`${server.url}${themePath()}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const GOOD = {
  primary_color: '#6a1b9a',
  background_color: '#fdf8ff',
  text_color: '#211a24',
  font: 'serif',
  button_shape: 'pill',
  intent: 'save',
};

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  web = await signIn(server, owner);
  const seeded = await seedSurvey(server, owner, {
    title: 'Brand check',
    questions: { why: openEnded('Why?') },
    collector: 'weblink',
  });
  survey = seeded.survey;
  sm = smOf(survey.edit_url);
  respondentPath = new URL(seeded.collector.url).pathname;
});
afterAll(() => server.close());

describe('theme page', () => {
  it('shows the form, the ready themes and a sample in the default look; the editor links to it', async () => {
    const page = await web.get(themePath());
    expect(page.status).toBe(200);
    expect(page.text).toContain('Apply Forest');
    expect(page.text).toContain('class="theme-preview"');
    expect(page.text).toMatch(/href="\/r\/theme-preview\.css\?p=0b5cad&amp;b=ffffff/);
    expect((await web.get(`/create/?sm=${sm}`)).text).toContain(`href="/create/theme?sm=${sm}"`);
  });

  it('refuses what is wrong, naming the field and saying why', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ font: 'Comic Sans' }, 'font: unknown font'],
      [{ button_shape: 'blob' }, 'button_shape: unknown shape'],
      [{ primary_color: 'red' }, 'primary_color: a colour is written #rrggbb'],
      [
        { text_color: '#999999', background_color: '#ffffff' },
        'text_color: its contrast with background_color is 2.84:1',
      ],
      [{ primary_color: '#ffcc00' }, 'primary_color: its contrast with background_color is'],
    ];
    for (const [change, message] of cases) {
      const res = await postTheme({ ...GOOD, ...change });
      expect(res.status, message).toBe(400);
      expect(res.text).toContain(message);
    }
    const notImage = await postTheme(GOOD, { name: 'logo.png', bytes: Buffer.from('<svg onload=alert(1)>') });
    expect(notImage.status).toBe(400);
    expect(notImage.text).toContain('logo: the file is not a PNG image');
    const svg = await postTheme(GOOD, { name: 'logo.svg', bytes: Buffer.from('<svg/>') });
    expect(svg.text).toContain('logo: choose a PNG, JPEG, GIF or WebP image');
    const big = await postTheme(GOOD, {
      name: 'logo.png',
      bytes: Buffer.concat([PNG, Buffer.alloc(600 * 1024)]),
    });
    expect(big.text).toContain('logo: the image is larger than 512 KB');
    expect((await server.client.get(`/v3/surveys/${survey.id}`, tk())).body.theme_id).toBeUndefined();
  });

  it('previews typed fields without saving', async () => {
    const res = await postTheme({ ...GOOD, intent: 'preview' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Preview (not saved)');
    expect(res.text).toMatch(
      /\/r\/theme-preview\.css\?p=6a1b9a&amp;b=fdf8ff&amp;t=211a24&amp;f=serif&amp;s=pill/,
    );
    const css = await fetch(`${server.url}/r/theme-preview.css?p=6a1b9a&b=fdf8ff&t=211a24&f=serif&s=pill`);
    expect(await css.text()).toContain('.theme-preview {');
    expect((await server.client.get(`/v3/surveys/${survey.id}`, tk())).body.theme_id).toBeUndefined();
  });

  it('saves the theme with its logo; the API names it, the respondent page wears it', async () => {
    const saved = await postTheme(GOOD, { name: 'brand.png', bytes: PNG });
    expect(saved.status, saved.text).toBe(303);
    expect(saved.location).toContain('done=theme');
    const themeId = (await server.client.get(`/v3/surveys/${survey.id}`, tk())).body.theme_id;
    expect(themeId).toMatch(/^[0-9]+$/);

    const page = await fetch(`${server.url}${respondentPath}`);
    const html = await page.text();
    const css = new RegExp(`href="(/r/themes/${themeId}/[0-9a-z]+\\.css)"`).exec(html)![1];
    const sheet = await fetch(`${server.url}${css}`);
    expect(sheet.headers.get('cache-control')).toContain('immutable');
    const text = await sheet.text();
    expect(text).toContain('--accent: #6a1b9a');
    expect(text).toContain('--theme-bg: #fdf8ff');
    expect(text).toContain('button, .button { border-radius: 999px; }');
    expect(text).toContain('Charter');
    const logo = new RegExp(`src="(/r/themes/${themeId}/[0-9a-z]+/logo)"`).exec(html)![1];
    const image = await fetch(`${server.url}${logo}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    // Sharing tags: title, description and the logo as an absolute URL.
    expect(html).toContain('<meta property="og:title" content="Brand check">');
    expect(html).toContain(`<meta property="og:image" content="${server.url}${logo}">`);
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    expect(html).toContain(`<meta property="og:url" content="${server.url}${respondentPath}">`);
    // A wrong version or id is not found.
    expect((await fetch(`${server.url}/r/themes/${themeId}/zz.css`)).status).toBe(404);
  });

  it('a ready theme keeps the logo; a new survey created with the theme_id wears it too', async () => {
    const res = await postTheme({ intent: 'ready:forest' });
    expect(res.status).toBe(303);
    const themeId = (await server.client.get(`/v3/surveys/${survey.id}`, tk())).body.theme_id;
    const html = await (await fetch(`${server.url}${respondentPath}`)).text();
    expect(html).toMatch(/src="\/r\/themes\/[0-9]+\/[0-9a-z]+\/logo"/);
    const css = /href="(\/r\/themes\/[0-9]+\/[0-9a-z]+\.css)"/.exec(html)![1];
    expect(await (await fetch(`${server.url}${css}`)).text()).toContain('--accent: #1e6b3a');

    const copy = await server.client.post(
      '/v3/surveys',
      { title: 'Same look', theme_id: Number(themeId) },
      tk(),
    );
    expect(copy.body.theme_id).toBe(themeId);
    const c = await server.client.post(`/v3/surveys/${copy.body.id}/collectors`, { type: 'weblink' }, tk());
    const other = await (await fetch(c.body.url)).text();
    expect(other).toContain(css);
    // Another account's theme id names no theme for it: the default look.
    const stranger = await server.account();
    const foreign = await server.client.post(
      '/v3/surveys',
      { title: 'Not mine', theme_id: Number(themeId) },
      { token: stranger.token },
    );
    const fc = await server.client.post(
      `/v3/surveys/${foreign.body.id}/collectors`,
      { type: 'weblink' },
      { token: stranger.token },
    );
    expect(await (await fetch(fc.body.url)).text()).not.toContain('/r/themes/');
  });

  it('a deleted survey hands its theme to a survey still wearing it; the last one takes the row and logo along', async () => {
    const logos = () => readdirSync(server.config.uploads.dir).filter((f) => f.startsWith('theme-'));
    const first = (await server.client.post('/v3/surveys', { title: 'Heirloom' }, tk())).body;
    const firstSm = new URL(first.edit_url).searchParams.get('sm')!;
    const before = logos();
    sm = firstSm;
    expect((await postTheme(GOOD, { name: 'brand.png', bytes: PNG })).status).toBe(303);
    const [logoFile] = logos().filter((f) => !before.includes(f));
    expect(logoFile).toBeDefined();
    const themeId = (await server.client.get(`/v3/surveys/${first.id}`, tk())).body.theme_id;
    const heir = (await server.client.post('/v3/surveys', { title: 'Heir', theme_id: Number(themeId) }, tk()))
      .body;
    const c = await server.client.post(`/v3/surveys/${heir.id}/collectors`, { type: 'weblink' }, tk());

    expect((await server.client.delete(`/v3/surveys/${first.id}`, tk())).status).toBe(200);
    const html = await (await fetch(c.body.url)).text();
    const logo = new RegExp(`src="(/r/themes/${themeId}/[0-9a-z]+/logo)"`).exec(html)?.[1];
    expect(logo).toBeDefined();
    expect((await fetch(`${server.url}${logo}`)).status).toBe(200);
    expect(logos()).toContain(logoFile);

    expect((await server.client.delete(`/v3/surveys/${heir.id}`, tk())).status).toBe(200);
    expect(logos()).not.toContain(logoFile);
  });
});
