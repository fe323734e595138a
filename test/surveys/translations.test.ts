import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function survey(token: string) {
  const s = (
    await server.client.post(
      '/v3/surveys',
      {
        title: 'Lunch',
        pages: [
          {
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Soup?' }],
                answers: { choices: [{ text: 'Yes' }, { text: 'No' }] },
              },
            ],
          },
        ],
      },
      { token },
    )
  ).body;
  const d = (await server.client.get(`/v3/surveys/${s.id}/details`, { token })).body;
  return { s, q: d.pages[0].questions[0], page: d.pages[0] };
}

describe('survey translations', () => {
  it('creates, reads, lists, patches and deletes a translation, tracking stale strings', async () => {
    const a = await server.account();
    const { s, q, page } = await survey(a.token);
    const base = `/v3/surveys/${s.id}/languages`;
    expect((await server.client.get(base, { token: a.token })).body.total).toBe(0);
    const empty = await server.client.get(`${base}/fr`, { token: a.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ id: 'fr', enabled: false, href: `${server.url}${base}/fr` });
    expect(empty.body.translations).toContainEqual({
      default: 'Soup?',
      translation: '',
      context: 'question_heading',
      resource_id: q.id,
    });
    expect(empty.body.translations).toContainEqual({
      default: 'Lunch',
      translation: '',
      context: 'survey_title_html',
      resource_id: s.id,
    });
    const created = await server.client.post(
      `${base}/fr`,
      {
        translations: [
          { default: 'Lunch', translation: 'Déjeuner', context: 'survey_title_html', resource_id: s.id },
          { default: 'Soup?', translation: 'Soupe ?', context: 'question_heading', resource_id: q.id },
        ],
      },
      { token: a.token },
    );
    expect(created.status).toBe(200);
    expect(created.body.enabled).toBe(true);
    expect(created.body.translations).toContainEqual({
      default: 'Soup?',
      translation: 'Soupe ?',
      context: 'question_heading',
      resource_id: q.id,
    });
    const patched = await server.client.patch(
      `${base}/fr`,
      {
        enabled: false,
        translations: [
          { translation: 'Oui', context: 'question_option_text', resource_id: q.answers.choices[0].id },
        ],
      },
      { token: a.token },
    );
    expect(patched.body.enabled).toBe(false);
    expect(
      patched.body.translations
        .filter((t: any) => t.translation)
        .map((t: any) => t.translation)
        .sort(),
    ).toEqual(['Déjeuner', 'Oui', 'Soupe ?']);
    // Changing the source text makes its translation stale.
    await server.client.patch(
      `/v3/surveys/${s.id}/pages/${page.id}/questions/${q.id}`,
      { headings: [{ heading: 'Soup today?' }] },
      { token: a.token },
    );
    const list = await server.client.get(base, { token: a.token });
    expect(list.body.data).toEqual([
      {
        id: 'fr',
        name: 'French',
        native_name: 'Français',
        enabled: false,
        string_count: 8,
        translated_string_count: 2,
        stale_string_count: 1,
        inherited_string_count: 0,
        href: `${server.url}${base}/fr`,
      },
    ]);
    const del = await server.client.delete(`${base}/fr`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe('fr');
    expect((await server.client.get(base, { token: a.token })).body.total).toBe(0);
    expect((await server.client.delete(`${base}/fr`, { token: a.token })).status).toBe(404);
  });

  it('validates the body, the language and the strings', async () => {
    const a = await server.account();
    const { s } = await survey(a.token);
    const base = `/v3/surveys/${s.id}/languages`;
    const t = (over: object) => ({
      translations: [{ translation: 'x', context: 'survey_title_html', resource_id: s.id, ...over }],
    });
    const unknownResource = await server.client.post(`${base}/de`, t({ resource_id: '1' }), {
      token: a.token,
    });
    expect(unknownResource.status).toBe(400);
    expect(unknownResource.body.error.message).toMatch(/translations\.0/);
    expect(
      (await server.client.post(`${base}/de`, t({ context: 'page_title' }), { token: a.token })).body.error
        .id,
    ).toBe('1002');
    expect(
      (await server.client.post(`${base}/de`, { translations: [] }, { token: a.token })).body.error.id,
    ).toBe('1002');
    expect((await server.client.post(`${base}/en`, t({}), { token: a.token })).body.error.id).toBe('1002');
    expect((await server.client.post(`${base}/qq`, t({}), { token: a.token })).status).toBe(404);
    expect((await server.client.patch(`${base}/de`, t({}), { token: a.token })).status).toBe(404);
  });

  it('hides other users’ surveys and checks scopes', async () => {
    const a = await server.account();
    const b = await server.account();
    const { s } = await survey(a.token);
    const base = `/v3/surveys/${s.id}/languages`;
    const body = { translations: [{ translation: 'x', context: 'survey_title_html', resource_id: s.id }] };
    expect((await server.client.get(base, { token: b.token })).status).toBe(404);
    expect((await server.client.get(`${base}/fr`, { token: b.token })).status).toBe(404);
    expect((await server.client.post(`${base}/fr`, body, { token: b.token })).status).toBe(404);
    expect((await server.client.delete(`${base}/fr`, { token: b.token })).status).toBe(404);
    const reader = await server.account({ scopes: ['surveys_read'] });
    expect((await server.client.post(`${base}/fr`, body, { token: reader.token })).body.error.id).toBe(
      '1014',
    );
    expect((await server.client.get(base)).body.error.id).toBe('1010');
  });
});
