import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answersFor, benchPages, collectSetup, postResponses, signIn } from './collect-data.js';

// The bench scenarios. Each prepares its data through the public API and names the request wrk
// repeats; `unit` converts requests/s into items/s where a request carries many items.
export const scenarios = [
  {
    name: 'users_me',
    description: 'GET /v3/users/me',
    target: '>= 0.65 of floor',
    prepare: async () => ({ path: '/v3/users/me' }),
  },
  {
    name: 'users_me_counted',
    description: 'GET /v3/users/me for an app with (very high) rate limits: every request is counted',
    target: 'informative: the cost of counting',
    prepare: async (ctx) => {
      const app = ctx.cli([
        'app',
        'create',
        '--owner',
        'bench',
        '--name',
        'Counted',
        '--minute-limit',
        '2000000000',
        '--day-limit',
        '2000000000',
      ]);
      return { path: '/v3/users/me', token: app.access_token };
    },
  },
  {
    name: 'surveys_list',
    description: "GET /v3/surveys, 50 surveys per page (the answer remembered against the owner's stamp)",
    target: '>= 0.25 of floor',
    prepare: async (ctx) => {
      for (let i = 0; i < 50; i++)
        await ctx.http(ctx.base, 'POST', '/v3/surveys', {
          token: ctx.token,
          body: { title: `Bench survey ${i}` },
        });
      return { path: '/v3/surveys?per_page=50&include=date_modified,question_count', unit: 50 };
    },
  },
  {
    name: 'survey_details_1000',
    description: 'GET /v3/surveys/{id}/details of a 1000-question survey (every question family)',
    target: 'informative: items/s = questions served per second',
    prepare: async (ctx) => {
      const h = (heading) => [{ heading }];
      const kinds = [
        {
          family: 'single_choice',
          subtype: 'vertical',
          headings: h('Pick one'),
          answers: { choices: [{ text: 'A' }, { text: 'B' }, { text: 'C' }], other: { text: 'Other' } },
        },
        {
          family: 'multiple_choice',
          subtype: 'vertical',
          headings: h('Pick any'),
          answers: { choices: [{ text: 'A' }, { text: 'B' }, { text: 'C' }, { text: 'D' }] },
        },
        {
          family: 'matrix',
          subtype: 'rating',
          headings: h('Rate'),
          answers: {
            rows: [{ text: 'Speed' }, { text: 'Price' }],
            choices: [1, 2, 3, 4, 5].map((weight) => ({ text: String(weight), weight })),
          },
        },
        {
          family: 'matrix',
          subtype: 'menu',
          headings: h('Menus'),
          answers: {
            rows: [{ text: 'R1' }, { text: 'R2' }],
            cols: [{ text: 'C1', choices: [{ text: 'x' }, { text: 'y' }] }],
          },
        },
        { family: 'open_ended', subtype: 'essay', headings: h('Tell us') },
        {
          family: 'open_ended',
          subtype: 'multi',
          headings: h('Two things'),
          answers: { rows: [{ text: 'One' }, { text: 'Two' }] },
        },
        { family: 'demographic', subtype: 'us', headings: h('Contact') },
        { family: 'datetime', subtype: 'date_only', headings: h('When'), answers: { rows: [{ text: '' }] } },
        { family: 'presentation', subtype: 'descriptive_text', headings: h('Thanks') },
        {
          family: 'single_choice',
          subtype: 'menu',
          headings: h('Country'),
          answers: { choices: [{ text: 'FR' }, { text: 'DE' }] },
          required: { type: 'all', amount: '0' },
        },
      ];
      const pages = Array.from({ length: 10 }, (_, p) => ({
        title: `Page ${p + 1}`,
        questions: Array.from({ length: 100 }, (_, i) => kinds[(p * 100 + i) % kinds.length]),
      }));
      const res = await ctx.http(ctx.base, 'POST', '/v3/surveys', {
        token: ctx.token,
        body: { title: 'Big', pages },
      });
      if (res.status !== 201) throw new Error(`creating the 1000-question survey failed: ${res.text}`);
      return { path: `/v3/surveys/${res.json.id}/details`, unit: 1000 };
    },
  },
  {
    name: 'responses_post',
    description:
      'POST /v3/collectors/{id}/responses (8 questions, every family; each acknowledged one committed)',
    target: '>= 2,000 responses/s on SQLite',
    prepare: async (ctx) => {
      const { details, collector } = await collectSetup(ctx);
      const file = join(ctx.dir, 'response.json');
      writeFileSync(file, JSON.stringify({ pages: answersFor(details, 7) }));
      process.env.BENCH_BODY = file;
      return {
        path: `/v3/collectors/${collector.id}/responses`,
        method: 'POST',
        body: { pages: answersFor(details, 7) },
        script: new URL('./post-json.lua', import.meta.url).pathname,
      };
    },
  },
  {
    name: 'responses_bulk_export',
    description:
      'GET /v3/surveys/{id}/responses/bulk?per_page=100 over every page of 100,000 responses (unit: responses per page)',
    target: '>= 20,000 responses/s exported on SQLite',
    prepare: async (ctx) => {
      const { details, collector } = await collectSetup(ctx);
      const count = Number(process.env.BENCH_EXPORT_RESPONSES ?? 100_000);
      await postResponses(ctx, details, collector.id, count);
      process.env.BENCH_PAGES = String(Math.ceil(count / 100));
      return {
        path: `/v3/surveys/${details.id}/responses/bulk?per_page=100`,
        script: new URL('./walk-pages.lua', import.meta.url).pathname,
        unit: 100,
      };
    },
  },
  {
    name: 'survey_patch',
    description:
      "PATCH /v3/surveys/{id} (the title): an owner's change, its audit log row written in the change's commit",
    target: 'informative: the cost of auditing, against the same change with AUDIT_LOG=false (twin)',
    // Measured again on a second server with the audit log off: the ratio is what auditing costs.
    twin: { name: 'survey_patch_unaudited', env: { AUDIT_LOG: 'false' } },
    prepare: async (ctx) => {
      const survey = (
        await ctx.http(ctx.base, 'POST', '/v3/surveys', { token: ctx.token, body: { title: 'Bench audit' } })
      ).json;
      const body = { title: 'Bench audit (renamed)' };
      const file = join(ctx.dir, 'patch.json');
      writeFileSync(file, JSON.stringify(body));
      process.env.BENCH_PATCH_BODY = file;
      return {
        path: `/v3/surveys/${survey.id}`,
        method: 'PATCH',
        body,
        script: new URL('./patch-json.lua', import.meta.url).pathname,
      };
    },
  },
  {
    name: 'builder_page',
    description: "GET /create/?sm=: a 20-question survey's builder page, signed in",
    target: 'informative: an HTML page (session, survey, design, answer counts)',
    prepare: async (ctx) => {
      const survey = (
        await ctx.http(ctx.base, 'POST', '/v3/surveys', {
          token: ctx.token,
          body: {
            title: 'Bench builder',
            pages: [1, 2].map((p) => ({
              title: `Page ${p}`,
              questions: Array.from({ length: 10 }, (_, i) => ({
                family: i % 2 ? 'open_ended' : 'single_choice',
                subtype: i % 2 ? 'single' : 'vertical',
                headings: [{ heading: `Question ${p}.${i + 1}` }],
                ...(i % 2
                  ? {}
                  : { answers: { choices: [{ text: 'Yes' }, { text: 'No' }, { text: 'Maybe' }] } }),
              })),
            })),
          },
        })
      ).json;
      return {
        path: new URL(survey.edit_url).pathname + new URL(survey.edit_url).search,
        headers: { cookie: await signIn(ctx) },
      };
    },
  },
  {
    name: 'respondent_page',
    description: 'GET /r/{token}: the first page of a weblink survey, as a new respondent',
    target: '>= 0.25 of floor on SQLite, >= 0.15 on PostgreSQL',
    prepare: async (ctx) => {
      const { collector } = await collectSetup(ctx);
      return { path: new URL(collector.url).pathname };
    },
  },
  {
    name: 'respondent_screen',
    description:
      'GET /r/{token}?p=…&screen=1: the second screen of a survey shown one question at a time, as a new respondent',
    target: 'informative: an HTML page; compare respondent_page (the same survey a page at a time)',
    prepare: async (ctx) => {
      const survey = await ctx.http(ctx.base, 'POST', '/v3/surveys', {
        token: ctx.token,
        body: { title: 'Bench screens', question_layout: 'one_at_a_time', pages: benchPages },
      });
      if (survey.status !== 201) throw new Error(`survey: ${survey.text}`);
      const { id } = survey.json;
      const details = (await ctx.http(ctx.base, 'GET', `/v3/surveys/${id}/details`, { token: ctx.token }))
        .json;
      const collector = (
        await ctx.http(ctx.base, 'POST', `/v3/surveys/${id}/collectors`, {
          token: ctx.token,
          body: { type: 'weblink' },
        })
      ).json;
      return { path: `${new URL(collector.url).pathname}?p=${details.pages[0].id}&screen=1` };
    },
  },
  {
    name: 'shared_results_page',
    description:
      'GET /results/{token}: the shared results page of the bench survey (every question shown) with 200 responses, no sign-in',
    target:
      'informative: an HTML page (link, owner, design, rollups from counts, charts); compare respondent_page',
    prepare: async (ctx) => {
      const { details, collector } = await collectSetup(ctx);
      await postResponses(ctx, details, collector.id, 200);
      const cookie = await signIn(ctx);
      const share = `/analyze/share?sm=${new URL(details.analyze_url).pathname.split('/').pop()}`;
      const form = await ctx.http(ctx.base, 'GET', share, { headers: { cookie } });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)[1];
      const questions = [...form.text.matchAll(/name="q" value="(\d+)"/g)].map((m) => ['q', m[1]]);
      const body = new URLSearchParams([['_csrf', csrf], ['state', 'on'], ['filter', 'none'], ...questions]);
      const saved = await ctx.http(ctx.base, 'POST', share, {
        body: body.toString(),
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
      if (saved.status !== 303) throw new Error(`sharing results failed: ${saved.status}`);
      const page = await ctx.http(ctx.base, 'GET', share, { headers: { cookie } });
      return { path: new URL(/id="share-link"[^>]*value="([^"]+)"/.exec(page.text)[1]).pathname };
    },
  },
];

/** Run apart from the others (bench/run.js runScaleOut): 1 vs 2 serve processes behind a proxy. */
export const scaleOut = {
  name: 'scale_out',
  description: 'GET /v3/users/me through a round-robin proxy to 1, then 2 serve processes (PostgreSQL only)',
  target: 'informative: req/s of two processes over one',
  path: '/v3/users/me',
  processes: [1, 2],
};

/**
 * scale_out_4 (opt-in: name it in --only; PostgreSQL): a request whose work is mostly the
 * database's, through the proxy to 1, 2 and 4 serve processes. The survey list showing
 * response_count is never remembered, so each request runs its statements (the owner's count and
 * stamp, the page of 50 from the index).
 */
export const scaleOut4 = {
  name: 'scale_out_4',
  description:
    'GET /v3/surveys?per_page=50&include=response_count (statements every request) through a round-robin proxy to 1, 2, then 4 serve processes (PostgreSQL only)',
  target: 'informative: where PostgreSQL, not the processes, is the limit',
  path: '/v3/surveys?per_page=50&include=response_count,date_modified',
  processes: [1, 2, 4],
  optIn: true,
  prepare: async (base, token, http) => {
    for (let i = 0; i < 50; i++)
      await http(base, 'POST', '/v3/surveys', { token, body: { title: `Scale-out survey ${i}` } });
  },
};

/**
 * cold_start (bench/run.js runColdStart): a fresh `serve` process over the bench's database, loaded
 * the moment it listens, with no warm-up. Its first requests (its modules' first calls, V8's
 * compilation, the first statements prepared, caches empty, and its connections accepted one per
 * event-loop turn) are reported on their own, beside the same process's later requests.
 */
export const coldStart = {
  name: 'cold_start',
  description: 'GET /r/{token} (the respondent page) from a process that has just started, 50 connections',
  target: 'informative: the first 100 requests of a fresh process against its later ones',
  prepare: async (ctx) => {
    const { collector } = await collectSetup(ctx);
    return { path: new URL(collector.url).pathname };
  },
};

/**
 * launch_day (opt-in: name it in --only; PostgreSQL): bench/launch-day.js. Simulated respondents
 * answer a 3-page survey at a person's pace through the proxy to two serve processes and a worker,
 * with a webhook and an email alert on each completed response, in growing numbers until a page's
 * p99 passes 500 ms.
 */
export const launchDay = {
  name: 'launch_day',
  description:
    'respondents (own cookies and address, 2–5 s a page) on a 3-page survey through the proxy to 2 serve + 1 worker, webhooks and alerts on, ramped to a page p99 of 500 ms',
  target: 'informative: completed responses/s at that point, 0 errors, the outbox lag, CPU per side',
  optIn: true,
};

/**
 * respondent_submit (opt-in: name it in --only): a respondent's first page posted through the
 * page's form, each request as another respondent (a session that drew the page beforehand: its
 * cookie, CSRF token and shown stamp), answered by the redirect to the next page. wrk is one client
 * address, so the server must run with the respondent submission caps raised (not 0: the counting
 * is part of a submission's cost), e.g. RESPONSES_PER_MINUTE_PER_ADDRESS=1000000000 in the bench's
 * environment.
 */
scenarios.push({
  name: 'respondent_submit',
  optIn: true,
  description:
    "POST /r/{token}: the first page's form with valid answers, each request a new respondent (drawn beforehand)",
  target: '>= 0.10 of floor on SQLite, >= 0.06 on PostgreSQL',
  prepare: async (ctx) => {
    // The per-collector cap is off by default; the per-address one must be raised.
    if (!(Number(process.env.RESPONSES_PER_MINUTE_PER_ADDRESS) >= 1e8))
      throw new Error(
        'respondent_submit: run the bench with RESPONSES_PER_MINUTE_PER_ADDRESS=1000000000 (wrk is one client address)',
      );
    const { collector } = await collectSetup(ctx);
    const path = new URL(collector.url).pathname;
    // Enough respondents for wrk's warm-up and run and the warm tail's (bench/timeline.js --forms):
    // 2 × duration + 4 seconds at up to 4,000 posts a second.
    const at = process.argv.indexOf('--duration');
    const duration = at > 0 ? Number(process.argv[at + 1]) : 10;
    const count = Number(process.env.BENCH_RESPONDENTS ?? (2 * duration + 4) * 4000);
    const draw = async () => {
      const page = await ctx.http(ctx.base, 'GET', path);
      const cookie = page.headers['set-cookie'][0].split(';')[0];
      const field = (name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)[1];
      const form = new URLSearchParams([
        ['csrf', field('csrf')],
        ['p', field('p')],
        ['started', field('started')],
        ['shown', field('shown')],
        ['leave_this_blank', ''],
        ['nav', 'next'],
      ]);
      // Answers: the first choice of each radio/checkbox question, a name and an email address.
      const seen = new Set();
      for (const [, name, value] of page.text.matchAll(
        /type="(?:radio|checkbox)" id="[^"]*" name="([^"]+)" value="([^"]+)"/g,
      ))
        if (!seen.has(name)) seen.add(name) && form.append(name, value);
      for (const [, type, name] of page.text.matchAll(
        /<input type="(text|email)" id="[^"]*" name="(q_\d+_\d+)"/g,
      ))
        form.append(name, type === 'email' ? 'someone@example.com' : 'Someone');
      return `${cookie}\t${form.toString()}`;
    };
    const lines = [];
    let started = 0;
    const workers = Array.from({ length: 16 }, async () => {
      while (started++ < count) lines.push(await draw());
    });
    await Promise.all(workers);
    const file = join(ctx.dir, 'respondent-forms.tsv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    process.env.BENCH_FORMS = file;
    const [cookie, body] = lines.pop().split('\t');
    return {
      path,
      method: 'POST',
      body,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      script: new URL('./post-form-pool.lua', import.meta.url).pathname,
    };
  },
});
