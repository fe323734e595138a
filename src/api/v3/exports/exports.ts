// Response exports (an extension of the v3 API): POST starts one (a small one is ready at once,
// 201; a larger one is queued for the worker, 202), GET reads its status and progress, GET .../file
// the finished file. Needs responses_read_detail and analyze access to the survey.
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  downloadName,
  type ExportRow,
  type ExportSpec,
  exportFile,
  exportOptions,
  exportStatus,
  getExportRow,
  startExport,
} from '../../../domain/exports/exports.js';
import { exportFormatOf } from '../../../domain/exports/writers.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { baseUrl } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { parseApiDate, withOffset } from '../../../platform/dates.js';
import { ApiError } from '../../../platform/errors.js';
import { ExportBody, ExportJob, ExportParams, OneExportParams } from './schemas.js';

const tags = ['Exports'];

function bodyDate(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const iso = parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1'));
  if (!iso) throw new ApiError(1002, `'${name}' must be a date like 2026-01-31T12:00:00.`);
  return iso;
}

function specOf(body: Static<typeof ExportBody>): ExportSpec {
  return {
    format: body.format ?? 'csv',
    values: body.values ?? 'text',
    bom: body.bom ?? false,
    collectorIds: body.collector_ids,
    status: body.status,
    startCreated: bodyDate('start_created_at', body.start_created_at),
    endCreated: bodyDate('end_created_at', body.end_created_at),
    compare: body.compare_question_id,
  };
}

function present(request: FastifyRequest, row: ExportRow, now: Date): Static<typeof ExportJob> {
  const spec = exportOptions(row);
  const href = `${baseUrl(request)}/v3/surveys/${row.survey_id}/exports/${row.id}`;
  const status = exportStatus(row, now);
  return {
    id: row.id,
    survey_id: row.survey_id,
    format: row.format,
    values: spec.values,
    bom: spec.bom,
    compare_question_id: spec.compare ?? null,
    status,
    progress: {
      done: row.done,
      total: row.total,
      percent: row.total > 0 ? Math.floor((row.done / row.total) * 100) : status === 'completed' ? 100 : 0,
    },
    size: row.size,
    error: row.error,
    date_created: withOffset(row.created_at),
    date_completed: row.completed_at ? withOffset(row.completed_at) : null,
    expires_at: withOffset(row.expires_at),
    href,
    download_url: status === 'completed' ? `${href}/file` : null,
  };
}

export const exportsRoutes: Routes = (app, deps: Deps) => {
  app.post(
    '/surveys/:survey_id/exports',
    {
      config: { scope: 'responses_read_detail' },
      schema: {
        tags,
        summary: 'Export responses to a file (CSV, XLSX, summary, SPSS syntax)',
        description:
          'Exports of at most EXPORT_SYNC_MAX_RESPONSES responses are written at once (201, status completed); larger ones run in the background (202): poll the job until completed, then GET download_url.',
        params: ExportParams,
        body: ExportBody,
        response: { 201: ExportJob, 202: ExportJob },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      const row = await startExport(
        deps,
        { userId: request.auth.user.id, paid: request.auth.paid },
        survey,
        specOf(request.body ?? {}),
      );
      const job = present(request, row, deps.clock.now());
      return reply.code(job.status === 'completed' || job.status === 'failed' ? 201 : 202).send(job);
    },
  );

  app.get(
    '/surveys/:survey_id/exports/:export_id',
    {
      config: { scope: 'responses_read_detail' },
      schema: {
        tags,
        summary: 'An export job: status and progress',
        params: OneExportParams,
        response: { 200: ExportJob },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      return present(
        request,
        await getExportRow(deps, survey.id, request.params.export_id),
        deps.clock.now(),
      );
    },
  );

  app.get(
    '/surveys/:survey_id/exports/:export_id/file',
    {
      config: { scope: 'responses_read_detail' },
      schema: {
        tags,
        summary: 'The finished export file (409/1025 until the job is completed)',
        params: OneExportParams,
        response: {
          200: Type.Unsafe<unknown>({
            type: 'string',
            format: 'binary',
            description: 'the file (CSV, XLSX or SPSS syntax)',
          }),
        },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      const row = await getExportRow(deps, survey.id, request.params.export_id);
      const file = exportFile(row);
      return reply
        .type(file.mime)
        .header('content-length', file.size)
        .header(
          'content-disposition',
          `attachment; filename="${downloadName(survey, exportFormatOf(row.format))}"`,
        )
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
};
