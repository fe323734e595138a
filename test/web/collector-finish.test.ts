// What follows a collector's last page, set on the collect page over HTTP: the thank-you page, the
// redirect (url, close, loop), several responses from one browser and the disqualification message,
// read back through GET /v3/collectors/{id} (test/collect covers the respondent side); mistakes and a
// basic plan's refusal shown beside the form in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { openEnded, seedSurvey, signIn, smOf } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

const alertOf = (text: string) =>
  (/role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? '').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A signed-in owner with a one-question survey and its open web link collector. */
async function setUp(account: TestAccount) {
  const web = await signIn(server, account);
  const seeded = await seedSurvey(server, account, {
    title: 'Ends',
    questions: { name: openEnded('Name?') },
    collector: 'weblink',
  });
  const c = { body: seeded.collector };
  const sm = smOf(seeded.survey.collect_url);
  const path = `/collect/list?sm=${sm}`;
  const finish = (form: Record<string, string>) =>
    web.postForm(`/collect/collectors/${c.body.id}/finish?sm=${sm}`, form, path);
  const read = async () =>
    (await server.client.get(`/v3/collectors/${c.body.id}`, { token: account.token })).body;
  return { web, path, finish, read, collector: c.body };
}

describe('after the last page', () => {
  it('sets the thank-you page, redirect, loop and disqualification message through the page', async () => {
    const owner = await server.account();
    const { web, path, finish, read, collector } = await setUp(owner);
    const page = await web.get(path);
    expect(page.text).toContain(`After the last page of collector 1`);
    expect(page.text).toContain('Show the thank-you page');

    let res = await finish({
      thank_you_enabled: 'yes',
      thank_you_message: 'Thanks, see you soon!',
      after: 'url',
      redirect_url: 'https://example.com/done',
      disqualification_message: 'Sorry, this survey is for guests only.',
    });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    expect(res.location).toBe(`${path}&done=finish#c-${collector.id}`);
    expect(await read()).toMatchObject({
      thank_you_page: { is_enabled: true, message: 'Thanks, see you soon!' },
      redirect_type: 'url',
      redirect_url: 'https://example.com/done',
      disqualification_message: 'Sorry, this survey is for guests only.',
    });

    res = await finish({
      thank_you_enabled: 'yes',
      thank_you_message: 'Next guest, please',
      after: 'loop',
      allow_multiple: 'yes',
    });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    expect(await read()).toMatchObject({
      redirect_type: 'loop',
      redirect_url: null,
      allow_multiple_responses: true,
      thank_you_page: { is_enabled: true, message: 'Next guest, please' },
    });
    res = await finish({ after: 'close' });
    expect(await read()).toMatchObject({ redirect_type: 'close', thank_you_page: { is_enabled: false } });
  });

  it('shows mistakes and a basic plan refusal beside the form, in words, keeping what was typed', async () => {
    const owner = await server.account();
    const { finish, read, collector } = await setUp(owner);
    let res = await finish({ after: 'url', redirect_url: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`id="c-${collector.id}-end-error"`);
    expect(alertOf(res.text)).toBe('Write the web address to send respondents to.');
    res = await finish({ after: 'loop' });
    expect(alertOf(res.text)).toContain('needs "Allow several responses from one browser"');
    res = await finish({ thank_you_enabled: 'yes', thank_you_message: 'x'.repeat(5001) });
    expect(alertOf(res.text)).toBe('The thank-you message must not have more than 5000 characters.');
    expect((await read()).thank_you_page.is_enabled).toBe(false);

    const basic = await server.account({ plan: 'basic' });
    const b = await setUp(basic);
    res = await b.finish({ thank_you_enabled: 'yes', thank_you_message: 'Ta', after: 'close' });
    expect(res.status).toBe(403);
    expect(alertOf(res.text)).toBe('Your plan does not include changing the thank-you message.');
    expect(res.text).toContain('>Ta</textarea>');
    // What the basic plan has is saved: the window hint, with the thank-you message left as it is.
    res = await b.finish({ after: 'close', thank_you_message: 'Thank you for completing our survey!' });
    expect(res.status, alertOf(res.text ?? '')).toBe(303);
    expect((await b.read()).redirect_type).toBe('close');
  });
});
