import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { questionOfEachKind, withoutIds } from './fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:30.500Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

async function events(type: string, resourceId: string) {
  return server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('type', '=', type)
    .where('resource_id', '=', resourceId)
    .execute();
}

describe('POST /surveys (Blank)', () => {
  it('creates a survey with the defaults and one empty page', async () => {
    const a = await server.account();
    const res = await server.client.post('/v3/surveys', {}, { token: a.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'New Survey',
      nickname: '',
      language: 'en',
      category: '',
      folder_id: '0',
      question_count: 0,
      page_count: 1,
      response_count: 0,
      date_created: '2026-06-01T12:00:00',
      date_modified: '2026-06-01T12:00:00',
      buttons_text: { next_button: 'Next', prev_button: 'Prev', exit_button: 'Exit', done_button: 'Done' },
      custom_variables: {},
      footer: true,
      is_owner: true,
    });
    expect(res.body.theme_id).toBeUndefined();
    const base = server.url;
    expect(res.body.href).toBe(`${base}/v3/surveys/${res.body.id}`);
    expect(res.body.preview).toMatch(new RegExp(`^${base}/r/Preview/\\?sm=[A-Za-z0-9_-]{20,}$`));
    expect(res.body.edit_url).toMatch(new RegExp(`^${base}/create/\\?sm=`));
    expect(res.body.collect_url).toMatch(new RegExp(`^${base}/collect/list\\?sm=`));
    expect(res.body.analyze_url).toMatch(new RegExp(`^${base}/analyze/`));
    expect(res.body.summary_url).toMatch(new RegExp(`^${base}/summary/`));
    const details = await server.client.get(`/v3/surveys/${res.body.id}/details`, { token: a.token });
    expect(details.body.pages).toHaveLength(1);
    expect(details.body.pages[0]).toMatchObject({
      title: '',
      description: '',
      position: 1,
      question_count: 0,
      questions: [],
    });
    const noBody = await server.client.post('/v3/surveys', undefined, { token: a.token });
    expect(noBody.status).toBe(201);
    expect(noBody.body.title).toBe('New Survey');
    const created = await events('survey_created', res.body.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ owner_id: a.user.id, actor_id: a.user.id, resource_type: 'survey' });
  });

  it('stores every Blank field', async () => {
    const a = await server.account();
    const folder = await server.client.post('/v3/survey_folders', { title: 'F' }, { token: a.token });
    const body = {
      title: 'Quiz',
      nickname: 'q1',
      language: 'fr',
      buttons_text: { next_button: 'Suivant', exit_button: '' },
      custom_variables: { ref: 'Referrer' },
      footer: false,
      folder_id: folder.body.id,
      theme_id: 4510354,
      quiz_options: {
        is_quiz_mode: true,
        show_results_type: 'results_only',
        feedback: {
          ranges_type: 'percentage',
          ranges: [
            { min: 0, max: 49, message: 'Try again' },
            { min: 50, max: 100, message: 'Well done' },
          ],
        },
        default_question_feedback: { correct_text: 'Yes', incorrect_text: 'No', partial_text: 'Partly' },
      },
    };
    const res = await server.client.post('/v3/surveys', body, { token: a.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Quiz',
      nickname: 'q1',
      language: 'fr',
      buttons_text: { next_button: 'Suivant', prev_button: 'Prev', exit_button: '', done_button: 'Done' },
      custom_variables: { ref: 'Referrer' },
      footer: false,
      folder_id: folder.body.id,
      theme_id: '4510354',
      quiz_options: body.quiz_options,
    });
    const read = await server.client.get(`/v3/surveys/${res.body.id}`, { token: a.token });
    expect(read.body).toEqual(res.body);
  });

  it('refuses overlapping or inverted quiz ranges (ranges are inclusive)', async () => {
    const a = await server.account();
    const quiz = (ranges: unknown) => ({
      quiz_options: {
        is_quiz_mode: true,
        show_results_type: 'disabled',
        feedback: { ranges_type: 'points', ranges },
      },
    });
    const overlap = await server.client.post(
      '/v3/surveys',
      quiz([
        { min: 0, max: 5, message: 'a' },
        { min: 5, max: 10, message: 'b' },
      ]),
      { token: a.token },
    );
    expect(overlap.status).toBe(400);
    expect(overlap.body.error.id).toBe('1002');
    expect(overlap.body.error.message).toMatch(/overlap/);
    const inverted = await server.client.post('/v3/surveys', quiz([{ min: 9, max: 2, message: 'a' }]), {
      token: a.token,
    });
    expect(inverted.status).toBe(400);
    expect(inverted.body.error.message).toMatch(/min 9/);
    const missing = await server.client.post(
      '/v3/surveys',
      { quiz_options: { is_quiz_mode: true } },
      { token: a.token },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/quiz_options/);
    const ok = await server.client.post(
      '/v3/surveys',
      quiz([
        { min: 0, max: 4, message: 'a' },
        { min: 5, max: 10, message: 'b' },
      ]),
      { token: a.token },
    );
    expect(ok.status).toBe(201);
  });

  it('refuses an unknown language, an unknown folder and another user’s folder', async () => {
    const a = await server.account();
    const b = await server.account();
    const lang = await server.client.post('/v3/surveys', { language: 'xx' }, { token: a.token });
    expect(lang.status).toBe(400);
    expect(lang.body.error.message).toMatch(/language/);
    const theirs = await server.client.post('/v3/survey_folders', { title: 'B' }, { token: b.token });
    for (const folder_id of ['999999999', theirs.body.id]) {
      const res = await server.client.post('/v3/surveys', { folder_id }, { token: a.token });
      expect(res.status).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
  });

  it('keeps custom variables for paid plans only', async () => {
    const basic = await server.account({ plan: 'basic' });
    const res = await server.client.post(
      '/v3/surveys',
      { custom_variables: { a: 'A' } },
      { token: basic.token },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1015');
    expect((await server.client.post('/v3/surveys', { title: 'free' }, { token: basic.token })).status).toBe(
      201,
    );
  });

  it('needs a token and the surveys_write scope', async () => {
    const none = await server.client.post('/v3/surveys', {});
    expect(none.status).toBe(401);
    expect(none.body.error.id).toBe('1010');
    const reader = await server.account({ scopes: ['surveys_read'] });
    const res = await server.client.post('/v3/surveys', {}, { token: reader.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1014');
  });
});

describe('generic body errors through POST /surveys', () => {
  it('answers invalid JSON with 400/1001', async () => {
    const a = await server.account();
    const res = await server.client.request('POST', '/v3/surveys', {
      token: a.token,
      rawBody: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1001');
  });

  it('answers a schema violation with 400/1002 naming the field', async () => {
    const a = await server.account();
    const wrongType = await server.client.post('/v3/surveys', { title: 5 }, { token: a.token });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.id).toBe('1002');
    expect(wrongType.body.error.message).toMatch(/title/);
    const unknown = await server.client.post('/v3/surveys', { colour: 'red' }, { token: a.token });
    expect(unknown.body.error.id).toBe('1002');
    expect(unknown.body.error.message).toMatch(/colour/);
    const nul = await server.client.post('/v3/surveys', { title: 'a\u0000b' }, { token: a.token });
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toMatch(/title/);
    const nulQuestion = await server.client.post(
      '/v3/surveys',
      {
        pages: [
          { questions: [{ family: 'open_ended', subtype: 'essay', headings: [{ heading: '\u0000' }] }] },
        ],
      },
      { token: a.token },
    );
    expect(nulQuestion.body.error.id).toBe('1002');
    expect((await server.client.get('/v3/surveys?title=%00', { token: a.token })).body.error.id).toBe('1003');
    const footer = await server.client.post('/v3/surveys', { footer: 'no' }, { token: a.token });
    expect(footer.body.error.message).toMatch(/footer/);
  });

  it('answers a wrong Content-Type with 400/1004', async () => {
    const a = await server.account();
    const res = await server.client.request('POST', '/v3/surveys', {
      token: a.token,
      rawBody: '<survey><title>x</title></survey>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1004');
    const text = await server.client.request('POST', '/v3/surveys', {
      token: a.token,
      rawBody: '{"title": "x"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect(text.body.error.id).toBe('1004');
    const form = await server.client.request('POST', '/v3/surveys', {
      token: a.token,
      rawBody: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body.error.id).toBe('1004');
  });

  it('answers a body over BODY_LIMIT_BYTES with 413/1030', async () => {
    const small = await startServer({ env: { BODY_LIMIT_BYTES: '2048' } });
    try {
      const a = await small.account();
      const res = await small.client.post(
        '/v3/surveys',
        { title: 'x'.repeat(240), nickname: 'y'.repeat(3000) },
        { token: a.token },
      );
      expect(res.status).toBe(413);
      expect(res.body.error.id).toBe('1030');
      const ok = await small.client.post('/v3/surveys', { title: 'fits' }, { token: a.token });
      expect(ok.status).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('GET/PATCH/PUT/DELETE /surveys/{id}', () => {
  it('reads only one’s own surveys; others, unknown and malformed ids are 404/1020', async () => {
    const a = await server.account();
    const b = await server.account();
    const s = (await server.client.post('/v3/surveys', { title: 'Mine' }, { token: a.token })).body;
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: a.token })).body.title).toBe('Mine');
    for (const path of [
      `/v3/surveys/${s.id}`,
      `/v3/surveys/${s.id}/details`,
      '/v3/surveys/123',
      '/v3/surveys/abc',
    ]) {
      const res = await server.client.get(path, { token: b.token });
      expect(res.status).toBe(404);
      expect(res.body.error.id).toBe('1020');
    }
    expect((await server.client.get(`/v3/surveys/${s.id}`)).status).toBe(401);
    const writer = await server.account({ scopes: ['surveys_write'] });
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: writer.token })).body.error.id).toBe(
      '1014',
    );
  });

  it('PATCH changes only the fields sent; PUT resets the others to their defaults', async () => {
    const a = await server.account();
    const s = (
      await server.client.post(
        '/v3/surveys',
        { title: 'T', nickname: 'N', language: 'de', footer: false, buttons_text: { next_button: 'Weiter' } },
        { token: a.token },
      )
    ).body;
    clock.advance(120_000);
    const patched = await server.client.patch(
      `/v3/surveys/${s.id}`,
      { title: 'T2', buttons_text: { done_button: 'Fertig' } },
      { token: a.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'T2',
      nickname: 'N',
      language: 'de',
      footer: false,
      buttons_text: { next_button: 'Weiter', done_button: 'Fertig', prev_button: 'Prev' },
      date_created: s.date_created,
    });
    expect(patched.body.date_modified).not.toBe(s.date_modified);
    expect(await events('survey_updated', s.id)).toHaveLength(1);
    const put = await server.client.put(`/v3/surveys/${s.id}`, { nickname: 'only' }, { token: a.token });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      title: 'New Survey',
      nickname: 'only',
      language: 'en',
      footer: true,
      buttons_text: { next_button: 'Next' },
    });
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: a.token })).body).toEqual(put.body);
    const bad = await server.client.patch(`/v3/surveys/${s.id}`, { pages: [] }, { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/pages/);
    const b = await server.account();
    expect(
      (await server.client.patch(`/v3/surveys/${s.id}`, { title: 'x' }, { token: b.token })).status,
    ).toBe(404);
    expect((await server.client.put(`/v3/surveys/${s.id}`, {}, { token: b.token })).status).toBe(404);
    const reader = await server.account({ scopes: ['surveys_read'] });
    expect(
      (await server.client.patch(`/v3/surveys/${s.id}`, {}, { token: reader.token })).body.error.id,
    ).toBe('1014');
  });

  it('moves a survey into and out of a folder', async () => {
    const a = await server.account();
    const folder = (await server.client.post('/v3/survey_folders', { title: 'In' }, { token: a.token })).body;
    const s = (await server.client.post('/v3/surveys', {}, { token: a.token })).body;
    const moved = await server.client.patch(
      `/v3/surveys/${s.id}`,
      { folder_id: folder.id },
      { token: a.token },
    );
    expect(moved.body.folder_id).toBe(folder.id);
    const out = await server.client.patch(`/v3/surveys/${s.id}`, { folder_id: '0' }, { token: a.token });
    expect(out.body.folder_id).toBe('0');
  });

  it('DELETE answers the deleted survey and removes its pages and questions', async () => {
    const a = await server.account();
    const s = (
      await server.client.post(
        '/v3/surveys',
        { title: 'Gone', pages: [{ questions: [questionOfEachKind.single_vertical] }] },
        { token: a.token },
      )
    ).body;
    const b = await server.account();
    expect((await server.client.delete(`/v3/surveys/${s.id}`, { token: b.token })).status).toBe(404);
    const res = await server.client.delete(`/v3/surveys/${s.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, title: 'Gone', question_count: 1 });
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: a.token })).status).toBe(404);
    expect((await server.client.delete(`/v3/surveys/${s.id}`, { token: a.token })).status).toBe(404);
    const k = server.deps.db.kysely;
    expect(await k.selectFrom('survey_pages').select('id').where('survey_id', '=', s.id).execute()).toEqual(
      [],
    );
    expect(
      await k.selectFrom('survey_questions').select('id').where('survey_id', '=', s.id).execute(),
    ).toEqual([]);
    expect(await events('survey_deleted', s.id)).toHaveLength(1);
  });
});

describe('Bulk, Copy and the 1000-question limit', () => {
  it('creates one question of each family in Bulk and reads it back identically through /details', async () => {
    const a = await server.account();
    const kinds = Object.entries(questionOfEachKind);
    const body = {
      title: 'Everything',
      pages: [
        { title: 'Choices', description: 'First', questions: kinds.slice(0, 10).map(([, q]) => q) },
        { title: 'Open', questions: kinds.slice(10).map(([, q]) => q) },
      ],
    };
    const res = await server.client.post('/v3/surveys', body, { token: a.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ question_count: kinds.length, page_count: 2 });
    const d = (await server.client.get(`/v3/surveys/${res.body.id}/details`, { token: a.token })).body;
    expect(d.pages.map((p: any) => [p.title, p.position, p.question_count])).toEqual([
      ['Choices', 1, 10],
      ['Open', 2, kinds.length - 10],
    ]);
    const questions = d.pages.flatMap((p: any) => p.questions);
    expect(questions).toHaveLength(kinds.length);
    const ids = new Set<string>();
    questions.forEach((q: any, i: number) => {
      const [name, sent] = kinds[i];
      expect(q.family, name).toBe(sent.family);
      expect(q.subtype, name).toBe(sent.subtype);
      expect(q.headings, name).toEqual(sent.headings);
      if (sent.display_options) expect(q.display_options, name).toEqual(sent.display_options);
      expect(q.visible).toBe(true);
      expect(q.position).toBe(i < 10 ? i + 1 : i - 9);
      for (const x of [
        q.id,
        ...(q.answers?.choices ?? []).map((c: any) => c.id),
        ...(q.answers?.rows ?? []).map((r: any) => r.id),
      ]) {
        expect(x).toMatch(/^[0-9]+$/);
        expect(ids.has(x)).toBe(false);
        ids.add(x);
      }
      // each question reads the same on its own
    });
    for (const p of d.pages)
      for (const q of p.questions) {
        const one = await server.client.get(`/v3/surveys/${d.id}/pages/${p.id}/questions/${q.id}`, {
          token: a.token,
        });
        expect(one.body).toEqual(q);
      }
    const byName = Object.fromEntries(kinds.map(([name], i) => [name, questions[i]]));
    expect(byName.single_vertical.answers.other).toMatchObject({
      text: 'Other',
      num_chars: 40,
      is_answer_choice: true,
      position: 0,
    });
    expect(byName.single_vertical.sorting).toEqual({ type: 'random', ignore_last: true });
    expect(byName.single_vertical.required).toEqual({ text: 'Please answer.', type: 'all', amount: '0' });
    expect(byName.multiple.required).toEqual({
      text: 'This question requires an answer.',
      type: 'at_least',
      amount: '1',
    });
    expect(byName.matrix_ranking.answers.choices.map((c: any) => [c.text, c.weight])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
    expect(byName.matrix_menu.answers.cols[0].choices.map((c: any) => c.text)).toEqual(['x', 'y']);
    expect(
      byName.demographic_us.answers.rows.map((r: any) => [r.type, r.text, r.visible, r.required]),
    ).toEqual([
      ['name', 'Name:', true, true],
      ['email', 'Email Address:', true, false],
      ['company', 'Company:', false, false],
      ['address', 'Address:', false, false],
      ['address2', 'Address 2:', false, false],
      ['city', 'City/Town:', false, false],
      ['state', 'State:', false, false],
      ['zip', 'ZIP:', false, false],
      ['country', 'Country:', false, false],
      ['phone', 'Phone Number:', false, false],
    ]);
    expect(byName.demographic_intl.answers.rows.map((r: any) => r.text)).toContain('ZIP/Postal Code:');
    expect(byName.open_numerical.validation).toEqual({
      type: 'integer',
      text: 'Please enter a whole number.',
      min: '0',
      max: '100',
      sum: 100,
      sum_text: 'Must total 100.',
    });
    expect(byName.open_single.answers).toBeUndefined();
    expect(byName.text_block.answers).toBeUndefined();
  });

  it('copies a survey identically but for ids, and records the copy’s source', async () => {
    const a = await server.account();
    const src = (
      await server.client.post(
        '/v3/surveys',
        {
          title: 'Source',
          nickname: 'src',
          language: 'es',
          footer: false,
          pages: [
            { title: 'P1', questions: Object.values(questionOfEachKind) },
            { title: 'P2', description: 'd', questions: [] },
          ],
        },
        { token: a.token },
      )
    ).body;
    const copy = await server.client.post('/v3/surveys', { from_survey_id: src.id }, { token: a.token });
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(src.id);
    const [d1, d2] = await Promise.all([
      server.client.get(`/v3/surveys/${src.id}/details`, { token: a.token }),
      server.client.get(`/v3/surveys/${copy.body.id}/details`, { token: a.token }),
    ]);
    expect(withoutIds(d2.body)).toEqual(withoutIds(d1.body));
    const ids1 = JSON.stringify(d1.body).match(/"id":"\d+"/g)!;
    const ids2 = new Set(JSON.stringify(d2.body).match(/"id":"\d+"/g));
    expect(ids1.some((x) => ids2.has(x))).toBe(false);
    const copied = await events('survey_created', copy.body.id);
    expect(copied).toHaveLength(1);
    expect(JSON.parse(copied[0].data)).toEqual({ title: 'Source', from_survey_id: src.id });
    const renamed = await server.client.post(
      '/v3/surveys',
      { from_survey_id: src.id, title: 'Renamed' },
      { token: a.token },
    );
    expect(renamed.body).toMatchObject({
      title: 'Renamed',
      nickname: 'src',
      question_count: src.question_count,
    });
  });

  it('shows creating, copying, changing and deleting surveys in the team’s activity', async () => {
    const a = await server.account();
    const team = await createTeam(server.deps, a.user, { name: 'Survey team' });
    const src = (await server.client.post('/v3/surveys', { title: 'Original' }, { token: a.token })).body;
    clock.advance(1000); // the log is in time order
    const copy = (await server.client.post('/v3/surveys', { from_survey_id: src.id }, { token: a.token }))
      .body;
    clock.advance(1000);
    await server.client.patch(`/v3/surveys/${copy.id}`, { title: 'Renamed copy' }, { token: a.token });
    clock.advance(1000);
    await server.client.delete(`/v3/surveys/${src.id}`, { token: a.token });
    const rows = await server.deps.db.kysely
      .selectFrom('group_activities')
      .select(['activity_type', 'activity_msg'])
      .where('group_id', '=', team.id)
      .orderBy('created_at')
      .orderBy('event_id')
      .execute();
    expect(rows.map((r) => r.activity_type)).toEqual([
      'survey_info_create',
      'survey_info_copy',
      'survey_info_update',
      'survey_info_delete',
    ]);
    expect(rows[1].activity_msg).toContain(src.id);
  });

  it('refuses to copy another user’s survey, an unknown template or two sources at once', async () => {
    const a = await server.account();
    const b = await server.account();
    const theirs = (await server.client.post('/v3/surveys', {}, { token: b.token })).body;
    const copy = await server.client.post('/v3/surveys', { from_survey_id: theirs.id }, { token: a.token });
    expect(copy.status).toBe(404);
    expect(copy.body.error.id).toBe('1020');
    expect(
      (await server.client.post('/v3/surveys', { from_template_id: '424242' }, { token: a.token })).status,
    ).toBe(404);
    expect(
      (await server.client.post('/v3/surveys', { from_team_template_id: '424242' }, { token: a.token }))
        .status,
    ).toBe(404);
    const both = await server.client.post(
      '/v3/surveys',
      { from_survey_id: theirs.id, from_template_id: '1001' },
      { token: a.token },
    );
    expect(both.status).toBe(400);
    expect(both.body.error.id).toBe('1002');
  });

  it('creates a survey from a template', async () => {
    const a = await server.account();
    const res = await server.client.post('/v3/surveys', { from_template_id: '1001' }, { token: a.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Customer Satisfaction Survey',
      category: 'customer_feedback',
      question_count: 5,
      page_count: 1,
    });
    const created = await events('survey_created', res.body.id);
    expect(JSON.parse(created[0].data)).toEqual({
      title: 'Customer Satisfaction Survey',
      from_template_id: '1001',
    });
  });

  it('refuses more than 1000 questions with 413/1030 and writes nothing', async () => {
    const a = await server.account();
    const q = { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] };
    const count = async () =>
      (
        await server.deps.db.kysely
          .selectFrom('surveys')
          .select('id')
          .where('owner_id', '=', a.user.id)
          .execute()
      ).length;
    const tooMany = await server.client.post(
      '/v3/surveys',
      { pages: [{ questions: Array(600).fill(q) }, { questions: Array(401).fill(q) }] },
      { token: a.token },
    );
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.id).toBe('1030');
    expect(await count()).toBe(0);
    const full = await server.client.post(
      '/v3/surveys',
      { pages: [{ questions: Array(1000).fill(q) }] },
      { token: a.token },
    );
    expect(full.status).toBe(201);
    expect(full.body.question_count).toBe(1000);
    const details = await server.client.get(`/v3/surveys/${full.body.id}/details`, { token: a.token });
    const pageId = details.body.pages[0].id;
    const one = await server.client.post(`/v3/surveys/${full.body.id}/pages/${pageId}/questions`, q, {
      token: a.token,
    });
    expect(one.status).toBe(413);
    expect(one.body.error.id).toBe('1030');
    expect(
      (await server.client.get(`/v3/surveys/${full.body.id}`, { token: a.token })).body.question_count,
    ).toBe(1000);
    const rows = await server.deps.db.kysely
      .selectFrom('survey_questions')
      .select('id')
      .where('survey_id', '=', full.body.id)
      .execute();
    expect(rows).toHaveLength(1000);
  });

  it('lets exactly as many concurrent question creates through as fit under 1000', async () => {
    const a = await server.account();
    const q = { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Q' }] };
    const s = (
      await server.client.post(
        '/v3/surveys',
        { pages: [{ questions: Array(997).fill(q) }] },
        { token: a.token },
      )
    ).body;
    const pageId = (await server.client.get(`/v3/surveys/${s.id}/pages`, { token: a.token })).body.data[0].id;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.client.post(`/v3/surveys/${s.id}/pages/${pageId}/questions`, q, { token: a.token }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 413)).toHaveLength(5);
    const rows = await server.deps.db.kysely
      .selectFrom('survey_questions')
      .select('position')
      .where('survey_id', '=', s.id)
      .execute();
    expect(rows).toHaveLength(1000);
    // The counter's row lock serialises the creates: positions stay 1..n without gaps or twins.
    expect(new Set(rows.map((r) => r.position)).size).toBe(1000);
    expect(Math.max(...rows.map((r) => r.position))).toBe(1000);
    expect((await server.client.get(`/v3/surveys/${s.id}`, { token: a.token })).body.question_count).toBe(
      1000,
    );
  });

  it('keeps question_count and page_count equal to the rows after any sequence of changes', async () => {
    const a = await server.account();
    const q = questionOfEachKind.single_vertical;
    const s = (
      await server.client.post(
        '/v3/surveys',
        { pages: [{ questions: [q, q] }, { questions: [q] }] },
        { token: a.token },
      )
    ).body;
    const base = `/v3/surveys/${s.id}/pages`;
    const pages = async () => (await server.client.get(base, { token: a.token })).body.data;
    const [p1, p2] = await pages();
    const p3 = (await server.client.post(base, { position: 2 }, { token: a.token })).body;
    await server.client.post(`${base}/${p3.id}/questions`, q, { token: a.token });
    await server.client.post(`${base}/${p3.id}/questions`, { ...q, answers: {} }, { token: a.token }); // refused
    const first = (await server.client.get(`${base}/${p1.id}/questions`, { token: a.token })).body.data[0];
    await server.client.delete(`${base}/${p1.id}/questions/${first.id}`, { token: a.token });
    await server.client.delete(`${base}/${p2.id}`, { token: a.token });
    const survey = (await server.client.get(`/v3/surveys/${s.id}`, { token: a.token })).body;
    const k = server.deps.db.kysely;
    const questionRows = await k
      .selectFrom('survey_questions')
      .select(['page_id', 'position'])
      .where('survey_id', '=', s.id)
      .execute();
    const pageRows = await k
      .selectFrom('survey_pages')
      .select(['id', 'position'])
      .where('survey_id', '=', s.id)
      .orderBy('position')
      .execute();
    expect(survey).toMatchObject({ question_count: questionRows.length, page_count: pageRows.length });
    expect([questionRows.length, pageRows.length]).toEqual([2, 2]);
    expect(pageRows.map((p) => p.position)).toEqual([1, 2]);
    const listed = await pages();
    expect(listed.map((p: any) => p.id)).toEqual([p1.id, p3.id]);
  });

  it('limits Bulk question types by plan (403/1015) and names the bad question (400/1002)', async () => {
    const basic = await server.account({ plan: 'basic' });
    const slider = await server.client.post(
      '/v3/surveys',
      { pages: [{ questions: [questionOfEachKind.slider] }] },
      { token: basic.token },
    );
    expect(slider.status).toBe(403);
    expect(slider.body.error.id).toBe('1015');
    const a = await server.account();
    const bad = await server.client.post(
      '/v3/surveys',
      {
        pages: [
          {
            questions: [
              questionOfEachKind.open_single,
              { family: 'single_choice', subtype: 'vertical', headings: [{ heading: 'x' }] },
            ],
          },
        ],
      },
      { token: a.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/pages\.0\.questions\.1: 'answers\.choices'/);
  });
});

describe('GET /surveys', () => {
  it('lists own surveys with paging, sorting, includes and filters', async () => {
    const c = new TestClock('2026-03-01T10:00:00Z');
    const srv = await startServer({ clock: c });
    try {
      const a = await srv.account();
      const b = await srv.account();
      await srv.client.post('/v3/surveys', { title: 'Not yours' }, { token: b.token });
      const folder = (await srv.client.post('/v3/survey_folders', { title: 'F' }, { token: a.token })).body;
      const made: any[] = [];
      for (const [i, title] of ['Charlie', 'alpha', 'Bravo'].entries()) {
        c.set(`2026-03-0${i + 1}T10:00:00Z`);
        made.push(
          (
            await srv.client.post(
              '/v3/surveys',
              { title, ...(i === 2 ? { folder_id: folder.id } : {}) },
              { token: a.token },
            )
          ).body,
        );
      }
      const list = await srv.client.get('/v3/surveys', { token: a.token });
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(3);
      expect(list.body.data.map((s: any) => s.title)).toEqual(['Bravo', 'alpha', 'Charlie']);
      expect(Object.keys(list.body.data[0]).sort()).toEqual(['href', 'id', 'nickname', 'title']);
      const byTitle = await srv.client.get('/v3/surveys?sort_by=title&sort_order=ASC', { token: a.token });
      expect(byTitle.body.data.map((s: any) => s.title)).toEqual(['alpha', 'Bravo', 'Charlie']);
      const desc = await srv.client.get('/v3/surveys?sort_by=date_modified&sort_order=ASC', {
        token: a.token,
      });
      expect(desc.body.data.map((s: any) => s.title)).toEqual(['Charlie', 'alpha', 'Bravo']);
      const responses = await srv.client.get('/v3/surveys?sort_by=num_responses', { token: a.token });
      expect(responses.status).toBe(200);
      const paged = await srv.client.get('/v3/surveys?per_page=2&page=1&sort_by=title', { token: a.token });
      expect(paged.body.data).toHaveLength(2);
      expect(paged.body.links.next).toContain('page=2');
      expect(paged.body.links.last).toContain('page=2');
      const last = await srv.client.get('/v3/surveys?per_page=2&page=2', { token: a.token });
      expect([last.body.total, last.body.data.length, last.body.links.next]).toEqual([3, 1, undefined]);
      const beyond = await srv.client.get('/v3/surveys?per_page=2&page=5', { token: a.token });
      expect([beyond.body.total, beyond.body.data.length]).toEqual([3, 0]);
      const search = await srv.client.get('/v3/surveys?title=LPH', { token: a.token });
      expect(search.body.data.map((s: any) => s.title)).toEqual(['alpha']);
      const percent = await srv.client.get('/v3/surveys?title=%25', { token: a.token });
      expect(percent.body.total).toBe(0);
      const inFolder = await srv.client.get(`/v3/surveys?folder_id=${folder.id}`, { token: a.token });
      expect(inFolder.body.data.map((s: any) => s.title)).toEqual(['Bravo']);
      for (const [start, end] of [
        ['2026-03-02T00:00:00', '2026-03-02T23:59:59'],
        ['2026-03-02T00:00:00Z', '2026-03-02T23:59:59Z'],
        ['2026-03-02T01:00:00+01:00', '2026-03-03T00:59:59%2B01:00'],
      ]) {
        const range = await srv.client.get(`/v3/surveys?start_modified_at=${start}&end_modified_at=${end}`, {
          token: a.token,
        });
        expect(range.status).toBe(200);
        expect(range.body.data.map((s: any) => s.title)).toEqual(['alpha']);
      }
      const inc = await srv.client.get(
        '/v3/surveys?include=response_count,date_created,date_modified,language,question_count,analyze_url,preview,collect_stats&sort_by=title',
        { token: a.token },
      );
      expect(inc.body.data[0]).toMatchObject({
        title: 'alpha',
        response_count: 0,
        date_created: '2026-03-02T10:00:00',
        date_modified: '2026-03-02T10:00:00',
        language: 'en',
        question_count: 0,
        analyze_url: made[1].analyze_url,
        preview: made[1].preview,
        collect_stats: { total_count: 0 },
      });
      // The list is written as text, not by the schema serializer: the same fields, in its order.
      expect(Object.keys(inc.body.data[0])).toEqual([
        'id',
        'title',
        'nickname',
        'href',
        'response_count',
        'date_created',
        'date_modified',
        'language',
        'question_count',
        'analyze_url',
        'preview',
        'collect_stats',
      ]);
      expect(Object.keys(inc.body)).toEqual(['data', 'per_page', 'page', 'total', 'links']);
      const owned = await srv.client.get('/v3/surveys?include=owned', { token: a.token });
      expect(owned.body.total).toBe(3);
      const sharedWith = await srv.client.get('/v3/surveys?include=shared_with', { token: a.token });
      expect(sharedWith.body.total).toBe(0);
      expect((await srv.client.get('/v3/surveys?include=nonsense', { token: a.token })).body.error.id).toBe(
        '1003',
      );
      expect(
        (await srv.client.get('/v3/surveys?start_modified_at=yesterday', { token: a.token })).body.error.id,
      ).toBe('1003');
      expect((await srv.client.get('/v3/surveys?sort_by=colour', { token: a.token })).body.error.id).toBe(
        '1003',
      );
      expect((await srv.client.get('/v3/surveys?per_page=1001', { token: a.token })).body.error.id).toBe(
        '1003',
      );
      expect((await srv.client.get('/v3/surveys')).body.error.id).toBe('1010');
      const noScope = await srv.account({ scopes: ['users_read'] });
      expect((await srv.client.get('/v3/surveys', { token: noScope.token })).body.error.id).toBe('1014');
      const head = await srv.client.request('HEAD', '/v3/surveys', { token: a.token });
      expect(head.status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});
