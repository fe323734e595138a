// TypeBox schemas of imports (an extension of the v3 API): the request that starts one or plans it
// (a dry run), and an import as read (its state, progress against the source's totals and the
// daily request budget, and what could not be copied).
import { type TSchema, Type } from 'typebox';
import { MAX_DAILY_BUDGET } from '../../../domain/import/background.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const ImportParams = Type.Object({ import_id: Type.String({ pattern: '^[0-9]{1,20}$' }) });

export const ImportBody = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'The source API (default https://api.surveymonkey.com); one of the server’s IMPORT_PAGE_SOURCES',
      }),
    ),
    token: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'An access token of the account to copy. Kept only in the memory of the server process that runs the import, never stored: after a restart, POST again to resume',
    }),
    daily_budget: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DAILY_BUDGET,
        description: 'Requests a day to the source (default 500, the original’s limit for a draft app)',
      }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({ description: 'Count what would be copied and the requests needed; start nothing' }),
    ),
  },
  { additionalProperties: false },
);

const Counts = Type.Record(Type.String(), Type.Integer());

export const ImportJob = Type.Object({
  id: Type.String(),
  source_url: Type.String(),
  state: Type.String({ description: 'running, paused (the day’s budget is spent), done, failed or stopped' }),
  live: Type.Boolean({ description: 'A server process runs it (or waits for tomorrow’s budget)' }),
  progress: Type.Object({
    phase: Type.String(),
    copied: Counts,
    totals: Type.Object({ surveys: Type.Integer(), responses: Type.Integer(), contacts: Type.Integer() }),
    responses_here: Type.Integer(),
    requests_today: Type.Integer(),
    daily_budget: Type.Integer(),
    requests_total: Type.Integer(),
    requests_left: Type.Integer({ description: 'An estimate of the requests the rest needs' }),
    eta_seconds: Type.Integer({ description: 'An estimate of the time left at the daily budget' }),
  }),
  not_copied: Type.Array(Type.Object({ kind: Type.String(), name: Type.String(), reason: Type.String() })),
  last_error: Nullable(Type.String()),
  date_created: Type.String(),
  date_modified: Type.String(),
  href: Type.String(),
});

export const DryRunResult = Type.Object({
  folders: Type.Integer(),
  surveys: Type.Integer(),
  responses: Type.Integer(),
  contacts: Type.Integer(),
  contact_lists: Type.Integer(),
  requests: Type.Integer({ description: 'Requests a full copy needs' }),
  requests_made: Type.Integer({ description: 'Requests this dry run made' }),
  days: Type.Integer({ description: 'Days a full copy takes at the daily budget' }),
});
