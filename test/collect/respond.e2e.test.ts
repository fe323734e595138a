// The respondent page in a real browser: a multi-page survey with every question family answered
// at a weblink collector's URL, read back through the API; closed, expired, full and password-
// protected collectors; server-side checks without JavaScript; CSRF; a phone-sized screen.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { serverAndBrowser } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { everyFamilyPages } from './fixtures.js';

let server: TestServer;
let browser: Browser;
const clock = new TestClock('2026-06-01T12:00:00Z');

serverAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { clock },
);

async function surveyWithCollector(collector: Record<string, unknown> = {}) {
  const a = await server.account();
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Every family <live>',
      custom_variables: { ref: 'Referrer' },
      buttons_text: { next_button: 'Onward', prev_button: 'Back', done_button: 'Finish', exit_button: '' },
      pages: everyFamilyPages,
    },
    { token: a.token },
  );
  expect(created.status).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, { token: a.token }))
    .body;
  const c = await server.client.post(
    `/v3/surveys/${details.id}/collectors`,
    { type: 'weblink', ...collector },
    { token: a.token },
  );
  expect(c.status).toBe(201);
  return { a, details, collector: c.body };
}

const q = (details: any, page: number, n: number) => details.pages[page].questions[n];

describe('respondent page', () => {
  it('answers every family page by page and reads back exactly those answers', async () => {
    const { a, details, collector } = await surveyWithCollector();
    const [colour, country, fruit, contact] = [1, 2, 3, 4].map((i) => q(details, 0, i));
    const [msingle, mmulti, rating, ranking, menu] = [0, 1, 2, 3, 4].map((i) => q(details, 1, i));
    const [nick, essay, multi, numbers, birthday, wake] = [0, 1, 2, 3, 4, 5].map((i) => q(details, 2, i));
    const page = await browser.newPage();
    try {
      await page.goto(`${collector.url}?c=abc&ref=news&other=ignored`);
      expect(await page.title()).toContain('Every family <live>');
      await expect(page.locator('h1').textContent()).resolves.toBe('Every family <live>');
      expect(await page.locator('.presentation b').textContent()).toBe('friend');
      // A required question left empty: the server's page, with the owner's message, as without script.
      await page.click('button:has-text("Onward")');
      await page.locator('.error-summary').waitFor();
      expect(await page.locator('.error-summary').textContent()).toContain('Please pick a colour.');
      expect(page.url()).toContain(collector.url);

      const blue = colour.answers.choices[1];
      await page.check(`input[name="q_${colour.id}"][value="${blue.id}"]`);
      await page.selectOption(`select[name="q_${country.id}"]`, country.answers.choices[1].id);
      await page.check(`input[name="q_${fruit.id}"][value="${fruit.answers.choices[0].id}"]`);
      await page.check(`input[name="q_${fruit.id}"][value="${fruit.answers.choices[2].id}"]`);
      const [nameRow, emailRow] = contact.answers.rows;
      await page.fill(`input[name="q_${contact.id}_${nameRow.id}"]`, 'Ada Lovelace');
      await page.fill(`input[name="q_${contact.id}_${emailRow.id}"]`, 'ada@example.com');
      await page.click('button:has-text("Onward")');
      await page.waitForURL(new RegExp(`p=${details.pages[1].id}`));

      // Page 2: matrices
      const [speed, price] = msingle.answers.rows;
      await page.check(`input[name="q_${msingle.id}_${speed.id}"][value="${msingle.answers.choices[1].id}"]`);
      await page.check(`input[name="q_${msingle.id}_${price.id}"][value="${msingle.answers.choices[0].id}"]`);
      const [week, weekend] = mmulti.answers.rows;
      const [am, pm] = mmulti.answers.choices;
      await page.check(`input[name="q_${mmulti.id}_${week.id}"][value="${am.id}"]`);
      await page.check(`input[name="q_${mmulti.id}_${week.id}"][value="${pm.id}"]`);
      await page.check(`input[name="q_${mmulti.id}_${weekend.id}"][value="${pm.id}"]`);
      await page.check(
        `input[name="q_${rating.id}_${rating.answers.rows[0].id}"][value="${rating.answers.choices[1].id}"]`,
      );
      const [tea, coffee] = ranking.answers.rows;
      await page.selectOption(`select[name="q_${ranking.id}_${tea.id}"]`, ranking.answers.choices[1].id);
      await page.selectOption(`select[name="q_${ranking.id}_${coffee.id}"]`, ranking.answers.choices[0].id);
      const mon = menu.answers.rows[0];
      const meal = menu.answers.cols[0];
      await page.selectOption(`select[name="q_${menu.id}_${mon.id}_${meal.id}"]`, meal.choices[1].id);
      await page.click('button:has-text("Onward")');
      await page.waitForURL(new RegExp(`p=${details.pages[2].id}`));

      // Back to page 2: what was saved is shown again
      await page.click('button:has-text("Back")');
      await page.waitForURL(new RegExp(`p=${details.pages[1].id}`));
      expect(await page.isChecked(`input[name="q_${mmulti.id}_${weekend.id}"][value="${pm.id}"]`)).toBe(true);
      expect(await page.inputValue(`select[name="q_${menu.id}_${mon.id}_${meal.id}"]`)).toBe(
        meal.choices[1].id,
      );
      // a partial response exists already
      const partial = await server.client.get(`/v3/surveys/${details.id}/responses/bulk`, { token: a.token });
      expect(partial.body.data).toHaveLength(1);
      expect(partial.body.data[0].response_status).toBe('partial');
      await page.click('button:has-text("Onward")');
      await page.waitForURL(new RegExp(`p=${details.pages[2].id}`));

      // Page 3: text, numbers, dates
      await page.fill(`input[name="q_${nick.id}"]`, 'Countess');
      await page.fill(`textarea[name="q_${essay.id}"]`, 'Notes on the <Analytical> Engine');
      await page.fill(`input[name="q_${multi.id}_${multi.answers.rows[0].id}"]`, 'poetical');
      await page.fill(`input[name="q_${multi.id}_${multi.answers.rows[1].id}"]`, 'science');
      await page.fill(`input[name="q_${numbers.id}_${numbers.answers.rows[0].id}"]`, '36');
      await page.fill(`input[name="q_${birthday.id}_${birthday.answers.rows[0].id}_date"]`, '1815-12-10');
      await page.fill(`input[name="q_${wake.id}_${wake.answers.rows[0].id}_time"]`, '14:05');
      await page.click('button:has-text("Finish")');
      await page.locator('.thank-you').waitFor();
      expect(await page.locator('.thank-you').textContent()).toContain(
        'Thank you for completing our survey!',
      );
    } finally {
      await page.close();
    }

    const list = await server.client.get(`/v3/surveys/${details.id}/responses`, { token: a.token });
    expect(list.body.total).toBe(1);
    const got = await server.client.get(
      `/v3/surveys/${details.id}/responses/${list.body.data[0].id}/details`,
      {
        token: a.token,
      },
    );
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      response_status: 'completed',
      collector_id: collector.id,
      custom_value: 'abc',
      custom_variables: { ref: 'news' },
      ip_address: '127.0.0.1',
      current_page_id: '0',
    });
    expect(got.body.page_path).toEqual(expect.arrayContaining(details.pages.map((p: any) => p.id)));
    const [nameRow, emailRow] = contact.answers.rows;
    expect(got.body.pages).toEqual([
      {
        id: details.pages[0].id,
        questions: [
          { id: colour.id, answers: [{ choice_id: colour.answers.choices[1].id }] },
          { id: country.id, answers: [{ choice_id: country.answers.choices[1].id }] },
          {
            id: fruit.id,
            answers: [{ choice_id: fruit.answers.choices[0].id }, { choice_id: fruit.answers.choices[2].id }],
          },
          {
            id: contact.id,
            answers: [
              { row_id: nameRow.id, text: 'Ada Lovelace' },
              { row_id: emailRow.id, text: 'ada@example.com' },
            ],
          },
        ],
      },
      {
        id: details.pages[1].id,
        questions: [
          {
            id: msingle.id,
            answers: [
              { row_id: msingle.answers.rows[0].id, choice_id: msingle.answers.choices[1].id },
              { row_id: msingle.answers.rows[1].id, choice_id: msingle.answers.choices[0].id },
            ],
          },
          {
            id: mmulti.id,
            answers: [
              { row_id: mmulti.answers.rows[0].id, choice_id: mmulti.answers.choices[0].id },
              { row_id: mmulti.answers.rows[0].id, choice_id: mmulti.answers.choices[1].id },
              { row_id: mmulti.answers.rows[1].id, choice_id: mmulti.answers.choices[1].id },
            ],
          },
          {
            id: rating.id,
            answers: [{ row_id: rating.answers.rows[0].id, choice_id: rating.answers.choices[1].id }],
          },
          {
            id: ranking.id,
            answers: [
              { row_id: ranking.answers.rows[0].id, choice_id: ranking.answers.choices[1].id },
              { row_id: ranking.answers.rows[1].id, choice_id: ranking.answers.choices[0].id },
            ],
          },
          {
            id: menu.id,
            answers: [
              {
                row_id: menu.answers.rows[0].id,
                col_id: menu.answers.cols[0].id,
                choice_id: menu.answers.cols[0].choices[1].id,
              },
            ],
          },
        ],
      },
      {
        id: details.pages[2].id,
        questions: [
          { id: nick.id, answers: [{ text: 'Countess' }] },
          { id: essay.id, answers: [{ text: 'Notes on the <Analytical> Engine' }] },
          {
            id: multi.id,
            answers: [
              { row_id: multi.answers.rows[0].id, text: 'poetical' },
              { row_id: multi.answers.rows[1].id, text: 'science' },
            ],
          },
          { id: numbers.id, answers: [{ row_id: numbers.answers.rows[0].id, text: '36' }] },
          { id: birthday.id, answers: [{ row_id: birthday.answers.rows[0].id, text: '12/10/1815' }] },
          { id: wake.id, answers: [{ row_id: wake.answers.rows[0].id, text: '02:05 PM' }] },
        ],
      },
    ]);
  });

  it('checks answers on the server when JavaScript is off, and refuses posts without the CSRF token', async () => {
    const { a, details, collector } = await surveyWithCollector();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(collector.url);
      await page.click('button:has-text("Onward")');
      const summary = page.locator('.error-summary');
      await summary.waitFor();
      expect(await summary.textContent()).toContain('Please pick a colour.');
      const numbers = q(details, 0, 4);
      await page.check(
        `input[name="q_${q(details, 0, 1).id}"][value="${q(details, 0, 1).answers.choices[0].id}"]`,
      );
      await page.fill(`input[name="q_${numbers.id}_${numbers.answers.rows[1].id}"]`, 'not-an-email');
      await page.click('button:has-text("Onward")');
      await page.locator('.error-summary').waitFor();
      expect(await page.locator('.error-summary').textContent()).toContain('Name is required.');
      // the choice made is kept on the redisplayed page
      expect(
        await page.isChecked(
          `input[name="q_${q(details, 0, 1).id}"][value="${q(details, 0, 1).answers.choices[0].id}"]`,
        ),
      ).toBe(true);
      await page.fill(`input[name="q_${numbers.id}_${numbers.answers.rows[0].id}"]`, 'Bob');
      await page.click('button:has-text("Onward")');
      await page.locator('.error-summary').waitFor();
      expect(await page.locator('.error-summary').textContent()).toContain('valid email');
      await page.fill(`input[name="q_${numbers.id}_${numbers.answers.rows[1].id}"]`, 'bob@example.com');
      await page.click('button:has-text("Onward")');
      await page.waitForURL(new RegExp(`p=${details.pages[1].id}`));
      const bulk = await server.client.get(`/v3/surveys/${details.id}/responses/bulk`, { token: a.token });
      expect(bulk.body.data[0]).toMatchObject({ response_status: 'partial', custom_value: '' });
      expect(bulk.body.data[0].pages[0].questions).toHaveLength(2);
    } finally {
      await context.close();
    }
    const forged = await server.client.request('POST', new URL(collector.url).pathname, {
      rawBody: `p=${details.pages[0].id}&nav=next&q_${q(details, 0, 1).id}=${q(details, 0, 1).answers.choices[0].id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.status).toBe(403);
    const total = await server.client.get(`/v3/surveys/${details.id}/responses`, { token: a.token });
    expect(total.body.total).toBe(1);
  });

  it('shows clear pages for closed, expired and full collectors', async () => {
    const { a, collector } = await surveyWithCollector({ closed_page_message: 'Come back next year.' });
    const page = await browser.newPage();
    try {
      await server.client.patch(`/v3/collectors/${collector.id}`, { status: 'closed' }, { token: a.token });
      await page.goto(collector.url);
      expect(await page.locator('.closed').getAttribute('data-reason')).toBe('closed');
      expect(await page.locator('.closed').textContent()).toContain('Come back next year.');
      expect(await page.locator('form[data-respond]').count()).toBe(0);

      await server.client.patch(
        `/v3/collectors/${collector.id}`,
        { status: 'open', close_date: '2026-05-31T00:00:00+00:00' },
        { token: a.token },
      );
      await page.goto(collector.url);
      expect(await page.locator('.closed').getAttribute('data-reason')).toBe('expired');

      await server.client.patch(
        `/v3/collectors/${collector.id}`,
        { close_date: null, response_limit: 1 },
        { token: a.token },
      );
      await server.client.post(`/v3/collectors/${collector.id}/responses`, {}, { token: a.token });
      await page.goto(collector.url);
      expect(await page.locator('.closed').getAttribute('data-reason')).toBe('full');
      const missing = await page.goto(`${server.url}/r/NoSuchToken99`);
      expect(missing?.status()).toBe(404);
    } finally {
      await page.close();
    }
  });

  it('asks for the password of a protected collector; works on a phone-sized screen', async () => {
    const { collector } = await surveyWithCollector({ password: 'open sesame' });
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    try {
      await page.goto(collector.url);
      await page.fill('#password', 'wrong');
      await page.click('button:has-text("Continue")');
      expect(await page.locator('.error').textContent()).toContain('not correct');
      await page.fill('#password', 'open sesame');
      await page.click('button:has-text("Continue")');
      await page.locator('form[data-respond]').waitFor();
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      // every form control has an accessible name
      const unnamed =
        await page.evaluate(`Array.from(document.querySelectorAll('form[data-respond] input:not([type=hidden]), form[data-respond] select, form[data-respond] textarea'))
        .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby')).map((el) => el.name)`);
      expect(unnamed).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('respondent page: endings and repeat visits', () => {
  async function onePageSurvey(collector: Record<string, unknown>) {
    const a = await server.account();
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Short',
        pages: [
          { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Name?' }] }] },
        ],
      },
      { token: a.token },
    );
    const details = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: a.token })).body;
    const c = await server.client.post(
      `/v3/surveys/${s.body.id}/collectors`,
      { type: 'weblink', ...collector },
      { token: a.token },
    );
    expect(c.status).toBe(201);
    return { a, details, collector: c.body, qid: details.pages[0].questions[0].id as string };
  }

  it('redirects to redirect_url after the last page', async () => {
    const target = `${server.url}/docs/errors`;
    const { collector, qid } = await onePageSurvey({ redirect_url: target, redirect_type: 'url' });
    const page = await browser.newPage();
    try {
      await page.goto(collector.url);
      await page.fill(`input[name="q_${qid}"]`, 'Ann');
      await page.click('button:has-text("Done")');
      await page.waitForURL(target);
      expect(await page.locator('h1').textContent()).toBe('Error codes');
    } finally {
      await page.close();
    }
  });

  it('one response per browser unless allow_multiple_responses; a custom thank-you page', async () => {
    const single = await onePageSurvey({ thank_you_page: { is_enabled: true, message: 'Merci beaucoup' } });
    const multi = await onePageSurvey({ allow_multiple_responses: true });
    const page = await browser.newPage();
    try {
      await page.goto(single.collector.url);
      await page.fill(`input[name="q_${single.qid}"]`, 'Ann');
      await page.click('button:has-text("Done")');
      expect(await page.locator('.thank-you').textContent()).toContain('Merci beaucoup');
      await page.goto(single.collector.url);
      expect(await page.locator('main').textContent()).toContain('already completed');
      for (const name of ['One', 'Two']) {
        await page.goto(multi.collector.url);
        await page.fill(`input[name="q_${multi.qid}"]`, name);
        await page.click('button:has-text("Done")');
        await page.locator('.thank-you').waitFor();
      }
    } finally {
      await page.close();
    }
    const list = await server.client.get(`/v3/surveys/${multi.details.id}/responses/bulk`, {
      token: multi.a.token,
    });
    expect(list.body.data.map((r: any) => r.pages[0].questions[0].answers[0].text)).toEqual(['One', 'Two']);
    const one = await server.client.get(`/v3/surveys/${single.details.id}/responses`, {
      token: single.a.token,
    });
    expect(one.body.total).toBe(1);
  });
});

describe('edit_url', () => {
  it('reopens a response for editing when the collector allows it, and refuses otherwise', async () => {
    const a = await server.account();
    const s = await server.client.post(
      '/v3/surveys',
      {
        title: 'Edit me',
        pages: [
          { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Name?' }] }] },
        ],
      },
      { token: a.token },
    );
    const details = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: a.token })).body;
    const qid = details.pages[0].questions[0].id;
    const pages = [{ id: details.pages[0].id, questions: [{ id: qid, answers: [{ text: 'Before' }] }] }];
    const always = (
      await server.client.post(
        `/v3/surveys/${s.body.id}/collectors`,
        { type: 'weblink', edit_response_type: 'always' },
        { token: a.token },
      )
    ).body;
    const fixed = (
      await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, { token: a.token })
    ).body;
    const r1 = (
      await server.client.post(`/v3/collectors/${always.id}/responses`, { pages }, { token: a.token })
    ).body;
    const r2 = (
      await server.client.post(`/v3/collectors/${fixed.id}/responses`, { pages }, { token: a.token })
    ).body;
    const page = await browser.newPage();
    try {
      await page.goto(r1.edit_url);
      expect(await page.inputValue(`input[name="q_${qid}"]`)).toBe('Before');
      await page.fill(`input[name="q_${qid}"]`, 'After');
      await page.click('button:has-text("Done")');
      await page.locator('.thank-you').waitFor();
      const refused = await page.goto(r2.edit_url);
      expect(refused?.status()).toBe(403);
      expect((await page.goto(`${server.url}/r/?sm=nonexistent-token-1234`))?.status()).toBe(404);
    } finally {
      await page.close();
    }
    const after = await server.client.get(`/v3/surveys/${s.body.id}/responses/${r1.id}/details`, {
      token: a.token,
    });
    expect(after.body.pages[0].questions[0].answers).toEqual([{ text: 'After' }]);
    expect(after.body.response_status).toBe('completed');
    const total = await server.client.get(`/v3/surveys/${s.body.id}/responses`, { token: a.token });
    expect(total.body.total).toBe(2);
  });
});
