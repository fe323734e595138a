// Imports (an extension of the v3 API): the import page's and `survey-service import`'s copy of
// a SurveyMonkey account (or another Survey Service) into the caller's account, for scripts.
// POST starts one in the background (202) or, with dry_run, counts what it would copy (200); GET
// reads one. The rules are src/domain/import/'s; the token is never stored (background.ts).
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  DEFAULT_DAILY_BUDGET,
  DEFAULT_SOURCE,
  importRunner,
  planPageImport,
} from '../../../domain/import/background.js';
import { type ImportStatus, importStatus } from '../../../domain/import/importer.js';
import { baseUrl } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { ApiError } from '../../../platform/errors.js';
import { DryRunResult, ImportBody, ImportJob, ImportParams } from './schemas.js';

const tags = ['Imports'];

function present(request: FastifyRequest, s: ImportStatus): Static<typeof ImportJob> {
  const p = s.progress;
  return {
    id: s.id,
    source_url: s.sourceUrl,
    state: s.state,
    live: s.live,
    progress: {
      phase: p.phase,
      copied: p.copied,
      totals: p.totals,
      responses_here: p.responsesHere,
      requests_today: p.requestsToday,
      daily_budget: p.dailyBudget,
      requests_total: p.requestsTotal,
      requests_left: p.requestsLeft,
      eta_seconds: p.etaSeconds,
    },
    not_copied: s.skipped,
    last_error: s.lastError,
    date_created: withOffset(s.createdAt),
    date_modified: withOffset(s.updatedAt),
    href: `${baseUrl(request)}/v3/imports/${s.id}`,
  };
}

export const importsRoutes: Routes = (app, deps: Deps) => {
  app.post(
    '/imports',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Copy an account from SurveyMonkey (or another Survey Service) into this one',
        description:
          'Needs surveys_write and contacts_write. Starts the copy in the background of this server (202) within the daily request budget, resumable and idempotent: POST the same source again to resume or to copy what is new. With dry_run, answers what would be copied (200).',
        body: ImportBody,
        response: { 200: DryRunResult, 202: ImportJob },
      },
    },
    async (request, reply) => {
      if (!request.auth.granted.has('contacts_write'))
        throw new ApiError(1014, 'Importing copies contacts: the token needs contacts_write too.');
      const body = request.body;
      const options = {
        from: body.from ?? DEFAULT_SOURCE,
        token: body.token,
        dailyBudget: body.daily_budget ?? DEFAULT_DAILY_BUDGET,
      };
      if (body.dry_run) {
        const plan = await planPageImport(deps, options);
        return reply.code(200).send({
          folders: plan.folders,
          surveys: plan.surveys,
          responses: plan.responses,
          contacts: plan.contacts,
          contact_lists: plan.contactLists,
          requests: plan.requests,
          requests_made: plan.requestsMade,
          days: plan.days,
        });
      }
      const id = await importRunner(deps).start({ ...options, owner: request.auth.user });
      return reply.code(202).send(present(request, await importStatus(deps, request.auth.user.id, id)));
    },
  );

  app.get(
    '/imports/:import_id',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'An import: its state, progress and what could not be copied',
        params: ImportParams,
        response: { 200: ImportJob },
      },
    },
    async (request) =>
      present(request, await importStatus(deps, request.auth.user.id, request.params.import_id)),
  );
};
