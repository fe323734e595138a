// A three-page survey with every question family (and the display types the respondent page
// renders), and a generator of valid answers for any survey's /details, for tests and the bench.
import type { ApiClient } from '../helpers/client.js';

const H = (heading: string) => [{ heading }];

export const everyFamilyPages = [
  {
    title: 'About you',
    description: 'First things first',
    questions: [
      { family: 'presentation', subtype: 'descriptive_text', headings: H('Welcome <b>friend</b>') },
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Favourite colour?'),
        answers: { choices: [{ text: 'Red' }, { text: 'Blue' }], other: [{ text: 'Other colour' }] },
        required: { text: 'Please pick a colour.', type: 'all', amount: '0' },
      },
      {
        family: 'single_choice',
        subtype: 'menu',
        headings: H('Country?'),
        answers: { choices: [{ text: 'France' }, { text: 'Germany' }] },
      },
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: H('Which fruit?'),
        answers: { choices: [{ text: 'Apple' }, { text: 'Pear' }, { text: 'Plum' }] },
      },
      {
        family: 'demographic',
        subtype: 'us',
        headings: H('Contact'),
        answers: { rows: [{ type: 'name', required: true }, { type: 'email' }] },
      },
    ],
  },
  {
    title: 'Opinions',
    description: '',
    questions: [
      {
        family: 'matrix',
        subtype: 'single',
        headings: H('Rate each'),
        answers: {
          rows: [{ text: 'Speed' }, { text: 'Price' }],
          choices: [{ text: 'Bad' }, { text: 'Good' }],
        },
      },
      {
        family: 'matrix',
        subtype: 'multi',
        headings: H('Which days'),
        answers: { rows: [{ text: 'Week' }, { text: 'Weekend' }], choices: [{ text: 'Am' }, { text: 'Pm' }] },
      },
      {
        family: 'matrix',
        subtype: 'rating',
        headings: H('Rate service'),
        answers: {
          rows: [{ text: 'Staff' }],
          choices: [
            { text: 'Low', weight: 1 },
            { text: 'High', weight: 2 },
          ],
        },
      },
      {
        family: 'matrix',
        subtype: 'ranking',
        headings: H('Rank these'),
        answers: { rows: [{ text: 'Tea' }, { text: 'Coffee' }] },
      },
      {
        family: 'matrix',
        subtype: 'menu',
        headings: H('Pick per row'),
        answers: {
          rows: [{ text: 'Mon' }],
          cols: [{ text: 'Meal', choices: [{ text: 'Soup' }, { text: 'Salad' }] }],
        },
      },
    ],
  },
  {
    title: 'Details',
    description: '',
    questions: [
      { family: 'open_ended', subtype: 'single', headings: H('Your nickname') },
      { family: 'open_ended', subtype: 'essay', headings: H('Tell us more') },
      {
        family: 'open_ended',
        subtype: 'multi',
        headings: H('Two words'),
        answers: { rows: [{ text: 'First' }, { text: 'Second' }] },
      },
      {
        family: 'open_ended',
        subtype: 'numerical',
        headings: H('Numbers'),
        answers: { rows: [{ text: 'Age' }] },
        validation: { type: 'integer', min: 0, max: 150 },
      },
      {
        family: 'datetime',
        subtype: 'date_only',
        headings: H('Birthday'),
        answers: { rows: [{ text: 'Date' }] },
      },
      {
        family: 'datetime',
        subtype: 'time_only',
        headings: H('Wake-up time'),
        answers: { rows: [{ text: 'Time' }] },
      },
    ],
  },
];

export async function createEveryFamilySurvey(client: ApiClient, token: string, title = 'Every family') {
  const res = await client.post('/v3/surveys', { title, pages: everyFamilyPages }, { token });
  if (res.status !== 201) throw new Error(`survey create failed: ${res.status} ${res.text}`);
  const details = await client.get(`/v3/surveys/${res.body.id}/details`, { token });
  return details.body as any;
}

/** A tiny deterministic PRNG so generated answers can be compared run to run. */
export function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const pick = (r: () => number, xs: any[]): any => xs[Math.floor(r() * xs.length)];
const pad = (n: number) => String(n).padStart(2, '0');

/** Valid answers to every answerable question of `details`, as a POST body's `pages`. */
export function randomAnswers(details: any, r: () => number, n: number) {
  return details.pages.map((p: any) => ({
    id: p.id,
    questions: p.questions
      .filter((q: any) => q.family !== 'presentation')
      .map((q: any) => {
        const a: any = q.answers ?? {};
        const answers: any[] = [];
        switch (q.family) {
          case 'single_choice':
            if (a.other && r() < 0.2) answers.push({ other_id: a.other.id, text: `other ${n}` });
            else answers.push({ choice_id: pick(r, a.choices).id });
            break;
          case 'multiple_choice':
            for (const c of a.choices) if (r() < 0.5) answers.push({ choice_id: c.id });
            if (answers.length === 0) answers.push({ choice_id: a.choices[0].id });
            break;
          case 'matrix':
            for (const row of a.rows) {
              if (q.subtype === 'menu')
                for (const col of a.cols)
                  answers.push({ row_id: row.id, col_id: col.id, choice_id: pick(r, col.choices).id });
              else if (q.subtype === 'multi') {
                for (const c of a.choices) if (r() < 0.5) answers.push({ row_id: row.id, choice_id: c.id });
              } else answers.push({ row_id: row.id, choice_id: pick(r, a.choices).id });
            }
            break;
          case 'open_ended':
            if (q.subtype === 'multi' || q.subtype === 'numerical')
              for (const row of a.rows)
                answers.push({
                  row_id: row.id,
                  text: q.subtype === 'numerical' ? String(Math.floor(r() * 100)) : `w${n}`,
                });
            else answers.push({ text: `answer ${n} ${'é"<'.slice(0, n % 4)}` });
            break;
          case 'demographic':
            for (const row of a.rows.filter((x: any) => x.visible))
              answers.push({ row_id: row.id, text: `${row.type} ${n}` });
            break;
          case 'datetime':
            for (const row of a.rows)
              answers.push({
                row_id: row.id,
                text:
                  q.subtype === 'time_only'
                    ? `${pad(1 + (n % 12))}:${pad(n % 60)} ${n % 2 ? 'AM' : 'PM'}`
                    : `${pad(1 + (n % 12))}/${pad(1 + (n % 28))}/19${pad(n % 100)}`,
              });
            break;
        }
        return { id: q.id, answers };
      })
      .filter((q: any) => q.answers.length > 0),
  }));
}

/** Posts `count` generated responses to a collector, `concurrency` at a time; returns their pages by id. */
export async function postGeneratedResponses(
  client: ApiClient,
  token: string,
  collectorId: string,
  details: any,
  count: number,
  concurrency = 8,
  seed = 42,
): Promise<Map<string, any[]>> {
  const r = prng(seed);
  const sent = new Map<string, any[]>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const pages = randomAnswers(details, r, n);
      const res = await client.post(
        `/v3/collectors/${collectorId}/responses`,
        { pages, custom_value: `g${n}` },
        { token },
      );
      if (res.status !== 201) throw new Error(`response ${n} failed: ${res.status} ${res.text}`);
      sent.set(res.body.id, pages);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sent;
}
