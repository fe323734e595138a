// Data for the collecting scenarios: a survey with every question family, a weblink collector, and
// generated responses posted through the public API (the same shapes the tests generate).
const H = (heading) => [{ heading }];

export const benchPages = [
  {
    title: 'One',
    questions: [
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: H('Colour?'),
        answers: { choices: [{ text: 'Red' }, { text: 'Blue' }], other: [{ text: 'Other' }] },
      },
      {
        family: 'multiple_choice',
        subtype: 'vertical',
        headings: H('Fruit?'),
        answers: { choices: [{ text: 'Apple' }, { text: 'Pear' }, { text: 'Plum' }] },
      },
      {
        family: 'demographic',
        subtype: 'us',
        headings: H('Contact'),
        answers: { rows: [{ type: 'name' }, { type: 'email' }] },
      },
    ],
  },
  {
    title: 'Two',
    questions: [
      {
        family: 'matrix',
        subtype: 'single',
        headings: H('Rate'),
        answers: {
          rows: [{ text: 'Speed' }, { text: 'Price' }],
          choices: [{ text: 'Bad' }, { text: 'Good' }],
        },
      },
      {
        family: 'matrix',
        subtype: 'menu',
        headings: H('Menu'),
        answers: {
          rows: [{ text: 'Mon' }],
          cols: [{ text: 'Meal', choices: [{ text: 'Soup' }, { text: 'Salad' }] }],
        },
      },
      { family: 'open_ended', subtype: 'essay', headings: H('Comments') },
      {
        family: 'open_ended',
        subtype: 'numerical',
        headings: H('Age'),
        answers: { rows: [{ text: 'Age' }] },
      },
      {
        family: 'datetime',
        subtype: 'date_only',
        headings: H('When'),
        answers: { rows: [{ text: 'Date' }] },
      },
    ],
  },
];

/** Valid answers for every question of a survey's /details (deterministic in n). */
export function answersFor(details, n) {
  return details.pages.map((p) => ({
    id: p.id,
    questions: p.questions.map((q) => {
      const a = q.answers ?? {};
      const c = (list) => list[n % list.length].id;
      let answers;
      switch (q.family) {
        case 'single_choice':
          answers = [{ choice_id: c(a.choices) }];
          break;
        case 'multiple_choice':
          answers = a.choices.filter((_, i) => (n >> i) & 1 || i === 0).map((x) => ({ choice_id: x.id }));
          break;
        case 'matrix':
          answers = a.rows.flatMap((r) =>
            q.subtype === 'menu'
              ? a.cols.map((col) => ({ row_id: r.id, col_id: col.id, choice_id: c(col.choices) }))
              : [{ row_id: r.id, choice_id: c(a.choices) }],
          );
          break;
        case 'open_ended':
          answers =
            q.subtype === 'numerical'
              ? a.rows.map((r) => ({ row_id: r.id, text: String(n % 90) }))
              : [{ text: `Comment number ${n}` }];
          break;
        case 'demographic':
          answers = a.rows.filter((r) => r.visible).map((r) => ({ row_id: r.id, text: `${r.type} ${n}` }));
          break;
        case 'datetime':
          answers = a.rows.map((r) => ({ row_id: r.id, text: `0${1 + (n % 9)}/1${n % 10}/2020` }));
          break;
        default:
          answers = [];
      }
      return { id: q.id, answers };
    }),
  }));
}

/** Creates the survey and a weblink collector; returns {details, collector}. */
export async function collectSetup(ctx) {
  const survey = await ctx.http(ctx.base, 'POST', '/v3/surveys', {
    token: ctx.token,
    body: { title: 'Bench', pages: benchPages },
  });
  if (survey.status !== 201) throw new Error(`survey: ${survey.text}`);
  const details = (
    await ctx.http(ctx.base, 'GET', `/v3/surveys/${survey.json.id}/details`, { token: ctx.token })
  ).json;
  const collector = (
    await ctx.http(ctx.base, 'POST', `/v3/surveys/${details.id}/collectors`, {
      token: ctx.token,
      body: { type: 'weblink' },
    })
  ).json;
  return { details, collector };
}

/** Posts `count` generated responses, `concurrency` at a time. */
export async function postResponses(ctx, details, collectorId, count, concurrency = 16) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const res = await ctx.http(ctx.base, 'POST', `/v3/collectors/${collectorId}/responses`, {
        token: ctx.token,
        body: { pages: answersFor(details, n) },
      });
      if (res.status !== 201) throw new Error(`response ${n}: ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Signs the bench user in through the sign-in form; the session's Cookie header. */
export async function signIn(ctx) {
  const cookies = (res) => (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const form = await ctx.http(ctx.base, 'GET', '/login');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)[1];
  const jar = cookies(form).join('; ');
  const body = new URLSearchParams({ _csrf: csrf, username: 'bench', password: 'bench-password' }).toString();
  const res = await ctx.http(ctx.base, 'POST', '/login', {
    body,
    headers: { cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.status !== 303) throw new Error(`bench sign-in failed: ${res.status}`);
  return [jar, ...cookies(res)].join('; ');
}
