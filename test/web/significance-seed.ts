// The "Canteen" survey the significance tests read: 30 responses on each floor; tea is chosen by 24
// of the ground floor and 6 of the top (significant at any level), a snack by 20 against 12
// (two-sided p ≈ 0.038: significant at 90% and 95%, not at 99%).
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, singleChoice } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

export async function seedCanteen(server: TestServer, owner: TestAccount) {
  const s = await seedSurvey(server, owner, {
    title: 'Canteen',
    questions: {
      floor: singleChoice('Which floor?', ['Ground floor', 'Top floor']),
      drink: singleChoice('Which drink?', ['Tea', 'Coffee']),
      snack: singleChoice('A snack?', ['Yes', 'No']),
    },
    collector: 'weblink',
  });
  const [ground, top] = s.choices.floor;
  const [tea, coffee] = s.choices.drink;
  const [yes, no] = s.choices.snack;
  const answers = (floor: string, drink: string, snack: string) => [
    { id: s.questions.floor, answers: [{ choice_id: floor }] },
    { id: s.questions.drink, answers: [{ choice_id: drink }] },
    { id: s.questions.snack, answers: [{ choice_id: snack }] },
  ];
  const bodies = Array.from({ length: 30 }, (_, k) => [
    answers(ground, k < 24 ? tea : coffee, k < 20 ? yes : no),
    answers(top, k < 6 ? tea : coffee, k < 12 ? yes : no),
  ]).flat();
  await Promise.all(
    bodies.map(async (questions) => {
      const r = await server.client.post(
        `/v3/collectors/${s.collector.id}/responses`,
        { response_status: 'completed', pages: [{ id: s.pages[0], questions }] },
        { token: owner.token },
      );
      if (r.status !== 201) throw new Error(r.text);
    }),
  );
  return {
    analyze: new URL(s.details.analyze_url).pathname,
    q: {
      floor: s.questions.floor,
      drink: s.questions.drink,
      snack: s.questions.snack,
      ground,
      top,
      tea,
      coffee,
      yes,
      no,
    },
  };
}
