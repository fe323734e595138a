import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answersFor, collectSetup, postResponses } from './collect-data.js';

// The bench scenarios. Each prepares its data through the public API and names the request wrk
// repeats; `unit` converts requests/s into items/s where a request carries many items.
export const scenarios = [
  {
    name: 'users_me',
    description: 'GET /v3/users/me',
    target: '>= 0.40 of floor, p99 < 20 ms',
    prepare: async () => ({ path: '/v3/users/me' }),
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
    description: 'GET /v3/surveys/{id}/responses/bulk?per_page=100 (unit: responses per page)',
    target: '>= 20,000 responses/s exported on SQLite',
    prepare: async (ctx) => {
      const { details, collector } = await collectSetup(ctx);
      await postResponses(ctx, details, collector.id, Number(process.env.BENCH_EXPORT_RESPONSES ?? 1000));
      return { path: `/v3/surveys/${details.id}/responses/bulk?per_page=100&page=5`, unit: 100 };
    },
  },
  {
    name: 'respondent_page',
    description: 'GET /r/{token}: the first page of a weblink survey, as a new respondent',
    target: '>= 0.30 of floor',
    prepare: async (ctx) => {
      const { collector } = await collectSetup(ctx);
      return { path: new URL(collector.url).pathname };
    },
  },
];
