// Piping survives a copy: a recall names a question by id, and the copy's questions get new ids,
// so the copy's recalls and display logic name its own questions and choices (imports go through
// the same writer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
});
afterAll(() => server.close());

describe('piping in a copied survey', () => {
  it('remaps the recalled question ids and display logic to the copy’s questions and choices', async () => {
    const s = await server.client.post(
      '/v3/surveys',
      { title: 'Pets', pages: [{ questions: [] }, { questions: [] }] },
      { token: owner.token },
    );
    const d = (await server.client.get(`/v3/surveys/${s.body.id}/details`, { token: owner.token })).body;
    const base = `/v3/surveys/${s.body.id}/pages`;
    const pet = await server.client.post(
      `${base}/${d.pages[0].id}/questions`,
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: [{ heading: 'Your pet?' }],
        answers: { choices: [{ text: 'Dog' }, { text: 'Cat' }] },
      },
      { token: owner.token },
    );
    const named = await server.client.post(
      `${base}/${d.pages[1].id}/questions`,
      {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: `Name of [question("value"), id="${pet.body.id}", fallback="it"]?` }],
        display_logic: { question_id: pet.body.id, choice_ids: [pet.body.answers.choices[1].id] },
      },
      { token: owner.token },
    );
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    const copy = await server.client.post(
      '/v3/surveys',
      { from_survey_id: s.body.id },
      { token: owner.token },
    );
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const c = (await server.client.get(`/v3/surveys/${copy.body.id}/details`, { token: owner.token })).body;
    const copiedPet = c.pages[0].questions[0].id;
    expect(copiedPet).not.toBe(pet.body.id);
    expect(c.pages[1].questions[0].display_logic).toEqual({
      question_id: copiedPet,
      choice_ids: [c.pages[0].questions[0].answers.choices[1].id],
      operator: 'selected',
    });
    expect(c.pages[1].questions[0].headings[0].heading).toBe(
      `Name of [question("value"), id="${copiedPet}", fallback="it"]?`,
    );
  });
});
