// The design a response is read and checked against is always the survey's current one: two edits
// within one millisecond (same counts), and two databases served by one process, each see their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

const clock = new TestClock('2026-06-01T12:00:00.000Z');
let one: TestServer;
let two: TestServer;

beforeAll(async () => {
  one = await startServer({ clock });
  two = await startServer({ clock });
});
afterAll(async () => {
  await one.close();
  await two.close();
});

/** A one-question survey with a weblink collector and one answered response. */
async function surveyWithResponse(server: TestServer, heading: string) {
  const a = await server.account({ plan: 'premier' });
  const survey = (
    await server.client.post(
      '/v3/surveys',
      {
        title: 'Cached',
        pages: [
          {
            title: 'P',
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading }],
                answers: { choices: [{ text: 'Red' }, { text: 'Blue' }] },
              },
            ],
          },
        ],
      },
      { token: a.token },
    )
  ).body;
  const details = (await server.client.get(`/v3/surveys/${survey.id}/details`, { token: a.token })).body;
  const page = details.pages[0];
  const question = page.questions[0];
  const collector = (
    await server.client.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink' }, { token: a.token })
  ).body;
  const response = await server.client.post(
    `/v3/collectors/${collector.id}/responses`,
    {
      pages: [
        {
          id: page.id,
          questions: [{ id: question.id, answers: [{ choice_id: question.answers.choices[0].id }] }],
        },
      ],
    },
    { token: a.token },
  );
  expect(response.status).toBe(201);
  const simpleHeading = async () =>
    (
      await server.client.get(`/v3/surveys/${survey.id}/responses/${response.body.id}/details?simple=true`, {
        token: a.token,
      })
    ).body.pages[0].questions[0].heading;
  return { a, survey, page, question, simpleHeading };
}

describe('the design index a process keeps', () => {
  it('keeps each database apart when one process serves two', async () => {
    // Fresh databases hand out the same ids in the same order: the same survey id in both.
    const first = await surveyWithResponse(one, 'In one');
    const second = await surveyWithResponse(two, 'In two');
    expect(second.survey.id).toBe(first.survey.id);
    expect(await first.simpleHeading()).toBe('In one');
    expect(await second.simpleHeading()).toBe('In two');
  });

  it('sees an edit made in the same millisecond as the previous one', async () => {
    const s = await surveyWithResponse(one, 'First');
    expect(await s.simpleHeading()).toBe('First');
    // The clock stands still: the edit keeps date_modified and the counts.
    const edited = await one.client.patch(
      `/v3/surveys/${s.survey.id}/pages/${s.page.id}/questions/${s.question.id}`,
      { headings: [{ heading: 'Second' }] },
      { token: s.a.token },
    );
    expect(edited.status).toBe(200);
    expect(await s.simpleHeading()).toBe('Second');
  });
});

describe('GET /surveys/{id}/details', () => {
  it('is valid JSON when a question is stored with an empty design', async () => {
    const s = await surveyWithResponse(one, 'Soon empty');
    await one.deps.db.kysely
      .updateTable('survey_questions')
      .set({ doc: '{}' })
      .where('id', '=', s.question.id)
      .execute();
    const res = await one.client.get(`/v3/surveys/${s.survey.id}/details`, { token: s.a.token });
    expect(res.status).toBe(200);
    expect(res.body.pages[0].questions[0]).toMatchObject({ id: s.question.id, family: 'single_choice' });
  });
});
