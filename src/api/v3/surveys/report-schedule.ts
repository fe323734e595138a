// /v3/surveys/{id}/report_schedule: an extension (docs/api.md). The survey's scheduled summary, a
// weekly or monthly email of its headline figures to its owner; reading takes surveys_read and the
// survey's analyze access, changing surveys_write and being its owner. The rules are domain/reports.
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  deleteReportSchedule,
  REPORT_FREQUENCIES,
  type ReportSchedule,
  reportScheduleOf,
  setReportSchedule,
} from '../../../domain/reports/schedules.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { baseUrl } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { notFound } from '../../../platform/errors.js';
import { SurveyParams } from './schemas.js';

const tags = ['Scheduled summaries'];
const Nullable = <T extends ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const Body = Type.Object(
  {
    frequency: Type.Union(
      REPORT_FREQUENCIES.map((f) => Type.Literal(f)),
      { description: 'weekly or monthly' },
    ),
    weekday: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, maximum: 6, description: 'weekly: 0 (Sunday) to 6' })),
    ),
    day_of_month: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: 31,
          description: 'monthly: 1 to 31 (a shorter month: its last day)',
        }),
      ),
    ),
    hour: Type.Integer({ minimum: 0, maximum: 23, description: 'local hour in time_zone' }),
    time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone name' }),
  },
  { additionalProperties: false },
);
const Resource = Type.Object({
  frequency: Type.String(),
  weekday: Type.Union([Type.Integer(), Type.Null()]),
  day_of_month: Type.Union([Type.Integer(), Type.Null()]),
  hour: Type.Integer(),
  time_zone: Type.String(),
  next_send_at: Type.String({ description: 'when the next summary is due (UTC)' }),
  last_sent_at: Type.Union([Type.String(), Type.Null()]),
  href: Type.String(),
  date_created: Type.String(),
  date_modified: Type.String(),
});
type Resource = Static<typeof Resource>;

const present = (base: string, s: ReportSchedule): Resource => ({
  frequency: s.frequency,
  weekday: s.weekday,
  day_of_month: s.dayOfMonth,
  hour: s.hour,
  time_zone: s.timeZone,
  next_send_at: withOffset(s.nextSendAt),
  last_sent_at: s.lastSentAt ? withOffset(s.lastSentAt) : null,
  href: `${base}/v3/surveys/${s.surveyId}/report_schedule`,
  date_created: withOffset(s.dateCreated),
  date_modified: withOffset(s.dateModified),
});

export const reportScheduleRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/surveys/:survey_id/report_schedule',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: "The survey's scheduled summary (404 when it has none)",
        params: SurveyParams,
        response: { 200: Resource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      const s = await reportScheduleOf(deps, survey.id);
      if (!s) throw notFound('Scheduled summary');
      return present(baseUrl(request), s);
    },
  );

  app.put(
    '/surveys/:survey_id/report_schedule',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: "Set the survey's scheduled summary (its owner only)",
        params: SurveyParams,
        body: Body,
        response: { 200: Resource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      return present(
        baseUrl(request),
        await setReportSchedule(deps, request.auth.user.id, survey, request.body),
      );
    },
  );

  app.delete(
    '/surveys/:survey_id/report_schedule',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: "Stop the survey's scheduled summary (its owner only)",
        params: SurveyParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'analyze', 'read');
      if (!(await deleteReportSchedule(deps, request.auth.user.id, survey)))
        throw notFound('Scheduled summary');
      return reply.code(204).send(null);
    },
  );
};
