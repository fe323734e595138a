// Shared results over HTTP: the owner turns on a read-only results page at
// /results/<token> (/analyze/share?sm=…), which anyone opens without signing in: chosen questions
// only (written answers off by default), the owner's fixed filter, an optional password (a cookie
// remembers the unlock; guesses limited), an optional expiry; off, expired, deleted or a plan that
// no longer allows it → a plain 404 at once; basic plans may not share; every address is throttled.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setOperator } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { csrfToken, signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

const VIEWS_PER_MINUTE = 12;
const clock = new TestClock('2026-03-10T09:00:00Z');
let server: TestServer;
let owner: TestAccount;
let web: WebSession;
let sm: string;
let surveyId: string;
let q: { floor: string; ground: string; comments: string; age: string };

async function makeSurvey(account: TestAccount) {
  const tk = { token: account.token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Office move <script>window.__xss=1</script>',
      pages: [
        {
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Which floor?' }],
              answers: { choices: [{ text: 'Ground floor' }, { text: 'Top floor' }] },
            },
            { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Any comments?' }] },
            {
              family: 'open_ended',
              subtype: 'numerical',
              headings: [{ heading: 'Your age' }],
              answers: { rows: [{ text: 'Age' }] },
            },
          ],
        },
      ],
    },
    tk,
  );
  expect(created.status, created.text).toBe(201);
  return (await server.client.get(`/v3/surveys/${created.body.id}/details`, tk)).body;
}

beforeAll(async () => {
  server = await startServer({
    clock,
    env: { RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS: String(VIEWS_PER_MINUTE) },
  });
  owner = await server.account({ plan: 'advantage' });
  const details = await makeSurvey(owner);
  const [floor, comments, age] = details.pages[0].questions;
  q = { floor: floor.id, ground: floor.answers.choices[0].id, comments: comments.id, age: age.id };
  surveyId = details.id;
  sm = new URL(details.analyze_url).pathname.split('/').pop()!;
  const tk = { token: owner.token };
  const collector = (
    await server.client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink' }, tk)
  ).body.id;
  // Four responses: ground, top, ground, top; a comment each; ages 20, 30, 40, 50.
  for (let i = 0; i < 4; i++) {
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        response_status: 'completed',
        pages: [
          {
            id: details.pages[0].id,
            questions: [
              { id: floor.id, answers: [{ choice_id: floor.answers.choices[i % 2].id }] },
              { id: comments.id, answers: [{ text: `secret remark ${i}` }] },
              { id: age.id, answers: [{ row_id: age.answers.rows[0].id, text: String(20 + i * 10) }] },
            ],
          },
        ],
      },
      tk,
    );
    expect(r.status, r.text).toBe(201);
  }
  web = await signIn(server, owner);
});
afterAll(async () => {
  await server?.close();
});
// Each test starts in a fresh minute window of the per-address throttle.
beforeEach(() => clock.advance(60_000));

const sharePage = (extra = '') => `/analyze/share?sm=${sm}${extra}`;

/** Posts the owner's form (the CSRF token read from the page first); returns the response. */
async function save(form: Record<string, string | string[]>, session = web, token = sm) {
  const _csrf = await session.csrf(`/analyze/share?sm=${token}`);
  return session.post(`/analyze/share?sm=${token}`, { _csrf, ...form });
}

/** The link the owner's page shows, as a path. */
async function linkPath(session = web, token = sm): Promise<string> {
  const page = await session.get(`/analyze/share?sm=${token}`);
  const m = /id="share-link"[^>]*value="([^"]+)"/.exec(page.text);
  expect(m, page.text).not.toBeNull();
  return new URL(m![1]).pathname;
}

/** A visitor with no session: a plain fetch. */
const visit = (path: string, init: RequestInit = {}) =>
  fetch(new URL(path, server.url), { redirect: 'manual', ...init });

describe('shared results', () => {
  it('turns on with written answers hidden by default, and opens without sign-in', async () => {
    const form = await web.get(sharePage());
    expect(form.status).toBe(200);
    // The default choice: every question but the written-answer one.
    expect(form.text).toMatch(new RegExp(`id="sq${q.floor}"[^>]*checked`));
    expect(form.text).toMatch(new RegExp(`id="sq${q.age}"[^>]*checked`));
    expect(form.text).not.toMatch(new RegExp(`id="sq${q.comments}"[^>]*checked`));
    expect(form.text).toContain('id="share-state"');
    expect(form.text).not.toContain('id="share-link"');

    const saved = await save({ state: 'on', q: [q.floor, q.age], filter: 'none' });
    expect(saved.status, saved.text).toBe(303);
    const path = await linkPath();
    expect(path).toMatch(/^\/results\/[A-Za-z0-9_-]{43}$/);

    const res = await visit(path);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(text).toContain('<meta name="robots" content="noindex, nofollow">');
    // The title is text, escaped in the header and the heading.
    expect(text).toContain('Office move &lt;script&gt;window.__xss=1&lt;/script&gt;: results');
    expect(text).not.toContain('<script>window.__xss');
    expect(text).toMatch(/id="total"><strong>4<\/strong> responses/);
    expect(text).toContain('Which floor?');
    expect(text).toContain('Ground floor');
    expect(text).toContain('Your age');
    // Written answers are not there, nor any way into the owner's workspace.
    expect(text).not.toContain('Any comments?');
    expect(text).not.toContain('secret remark');
    expect(text).not.toContain(sm);
    expect(text).not.toMatch(/href="\/(analyze|create|collect|summary|login|account)/);
  });

  it('shows a written-answer question only when the owner chooses it', async () => {
    expect((await save({ state: 'on', q: [q.floor, q.comments], filter: 'none' })).status).toBe(303);
    const text = await (await visit(await linkPath())).text();
    expect(text).toContain('Any comments?');
    expect(text).toContain('secret remark 3');
    expect(text).not.toContain('Your age');
  });

  it('fixes the analyze page filter into the shared page', async () => {
    // The analyze page links here with its filter; the form offers to fix it.
    const analyze = await web.get(`/analyze/${sm}?a=${q.floor}:${q.ground}`);
    const href = /class="share-results-link"><a href="([^"]+)"/
      .exec(analyze.text)?.[1]
      ?.replaceAll('&amp;', '&');
    expect(href).toBe(sharePage(`&a=${encodeURIComponent(`${q.floor}:${q.ground}`)}`));
    const page = await web.get(href!);
    expect(page.text).toContain('Fix the current filter: Which floor?: Ground floor');
    const fixQuery = /name="fix_query" value="([^"]+)"/.exec(page.text)![1].replaceAll('&amp;', '&');
    const _csrf = csrfToken(page.text);
    const saved = await web.post(sharePage(), {
      _csrf,
      state: 'on',
      q: [q.floor],
      filter: 'fix',
      fix_query: fixQuery,
    });
    expect(saved.status, saved.text).toBe(303);
    const text = await (await visit(await linkPath())).text();
    expect(text).toMatch(/id="total"><strong>2<\/strong> responses/);
    expect(text).toContain('Which floor?: Ground floor');
    // Saving again without choosing keeps the fixed filter.
    expect((await save({ state: 'on', q: [q.floor], filter: 'keep' })).status).toBe(303);
    expect(await (await visit(await linkPath())).text()).toMatch(/<strong>2<\/strong> responses/);
    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    expect(await (await visit(await linkPath())).text()).toMatch(/<strong>4<\/strong> responses/);
  });

  it('asks for the password, refuses a wrong one, and remembers the unlock in a cookie', async () => {
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', password: 'open sesame' })).status).toBe(
      303,
    );
    const path = await linkPath();
    const visitor = new WebSession(server.url);
    const locked = await visitor.get(path);
    expect(locked.status).toBe(200);
    expect(locked.text).toContain('protected by a password');
    expect(locked.text).not.toContain('Which floor?');
    const _csrf = csrfToken(locked.text);
    // Without the CSRF token (or with another's) the form is refused.
    expect((await visitor.post(`${path}/unlock`, { password: 'open sesame' })).status).toBe(400);
    const stranger = new WebSession(server.url);
    const forged = await stranger.post(`${path}/unlock`, { _csrf, password: 'open sesame' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired');
    expect(forged.text).not.toContain('href="/account"');
    const wrong = await visitor.post(`${path}/unlock`, { _csrf, password: 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('That password is not correct.');
    const right = await visitor.post(`${path}/unlock`, { _csrf, password: 'open sesame' });
    expect(right.status).toBe(303);
    expect(right.location).toBe(path);
    const open = await visitor.get(path);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Which floor?');
    // A new password voids the unlock.
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', password: 'another one' })).status).toBe(
      303,
    );
    expect((await visitor.get(path)).text).toContain('protected by a password');
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', remove_password: '1' })).status).toBe(
      303,
    );
    expect((await visitor.get(path)).text).toContain('Which floor?');
  });

  it('limits password guesses per link and address', async () => {
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', password: 'right' })).status).toBe(303);
    const path = await linkPath();
    const visitor = new WebSession(server.url);
    const _csrf = csrfToken((await visitor.get(path)).text);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await visitor.post(`${path}/unlock`, { _csrf, password: `guess ${i}` })).status);
    // A few wrong guesses are answered (the earlier test's wrong one counts too), then the address waits.
    expect(statuses.slice(0, 4)).toEqual([403, 403, 403, 403]);
    expect(statuses.at(-1)).toBe(429);
    clock.advance(2 * 60 * 60_000);
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', remove_password: '1' })).status).toBe(
      303,
    );
  });

  it('stops working after its last day, and refuses a day already past', async () => {
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', expires: '2026-01-01' })).status).toBe(
      400,
    );
    const today = clock.now().toISOString().slice(0, 10);
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', expires: today })).status).toBe(303);
    const path = await linkPath();
    expect((await visit(path)).status).toBe(200);
    clock.advance(24 * 60 * 60_000);
    const gone = await visit(path);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('Results not found');
    expect((await web.get(sharePage())).text).toContain('The link has expired');
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', expires: '' })).status).toBe(303);
    expect((await visit(path)).status).toBe(200);
  });

  it('turning off kills the link at once; turning on again makes a new one', async () => {
    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    const path = await linkPath();
    expect((await visit(path)).status).toBe(200);
    expect((await save({ state: 'off' })).status).toBe(303);
    expect((await visit(path)).status).toBe(404);
    expect((await web.get(sharePage())).text).not.toContain('id="share-link"');
    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    const again = await linkPath();
    expect(again).not.toBe(path);
    expect((await visit(path)).status).toBe(404);
    expect((await visit(again)).status).toBe(200);
    // "Make a new link" also retires the old one.
    expect((await save({ state: 'on', q: [q.floor], filter: 'none', new_link: '1' })).status).toBe(303);
    expect((await visit(again)).status).toBe(404);
    expect((await visit('/results/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await visit('/results/short')).status).toBe(404);
  });

  it('refuses the basic plan, and a link dies when its survey is deleted', async () => {
    const basic = await server.account({ plan: 'basic' });
    const details = await makeSurvey(basic);
    const token = new URL(details.analyze_url).pathname.split('/').pop()!;
    const session = await signIn(server, basic);
    expect((await session.get(`/analyze/share?sm=${token}`)).text).toContain('needs a paid plan');
    const refused = await save(
      { state: 'on', q: [details.pages[0].questions[0].id], filter: 'none' },
      session,
      token,
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs a paid plan');
    // Someone else's survey is not found.
    const _csrf = await session.csrf(`/analyze/share?sm=${token}`);
    const other = await session.post(sharePage(), { _csrf, state: 'on', q: [q.floor], filter: 'none' });
    expect(other.status).toBe(404);

    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    const path = await linkPath();
    expect((await visit(path)).status).toBe(200);
    // A copy of the survey to delete, so the other tests keep theirs.
    const mine = await makeSurvey(owner);
    const mineSm = new URL(mine.analyze_url).pathname.split('/').pop()!;
    expect(
      (await save({ state: 'on', q: [mine.pages[0].questions[0].id], filter: 'none' }, web, mineSm)).status,
    ).toBe(303);
    const minePath = await linkPath(web, mineSm);
    expect((await visit(minePath)).status).toBe(200);
    expect(
      (await server.client.delete(`/v3/surveys/${mine.id}`, { token: owner.token })).status,
    ).toBeLessThan(300);
    expect((await visit(minePath)).status).toBe(404);
    expect(surveyId).toBeTruthy();
  });

  it('dies when its owner moves to a plan that may not share, and comes back with the plan', async () => {
    // An operator changes the owner's plan on the operator's accounts page.
    const op = await server.account();
    await setOperator(server.deps, op.user.id, true);
    const operator = await signIn(server, op);
    const _csrf = await operator.csrf('/operator/accounts');
    const plan = (p: string) =>
      operator.post(`/operator/accounts/${owner.user.id}`, {
        _csrf,
        plan: p,
        state: 'active',
        operator: 'no',
      });
    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    const path = await linkPath();
    expect((await plan('basic')).status).toBe(303);
    expect((await visit(path)).status).toBe(404);
    expect((await web.get(sharePage())).text).toContain('Paused: the link answers');
    expect((await plan('advantage')).status).toBe(303);
    expect((await visit(path)).status).toBe(200);
  });

  it('keeps one link per survey under concurrent saves, and stores only its hash', async () => {
    const _csrf = await web.csrf(sharePage());
    const saves = await Promise.all(
      Array.from({ length: 6 }, () =>
        web.post(sharePage(), { _csrf, state: 'on', q: [q.floor], filter: 'none', new_link: '1' }),
      ),
    );
    expect(saves.map((r) => r.status)).toEqual([303, 303, 303, 303, 303, 303]);
    const path = await linkPath();
    expect((await visit(path)).status).toBe(200);
    const rows = await server.deps.db.kysely
      .selectFrom('shared_results')
      .selectAll()
      .where('survey_id', '=', surveyId)
      .execute();
    expect(rows).toHaveLength(1);
    const token = path.split('/').pop()!;
    expect(JSON.stringify(rows[0])).not.toContain(token);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('throttles each client address', async () => {
    expect((await save({ state: 'on', q: [q.floor], filter: 'none' })).status).toBe(303);
    const path = await linkPath();
    const statuses: number[] = [];
    for (let i = 0; i < VIEWS_PER_MINUTE + 1; i++) statuses.push((await visit(path)).status);
    expect(statuses.slice(0, VIEWS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const last = await visit(path);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // Unknown links count too (no guessing around the throttle).
    expect((await visit('/results/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(429);
    clock.advance(60_000);
    expect((await visit(path)).status).toBe(200);
  });
});
