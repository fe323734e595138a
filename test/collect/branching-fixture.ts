// A survey with branching, built through the API as a survey builder would: five pages, choice
// rules on a vertical single choice (page 1) and a dropdown (page 2), and a page rule (page 3).
//   page 1  "Route?"  A -> page 3 | B -> end survey | C -> disqualify | D -> (next page)
//   page 2  "Fork?" (menu)  X -> page 4 | Y -> (next page)
//   page 3  (page rule) -> page 5
//   page 4, page 5: one text question each
import { expect } from 'vitest';
import type { ApiClient } from '../helpers/client.js';

const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });
const choices = (...texts: string[]) => texts.map((t) => ({ text: t }));

export interface Branching {
  surveyId: string;
  pages: string[];
  /** question ids by page (one each) */
  questions: string[];
  /** choice ids of page 1's question (A-D) and page 2's (X, Y) */
  route: Record<'A' | 'B' | 'C' | 'D', string>;
  fork: Record<'X' | 'Y', string>;
}

export async function branchingSurvey(client: ApiClient, token: string): Promise<Branching> {
  const created = await client.post(
    '/v3/surveys',
    {
      title: 'Branching',
      pages: [
        {
          title: 'Start',
          questions: [
            {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Route?' }],
              answers: { choices: choices('A', 'B', 'C', 'D') },
            },
          ],
        },
        {
          title: 'Two',
          questions: [
            {
              family: 'single_choice',
              subtype: 'menu',
              headings: [{ heading: 'Fork?' }],
              answers: { choices: choices('X', 'Y') },
            },
          ],
        },
        { title: 'Three', questions: [text('Three?')] },
        { title: 'Four', questions: [text('Four?')] },
        { title: 'Five', questions: [text('Five?')] },
      ],
    },
    { token },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const details = (await client.get(`/v3/surveys/${created.body.id}/details`, { token })).body;
  const pages: string[] = details.pages.map((p: { id: string }) => p.id);
  const q = (i: number) => details.pages[i].questions[0];
  const base = `/v3/surveys/${details.id}/pages`;
  const [a, b, c, d] = q(0).answers.choices;
  const r1 = await client.patch(
    `${base}/${pages[0]}/questions/${q(0).id}`,
    {
      answers: {
        choices: [
          { ...a, logic: { action: 'go_to_page', page_id: pages[2] } },
          { ...b, logic: { action: 'end_survey' } },
          { ...c, logic: { action: 'disqualify' } },
          d,
        ],
      },
    },
    { token },
  );
  expect(r1.status, JSON.stringify(r1.body)).toBe(200);
  const [x, y] = q(1).answers.choices;
  const r2 = await client.patch(
    `${base}/${pages[1]}/questions/${q(1).id}`,
    { answers: { choices: [{ ...x, logic: { action: 'go_to_page', page_id: pages[3] } }, y] } },
    { token },
  );
  expect(r2.status, JSON.stringify(r2.body)).toBe(200);
  const r3 = await client.patch(
    `${base}/${pages[2]}`,
    { logic: { action: 'go_to_page', page_id: pages[4] } },
    { token },
  );
  expect(r3.status, JSON.stringify(r3.body)).toBe(200);
  return {
    surveyId: details.id,
    pages,
    questions: details.pages.map((p: { questions: Array<{ id: string }> }) => p.questions[0].id),
    route: { A: a.id, B: b.id, C: c.id, D: d.id },
    fork: { X: x.id, Y: y.id },
  };
}
