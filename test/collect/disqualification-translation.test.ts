// The collector's disqualification message in a translation's language: the survey's strings list
// one `collector_disqualification` per weblink/email collector (resource_id the collector), a
// translation of it is what a respondent whose browser asks for that language sees when a rule
// disqualifies them, and a message changed since it was translated shows as written (stale).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { branchingSurvey } from './branching-fixture.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

/** Opens the survey in `language` and picks `choice` on its first page; answers the page shown after. */
async function disqualify(url: string, question: string, choice: string, language: string) {
  const path = new URL(url).pathname;
  const headers = { 'accept-language': language };
  const first = await fetch(`${server.url}${path}`, { headers });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const post = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf: field('csrf'),
      p: field('p'),
      nav: 'next',
      [`q_${question}`]: choice,
    }).toString(),
  });
  expect(post.status).toBe(200);
  return post.text();
}

/** A weblink collector of the survey with its own disqualification message. */
async function weblink(surveyId: string, message: string) {
  const res = await server.client.post(
    `/v3/surveys/${surveyId}/collectors`,
    { type: 'weblink', disqualification_message: message },
    { token: owner.token },
  );
  return res.body;
}

describe('the disqualification message in a translation', () => {
  it('is a string of the translation per collector and is shown translated', async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const make = (message: string) => weblink(b.surveyId, message);
    const one = await make('Sorry, not this time.');
    const two = await make('You do not qualify.');
    const base = `/v3/surveys/${b.surveyId}/languages/fr`;
    const structure = await server.client.get(base, { token: owner.token });
    expect(
      structure.body.translations.filter((t: any) => t.context === 'collector_disqualification'),
    ).toEqual([
      {
        default: 'Sorry, not this time.',
        translation: '',
        context: 'collector_disqualification',
        resource_id: one.id,
      },
      {
        default: 'You do not qualify.',
        translation: '',
        context: 'collector_disqualification',
        resource_id: two.id,
      },
    ]);
    const saved = await server.client.post(
      base,
      {
        translations: [
          {
            context: 'collector_disqualification',
            resource_id: one.id,
            translation: 'Désolé, pas cette fois.',
          },
        ],
      },
      { token: owner.token },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.translations).toContainEqual({
      default: 'Sorry, not this time.',
      translation: 'Désolé, pas cette fois.',
      context: 'collector_disqualification',
      resource_id: one.id,
    });

    // French browser: the first collector's message is translated, the second (untranslated) is as written.
    const fr = await disqualify(one.url, b.questions[0], b.route.C, 'fr-FR,fr;q=0.9');
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('Désolé, pas cette fois.');
    expect(fr).not.toContain('Sorry, not this time.');
    expect(await disqualify(two.url, b.questions[0], b.route.C, 'fr')).toContain('You do not qualify.');
    // English browser: the message as written.
    expect(await disqualify(one.url, b.questions[0], b.route.C, 'en-US')).toContain('Sorry, not this time.');

    // A message changed since its translation shows as written, and the string counts as stale.
    await server.client.patch(
      `/v3/collectors/${one.id}`,
      { disqualification_message: 'Sorry, the survey is full.' },
      { token: owner.token },
    );
    expect(await disqualify(one.url, b.questions[0], b.route.C, 'fr')).toContain(
      'Sorry, the survey is full.',
    );
    const list = await server.client.get(`/v3/surveys/${b.surveyId}/languages`, { token: owner.token });
    expect(list.body.data[0]).toMatchObject({ id: 'fr', translated_string_count: 0, stale_string_count: 1 });

    // A collector of another survey is not a string of this one.
    const other = await branchingSurvey(server.client, owner.token);
    const refused = await server.client.patch(
      base,
      {
        translations: [
          {
            context: 'collector_disqualification',
            resource_id: (
              await server.client.post(
                `/v3/surveys/${other.surveyId}/collectors`,
                { type: 'weblink' },
                { token: owner.token },
              )
            ).body.id,
            translation: 'x',
          },
        ],
      },
      { token: owner.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('translations.0');
  });

  it("takes the survey's id as the resource, as the reference's example does: every collector's message", async () => {
    const b = await branchingSurvey(server.client, owner.token);
    const make = (message: string) => weblink(b.surveyId, message);
    const one = await make('You do not qualify.');
    const two = await make('You do not qualify.');
    const other = await make('Another message.');
    const saved = await server.client.post(
      `/v3/surveys/${b.surveyId}/languages/fr`,
      {
        translations: [
          {
            default: 'You do not qualify.',
            context: 'collector_disqualification',
            resource_id: b.surveyId,
            translation: 'Vous ne remplissez pas les conditions.',
          },
        ],
      },
      { token: owner.token },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const translated = saved.body.translations
      .filter((t: any) => t.context === 'collector_disqualification' && t.translation)
      .map((t: any) => t.resource_id);
    expect(translated.sort()).toEqual([one.id, two.id].sort());
    expect(await disqualify(two.url, b.questions[0], b.route.C, 'fr')).toContain(
      'Vous ne remplissez pas les conditions.',
    );
    expect(await disqualify(other.url, b.questions[0], b.route.C, 'fr')).toContain('Another message.');
  });
});
