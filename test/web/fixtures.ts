// Shared set-ups of the page tests: the "Office move" survey the results-filter tests read, and a
// page-test file's server, browser and signed-in owner.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AccountOptions, TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signedInPages, signInPage } from '../helpers/fixtures.js';
import { type ServerOptions, startServer, type TestServer } from '../helpers/server.js';

/** The questions the "Office move" survey may carry, in this order when chosen. */
export type OfficeQuestion = 'floor' | 'drink' | 'age' | 'comment';

export interface OfficeMoveOptions {
  /** Which questions, in the order the survey asks them. */
  questions: OfficeQuestion[];
  responses: number;
  /** Response i's status (completed by default). */
  status?: (i: number) => 'completed' | 'partial';
  /** Response i's date_created (now by default). */
  date?: (i: number) => string;
  /** Response i's comment (when the survey asks for one). */
  comment?: (i: number) => string;
}

export interface OfficeMove {
  surveyId: string;
  details: any;
  /** Question and choice ids: floor (ground, top), drink (tea, coffee), age, comment. */
  q: {
    floor: string;
    ground: string;
    top: string;
    drink: string;
    tea: string;
    coffee: string;
    age: string;
    comment: string;
  };
  /** The response ids, in the order sent. */
  ids: string[];
  /** Paths of the survey's analyze and summary pages. */
  analyze: string;
  summary: string;
}

const QUESTIONS: Record<OfficeQuestion, Record<string, unknown>> = {
  floor: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Which floor?' }],
    answers: { choices: [{ text: 'Ground floor' }, { text: 'Top floor' }] },
  },
  drink: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Which drink?' }],
    answers: { choices: [{ text: 'Tea' }, { text: 'Coffee' }] },
  },
  age: {
    family: 'open_ended',
    subtype: 'numerical',
    headings: [{ heading: 'Your age' }],
    answers: { rows: [{ text: 'Age' }] },
  },
  comment: { family: 'open_ended', subtype: 'essay', headings: [{ heading: 'Anything else?' }] },
};

/**
 * The "Office move" survey with a weblink collector and `responses` responses through the API:
 * response i answers floor ground (even i) or top (odd i), drink tea for i < 3 else coffee, age
 * 20 + 5i, and the comment `comment(i)`.
 */
export async function seedOfficeMove(
  server: TestServer,
  owner: TestAccount,
  options: OfficeMoveOptions,
): Promise<OfficeMove> {
  const tk = { token: owner.token };
  const created = await server.client.post(
    '/v3/surveys',
    { title: 'Office move', pages: [{ questions: options.questions.map((k) => QUESTIONS[k]) }] },
    tk,
  );
  expect(created.status, created.text).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
  const byKey = new Map(options.questions.map((k, i) => [k, details.pages[0].questions[i]]));
  const floor = byKey.get('floor');
  const drink = byKey.get('drink');
  const age = byKey.get('age');
  const comment = byKey.get('comment');
  const collector = (
    await server.client.post(`/v3/surveys/${created.body.id}/collectors`, { type: 'weblink' }, tk)
  ).body.id;
  const ids: string[] = [];
  for (let i = 0; i < options.responses; i++) {
    const questions = [];
    if (floor) questions.push({ id: floor.id, answers: [{ choice_id: floor.answers.choices[i % 2].id }] });
    if (drink)
      questions.push({ id: drink.id, answers: [{ choice_id: drink.answers.choices[i < 3 ? 0 : 1].id }] });
    if (age)
      questions.push({ id: age.id, answers: [{ row_id: age.answers.rows[0].id, text: String(20 + i * 5) }] });
    if (comment)
      questions.push({ id: comment.id, answers: [{ text: options.comment?.(i) ?? 'Quiet rooms' }] });
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        response_status: options.status?.(i) ?? 'completed',
        ...(options.date ? { date_created: options.date(i) } : {}),
        pages: [{ id: details.pages[0].id, questions }],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
    ids.push(r.body.id);
  }
  return {
    surveyId: created.body.id,
    details,
    q: {
      floor: floor?.id,
      ground: floor?.answers.choices[0].id,
      top: floor?.answers.choices[1].id,
      drink: drink?.id,
      tea: drink?.answers.choices[0].id,
      coffee: drink?.answers.choices[1].id,
      age: age?.id,
      comment: comment?.id,
    },
    ids,
    analyze: new URL(details.analyze_url).pathname,
    summary: new URL(details.summary_url).pathname,
  };
}

export interface OwnerInBrowser {
  server: TestServer;
  browser: Browser;
  owner: TestAccount;
  /** Signed in, script off (the plain forms); with `scriptOnly`, the same page as jsPage. */
  page: Page;
  /** Signed in, script on (the page checks, whose axe is script). */
  jsPage: Page;
}

/**
 * A page-test file's server, its one browser and an owner signed in on two pages (script off and
 * on; with `scriptOnly`, one page with script): started before the file's tests, closed after
 * them, handed to `use` once up. `server` may be a function, called in the file's first hook after
 * hooks registered before this call (e.g. a mail sink whose URL the server needs); afterAll hooks
 * registered after this call run before the server closes (e.g. stopping a worker).
 */
export function ownerInBrowser(
  use: (f: OwnerInBrowser) => void,
  options: {
    server?: ServerOptions | (() => ServerOptions);
    account?: AccountOptions;
    scriptOnly?: boolean;
  } = {},
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(typeof options.server === 'function' ? options.server() : options.server);
    browser = await sharedBrowser();
    const owner = await server.account(options.account);
    if (options.scriptOnly) {
      const jsPage = await (await browser.newContext()).newPage();
      jsPage.setDefaultTimeout(10_000);
      await signInPage(jsPage, server.url, owner);
      use({ server, browser, owner, page: jsPage, jsPage });
    } else use({ server, browser, owner, ...(await signedInPages(browser, server.url, owner)) });
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.close();
  });
}
