// The one module tests import for their set-up: a test server, accounts and the shared browser
// (re-exported), a cookie-keeping page session signed in through the real sign-in form, the one
// CSRF-token scraper, and seeded surveys created through the real /v3 API with every id a test needs.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiClient } from './client.js';

export { type AccountOptions, createAccount, type TestAccount } from './accounts.js';
export {
  downloaded,
  releaseBrowser,
  serverAndBrowser,
  sharedBrowser,
  signedInPages,
  signInPage,
  submitSignIn,
} from './browser.js';
export { ApiClient, type ApiResponse, errorCode, type RequestOptions } from './client.js';
export {
  CA_HOST,
  EU_HOST,
  type ServerOptions,
  scaleOut,
  startServer,
  type TestServer,
} from './server.js';

// ---------------------------------------------------------------------------------------------
// Pages over HTTP

export interface WebResponse {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

type Form = Record<string, string | string[]>;

/**
 * The CSRF token of the first form in `html`: `_csrf` on the signed-in pages and the OAuth
 * consent, `csrf` on the respondent's pages (/r/…). Throws when the page has none.
 */
export function csrfToken(html: string, field: '_csrf' | 'csrf' = '_csrf'): string {
  const m = new RegExp(`name="${field}" value="([^"]+)"`).exec(html);
  if (!m) throw new Error(`no ${field} token on the page`);
  return m[1];
}

/** The cookie header a browser would send for these cookies. */
export function cookieHeader(cookies: ReadonlyMap<string, string>): string {
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * A cookie-keeping HTTP client for the pages, as a browser without script: it keeps what
 * Set-Cookie says, posts urlencoded forms, and never follows redirects on its own.
 */
export class WebSession {
  readonly cookies = new Map<string, string>();
  readonly setCookieHeaders: string[] = [];

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, form?: Form): Promise<WebResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookies.size) headers.cookie = cookieHeader(this.cookies);
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) params.append(k, one);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      this.setCookieHeaders.push(c);
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: res.status,
      location: res.headers.get('location'),
      headers: res.headers,
      text: await res.text(),
    };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** Posts `form` as it is (no token added: for tests of what a form without one gets). */
  post(path: string, form: Form) {
    return this.request('POST', path, form);
  }

  /**
   * Posts `form` to `path` with the CSRF token of the page `from` (read just before, as a browser
   * submits the form it shows); `from` defaults to `path`. A `_csrf` in `form` is sent unchanged.
   */
  async postForm(path: string, form: Form, from = path): Promise<WebResponse> {
    const _csrf = form._csrf ?? (await this.csrf(from));
    return this.post(path, { _csrf, ...form });
  }

  /** GETs a page and returns the CSRF token of its first form. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return m[1];
  }

  /** Posts the sign-in form (the answer is the test's to check). */
  async signIn(username: string, password: string): Promise<WebResponse> {
    const _csrf = await this.csrf('/login');
    return this.post('/login', { _csrf, username, password });
  }
}

type Base = string | { url: string };
type Credentials = { user: { username: string }; password: string };

/**
 * A page session signed in as `account` through the real sign-in form (checked: 303). Give the
 * password when it is not the account's own (`{ username, password }` also works).
 */
export async function signIn(
  base: Base,
  account: Credentials | { username: string; password: string },
  headers: Record<string, string> = {},
): Promise<WebSession> {
  const web = new WebSession(typeof base === 'string' ? base : base.url, headers);
  const username = 'user' in account ? account.user.username : account.username;
  const res = await web.signIn(username, account.password);
  expect(res.status, `sign-in of ${username}: ${res.text.slice(0, 200)}`).toBe(303);
  return web;
}

// ---------------------------------------------------------------------------------------------
// Seeded surveys

const H = (heading: string) => [{ heading }];

/**
 * One question of every family and subtype the product supports (src/domain/surveys/question-
 * schema.ts SUBTYPES), and each display type (image choice, star rating, slider, file upload),
 * keyed by a short name.
 */
export const EVERY_KIND: Record<string, Record<string, any>> = {
  single_vertical: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H('Favourite colour?'),
    answers: { choices: [{ text: 'Red' }, { text: 'Blue' }], other: [{ text: 'Other colour' }] },
  },
  single_horiz: {
    family: 'single_choice',
    subtype: 'horiz',
    headings: H('Yes or no?'),
    answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
  },
  single_menu: {
    family: 'single_choice',
    subtype: 'menu',
    headings: H('Country?'),
    answers: { choices: [{ text: 'France' }, { text: 'Germany' }] },
  },
  single_two_col: {
    family: 'single_choice',
    subtype: 'vertical_two_col',
    headings: H('Season?'),
    answers: { choices: [{ text: 'Spring' }, { text: 'Summer' }, { text: 'Autumn' }, { text: 'Winter' }] },
  },
  single_three_col: {
    family: 'single_choice',
    subtype: 'vertical_three_col',
    headings: H('Shape?'),
    answers: { choices: [{ text: 'Circle' }, { text: 'Square' }, { text: 'Triangle' }] },
  },
  single_image: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H('Which logo?'),
    display_options: { display_type: 'image_choice', display_subtype: '' },
    answers: {
      choices: [
        { text: 'A', image: { url: 'https://example.com/a.png' } },
        { text: 'B', image: { url: 'https://example.com/b.png' } },
      ],
    },
  },
  multiple_vertical: {
    family: 'multiple_choice',
    subtype: 'vertical',
    headings: H('Which fruit?'),
    answers: { choices: [{ text: 'Apple' }, { text: 'Pear' }, { text: 'Plum' }] },
  },
  multiple_horiz: {
    family: 'multiple_choice',
    subtype: 'horiz',
    headings: H('Which pets?'),
    answers: { choices: [{ text: 'Cat' }, { text: 'Dog' }], other: { text: 'Another pet' } },
  },
  multiple_two_col: {
    family: 'multiple_choice',
    subtype: 'vertical_two_col',
    headings: H('Which days?'),
    answers: { choices: [{ text: 'Monday' }, { text: 'Tuesday' }] },
  },
  multiple_three_col: {
    family: 'multiple_choice',
    subtype: 'vertical_three_col',
    headings: H('Which colours?'),
    answers: { choices: [{ text: 'Cyan' }, { text: 'Magenta' }, { text: 'Yellow' }] },
  },
  multiple_image: {
    family: 'multiple_choice',
    subtype: 'vertical',
    headings: H('Which pictures?'),
    display_options: { display_type: 'image_choice', display_subtype: '' },
    answers: {
      choices: [
        { text: 'Sea', image: { url: 'https://example.com/sea.png' } },
        { text: 'Hill', image: { url: 'https://example.com/hill.png' } },
      ],
    },
  },
  matrix_single: {
    family: 'matrix',
    subtype: 'single',
    headings: H('Rate each'),
    answers: {
      rows: [{ text: 'Speed' }, { text: 'Price' }],
      choices: [{ text: 'Bad' }, { text: 'Good' }, { text: 'N/A', is_na: true }],
    },
  },
  matrix_multi: {
    family: 'matrix',
    subtype: 'multi',
    headings: H('When free?'),
    answers: { rows: [{ text: 'Week' }, { text: 'Weekend' }], choices: [{ text: 'Am' }, { text: 'Pm' }] },
  },
  matrix_rating: {
    family: 'matrix',
    subtype: 'rating',
    headings: H('Rate service'),
    answers: {
      rows: [{ text: 'Staff' }],
      choices: [
        { text: 'Low', weight: 1 },
        { text: 'High', weight: 2 },
      ],
    },
  },
  matrix_ranking: {
    family: 'matrix',
    subtype: 'ranking',
    headings: H('Rank these'),
    answers: { rows: [{ text: 'Tea' }, { text: 'Coffee' }, { text: 'Water' }] },
  },
  matrix_menu: {
    family: 'matrix',
    subtype: 'menu',
    headings: H('Pick per row'),
    answers: {
      rows: [{ text: 'Mon' }, { text: 'Tue' }],
      cols: [
        { text: 'Meal', choices: [{ text: 'Soup' }, { text: 'Salad' }] },
        { text: 'Drink', choices: [{ text: 'Juice' }] },
      ],
    },
  },
  star_rating: {
    family: 'matrix',
    subtype: 'rating',
    headings: H('Stars?'),
    display_options: { display_type: 'emoji', display_subtype: 'star' },
    answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
  },
  open_single: { family: 'open_ended', subtype: 'single', headings: H('Your nickname') },
  open_essay: { family: 'open_ended', subtype: 'essay', headings: H('Tell us more') },
  open_multi: {
    family: 'open_ended',
    subtype: 'multi',
    headings: H('Two words'),
    answers: { rows: [{ text: 'First' }, { text: 'Second' }] },
  },
  open_numerical: {
    family: 'open_ended',
    subtype: 'numerical',
    headings: H('Numbers'),
    answers: { rows: [{ text: 'Age' }, { text: 'Height' }] },
    validation: { type: 'integer', min: 0, max: 300 },
  },
  slider: {
    family: 'open_ended',
    subtype: 'single',
    headings: H('How much?'),
    display_options: {
      display_type: 'slider',
      display_subtype: '',
      left_label: 'Little',
      right_label: 'Lots',
    },
    validation: { type: 'integer', min: 0, max: 100 },
  },
  file_upload: {
    family: 'open_ended',
    subtype: 'single',
    headings: H('Upload your CV'),
    display_options: { display_type: 'file_upload' },
  },
  demographic_us: {
    family: 'demographic',
    subtype: 'us',
    headings: H('Contact'),
    answers: { rows: [{ type: 'name', required: true }, { type: 'email' }] },
  },
  demographic_intl: { family: 'demographic', subtype: 'international', headings: H('Address') },
  datetime_both: {
    family: 'datetime',
    subtype: 'both',
    headings: H('When?'),
    answers: { rows: [{ text: 'Start' }] },
  },
  datetime_date: {
    family: 'datetime',
    subtype: 'date_only',
    headings: H('Birthday'),
    answers: { rows: [{ text: 'Date' }] },
  },
  datetime_time: {
    family: 'datetime',
    subtype: 'time_only',
    headings: H('Wake-up time'),
    answers: { rows: [{ text: 'Time' }] },
  },
  text_block: { family: 'presentation', subtype: 'descriptive_text', headings: H('Welcome <b>friend</b>') },
  image_block: {
    family: 'presentation',
    subtype: 'image',
    headings: [{ heading: 'Logo', image: { url: 'https://example.com/logo.png' } }],
  },
};

/** The every-kind survey's pages: choices, grids, typed answers, then the rest. */
const EVERY_KIND_PAGES: Array<{ title: string; keys: string[] }> = [
  {
    title: 'Choices',
    keys: Object.keys(EVERY_KIND).filter((k) => k.startsWith('single_') || k.startsWith('multiple_')),
  },
  {
    title: 'Grids',
    keys: Object.keys(EVERY_KIND).filter((k) => k.startsWith('matrix_') || k === 'star_rating'),
  },
  {
    title: 'Typed answers',
    keys: ['open_single', 'open_essay', 'open_multi', 'open_numerical', 'slider', 'file_upload'],
  },
  {
    title: 'About you',
    keys: ['text_block', 'image_block', 'demographic_us', 'demographic_intl'].concat(
      Object.keys(EVERY_KIND).filter((k) => k.startsWith('datetime_')),
    ),
  },
];

/** The simple survey: one page, a single choice ("Yes"/"No") and a text box. */
export const SIMPLE: Record<string, Record<string, any>> = {
  choice: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H('Do you like it?'),
    answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
  },
  text: { family: 'open_ended', subtype: 'single', headings: H('Why?') },
};

/** An open-ended single text box question body. */
export function openEnded(heading: string): Record<string, any> {
  return { family: 'open_ended', subtype: 'single', headings: H(heading) };
}

/** A single-choice (vertical) question body with these choices. */
export function singleChoice(heading: string, choices: string[]): Record<string, any> {
  return {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H(heading),
    answers: { choices: choices.map((text) => ({ text })) },
  };
}

export interface SeedPage {
  title?: string;
  description?: string;
  /** The page's questions in order, each a question create body under the name the test uses. */
  questions?: Record<string, Record<string, any>>;
}

export interface SeedOptions {
  title?: string;
  /** 'every' (default): every family, subtype and display type; 'simple': see SIMPLE. */
  kind?: 'every' | 'simple';
  /** A survey of this shape instead of a kind (for tests whose assertions depend on it). */
  pages?: SeedPage[];
  /** A one-page survey of these questions (short for `pages: [{ questions }]`). */
  questions?: Record<string, Record<string, any>>;
  /** Other fields of the survey create body (quiz_options, language, buttons_text, …). */
  body?: Record<string, unknown>;
  /** Also create a collector: its type (weblink, email, …) or its whole create body. */
  collector?: string | { type: string; [field: string]: unknown };
}

export interface SeededSurvey {
  id: string;
  /** The survey create answer (edit_url, collect_url, analyze_url, …). */
  survey: any;
  /** GET /v3/surveys/{id}/details after the create. */
  details: any;
  /** Page ids in order. */
  pages: string[];
  /** Question ids by the name given (EVERY_KIND's, SIMPLE's or the test's own). */
  questions: Record<string, string>;
  /** Question ids per family, in survey order. */
  byFamily: Record<string, string[]>;
  /** Choice ids by question name, in order (a matrix menu's are its columns' choices). */
  choices: Record<string, string[]>;
  /** Row ids by question name, in order. */
  rows: Record<string, string[]>;
  /** The question object of /details by name. */
  question(name: string): any;
  /** The collector asked for in the options (its create answer: id, url, …). */
  collector?: any;
}

/** The edit/collect token of a survey's links (the `sm` query parameter). */
export function smOf(url: string): string {
  return new URL(url).searchParams.get('sm')!;
}

/**
 * Creates a survey for `account` through POST /v3/surveys (its pages and questions in one body)
 * and reads it back; every id is returned by the names the questions were given.
 */
export async function seedSurvey(
  target: { client: ApiClient } | ApiClient,
  account: { token: string },
  options: SeedOptions = {},
): Promise<SeededSurvey> {
  const client = 'client' in target ? target.client : target;
  const token = account.token;
  const pages: SeedPage[] =
    options.pages ??
    (options.questions && [{ questions: options.questions }]) ??
    (options.kind === 'simple'
      ? [{ title: 'Only page', questions: SIMPLE }]
      : EVERY_KIND_PAGES.map((p) => ({
          title: p.title,
          questions: Object.fromEntries(p.keys.map((k) => [k, EVERY_KIND[k]])),
        })));
  const body = {
    title: options.title ?? (options.kind === 'simple' ? 'Simple survey' : 'Every kind'),
    ...options.body,
    pages: pages.map((p) => ({
      ...(p.title !== undefined && { title: p.title }),
      ...(p.description !== undefined && { description: p.description }),
      questions: Object.values(p.questions ?? {}),
    })),
  };
  const created = await client.post('/v3/surveys', body, { token });
  expect(created.status, created.text).toBe(201);
  const res = await client.get(`/v3/surveys/${created.body.id}/details`, { token });
  expect(res.status, res.text).toBe(200);
  const details = res.body;
  const byName: Record<string, any> = {};
  const byFamily: Record<string, string[]> = {};
  details.pages.forEach((page: any, i: number) => {
    const names = Object.keys(pages[i].questions ?? {});
    page.questions.forEach((q: any, j: number) => {
      byName[names[j]] = q;
      byFamily[q.family] = [...(byFamily[q.family] ?? []), q.id];
    });
  });
  const ids = (xs: any[] | undefined) => (xs ?? []).map((x) => x.id as string);
  const map = <T>(f: (q: any) => T) =>
    Object.fromEntries(Object.entries(byName).map(([k, q]) => [k, f(q)])) as Record<string, T>;
  const seeded: SeededSurvey = {
    id: created.body.id,
    survey: created.body,
    details,
    pages: ids(details.pages),
    questions: map((q) => q.id as string),
    byFamily,
    choices: map((q) => ids(q.answers?.choices ?? q.answers?.cols?.flatMap((c: any) => c.choices))),
    rows: map((q) => ids(q.answers?.rows)),
    question: (name) => {
      if (!byName[name]) throw new Error(`no question named ${name} in the seeded survey`);
      return byName[name];
    },
  };
  if (options.collector) {
    const c = await client.post(
      `/v3/surveys/${seeded.id}/collectors`,
      typeof options.collector === 'string' ? { type: options.collector } : options.collector,
      { token },
    );
    expect(c.status, c.text).toBe(201);
    seeded.collector = c.body;
  }
  return seeded;
}

/**
 * Another site on a loopback port for the file's tests (an OAuth client's callback, an app's
 * redirect target): every GET answers `html`. A real server, because a browser follows a redirect
 * to another site itself (Chromium's headless shell does not let a test's route answer it).
 * Returns the site's origin (set once the file's hooks have run).
 */
export function otherSite(html: string): { origin: string } {
  const site = { origin: '' };
  const server = createServer((_request, reply) => {
    reply.setHeader('content-type', 'text/html; charset=utf-8');
    reply.end(html);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return site;
}
