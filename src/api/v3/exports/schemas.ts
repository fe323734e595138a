// TypeBox schemas of response exports: the request (format, values, BOM and the analyze page's
// filters) and the job as read (status with progress, then the file's link).
import { type TSchema, Type } from 'typebox';
import { EXPORT_FORMATS } from '../../../domain/exports/writers.js';
import { RESPONSE_STATUSES } from '../../../domain/responses/responses.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const ApiDate = Type.String({ maxLength: 40, description: 'A date like 2026-01-31T12:00:00+00:00' });

export const ExportParams = Type.Object({ survey_id: Id });
export const OneExportParams = Type.Object({ survey_id: Id, export_id: Id });

export const ExportBody = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        EXPORT_FORMATS.map((f) => Type.Literal(f)),
        {
          description:
            'csv or xlsx: all individual responses; summary: rollups per question (CSV), summary_xlsx: the same as an XLSX sheet; spss: an SPSS syntax file labelling the numeric CSV; pdf: a report of the results (charts, counts, drop-off, median time); pptx: slides with a native chart per question',
        },
      ),
    ),
    values: Type.Optional(
      Type.Union([Type.Literal('text'), Type.Literal('numeric')], {
        description: 'text: the answer text; numeric: choice codes (weight, else position)',
      }),
    ),
    bom: Type.Optional(Type.Boolean({ description: 'CSV: start with a UTF-8 byte order mark (for Excel)' })),
    collector_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
    status: Type.Optional(
      Type.Array(Type.Union(RESPONSE_STATUSES.map((s) => Type.Literal(s))), { maxItems: 4 }),
    ),
    start_created_at: Type.Optional(ApiDate),
    end_created_at: Type.Optional(ApiDate),
    compare_question_id: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,20}$',
        description:
          'summary, pdf and pptx formats only: a single or multiple choice question; each line also gets the count and percent within each of its answers',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ExportJob = Type.Object({
  id: Type.String(),
  survey_id: Type.String(),
  format: Type.String(),
  values: Type.String(),
  bom: Type.Boolean(),
  compare_question_id: Nullable(Type.String()),
  status: Type.Union(
    [Type.Literal('pending'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')],
    { description: 'pending (queued), running, completed (the file is ready) or failed' },
  ),
  progress: Type.Object({
    done: Type.Integer({ description: 'responses written so far' }),
    total: Type.Integer({ description: 'responses selected when the export was asked for' }),
    percent: Type.Integer(),
  }),
  size: Nullable(Type.Integer({ description: 'bytes of the finished file' })),
  error: Nullable(Type.String()),
  date_created: Type.String(),
  date_completed: Nullable(Type.String()),
  expires_at: Type.String({ description: 'the file and this job are deleted after this time' }),
  href: Type.String(),
  download_url: Nullable(Type.String({ description: 'GET it (same token) once status is completed' })),
});
