// /analyze/<manage token>/schedule: the survey's scheduled summary (a weekly or monthly email of its
// headline figures to its owner, at a weekday or day of the month and an hour in a time zone), set
// through domain/reports; a plain form that works without script.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import type { User } from '../../domain/accounts/users.js';
import { alertsOptedOut } from '../../domain/alerts/alerts.js';
import {
  deleteReportSchedule,
  type ReportSchedule,
  reportScheduleOf,
  setReportSchedule,
  WEEKDAYS,
} from '../../domain/reports/schedules.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { ApiError } from '../../platform/errors.js';
import { localTime, timeZoneNames } from '../../platform/time-zones.js';
import { sendPage, userPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { html, raw } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';

export const scheduleUrl = (token: string) => `/analyze/${encodeURIComponent(token)}/schedule`;

const selected = (on: boolean) => (on ? raw(' selected') : '');
const pad = (n: number) => String(n).padStart(2, '0');

export function reportSchedulePages(app: PageApp, deps: Deps): void {
  async function render(
    reply: FastifyReply,
    user: User,
    survey: SurveyRow,
    state: { notice?: string; error?: ApiError },
  ) {
    const csrf = await csrfToken(deps, reply);
    const [schedule, optedOut, prefs] = await Promise.all([
      reportScheduleOf(deps, survey.id),
      alertsOptedOut(deps, survey.owner_id),
      preferencesOf(deps, user.id),
    ]);
    const s: Pick<ReportSchedule, 'frequency' | 'weekday' | 'dayOfMonth' | 'hour' | 'timeZone'> =
      schedule ?? {
        frequency: 'weekly',
        weekday: 1,
        dayOfMonth: 1,
        hour: 9,
        timeZone: prefs.time_zone,
      };
    const mode = schedule?.frequency ?? 'off';
    const isOwner = user.id === survey.owner_id;
    const radio = (value: string, label: string) =>
      html`<div class="check"><input type="radio" id="summary-${value}" name="frequency" value="${value}"${value === mode ? raw(' checked') : ''}><label for="summary-${value}">${label}</label></div>`;
    const body = html`${surveyHeader(survey, 'analyze')}
<h2>Scheduled summary</h2>
<p>An email to the survey's owner with the headline figures: responses in the period and in all, the completion rate, and each question's top answer or average.</p>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error ? html`<p class="notice danger" role="alert">${state.error.detail ?? state.error.message}</p>` : ''}
${optedOut ? html`<p class="notice warn">The survey's owner has turned off alerts on their account page, so no summary is sent.</p>` : ''}
${schedule ? html`<p id="next-summary">Next summary: <strong>${localTime(schedule.nextSendAt, schedule.timeZone)}</strong> (${schedule.timeZone}).</p>` : ''}
${isOwner ? '' : html`<p class="muted">Only the survey's owner can change it.</p>`}
<form method="post" action="${scheduleUrl(survey.manage_token)}">${hidden(csrf)}
<fieldset><legend>Send a summary</legend>${radio('off', 'Never')}${radio('weekly', 'Every week')}${radio('monthly', 'Every month')}</fieldset>
<div><label for="weekday">Day of the week (weekly)</label><select id="weekday" name="weekday">${WEEKDAYS.map(
      (d, i) => html`<option value="${i}"${selected(i === s.weekday)}>${d}</option>`,
    )}</select></div>
<div><label for="day_of_month">Day of the month (monthly)</label><select id="day_of_month" name="day_of_month" aria-describedby="dom-hint">${Array.from(
      { length: 31 },
      (_, i) => html`<option value="${i + 1}"${selected(i + 1 === s.dayOfMonth)}>${i + 1}</option>`,
    )}</select><p class="hint" id="dom-hint">A month without that day gets it on its last day.</p></div>
<div><label for="hour">Time</label><select id="hour" name="hour">${Array.from(
      { length: 24 },
      (_, h) => html`<option value="${h}"${selected(h === s.hour)}>${pad(h)}:00</option>`,
    )}</select></div>
<div><label for="time_zone">Time zone</label><select id="time_zone" name="time_zone">${timeZoneNames().map(
      (z) => html`<option value="${z}"${selected(z === s.timeZone)}>${z}</option>`,
    )}</select></div>
<div class="actions"><button type="submit">Save summary</button></div>
</form>
<p><a href="/analyze/${survey.manage_token}">Back to the results</a></p>`;
    const status = state.error ? Math.min(state.error.status, 500) : 200;
    return sendPage(
      reply,
      await userPage(deps, reply, user, `Scheduled summary: ${survey.title}`, body, { section: 'surveys' }),
      status,
    );
  }

  const Params = Type.Object({ token: Type.String({ maxLength: 100 }) });
  const Query = Type.Object({ done: Type.Optional(Type.String({ maxLength: 10 })) });
  const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

  app.get(
    '/analyze/:token/schedule',
    { schema: { hide: true, params: Params, querystring: Query } },
    async (request, reply) => {
      const { token } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(scheduleUrl(token)), 303);
      const survey = await managedSurvey(deps, { user }, token, 'analyze', 'read');
      return render(reply, user, survey, {
        notice: request.query.done ? 'The summary is saved.' : undefined,
      });
    },
  );

  app.post(
    '/analyze/:token/schedule',
    {
      schema: {
        hide: true,
        params: Params,
        body: Type.Object({
          _csrf: Type.String({ maxLength: 200 }),
          frequency: Type.Optional(Type.String({ maxLength: 10 })),
          weekday: Type.Optional(Type.String({ maxLength: 2 })),
          day_of_month: Type.Optional(Type.String({ maxLength: 2 })),
          hour: Type.Optional(Type.String({ maxLength: 2 })),
          time_zone: Type.Optional(Type.String({ maxLength: 64 })),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { token } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(scheduleUrl(token)), 303);
      const survey = await managedSurvey(deps, { user }, token, 'analyze', 'read');
      const b = request.body;
      try {
        if ((b.frequency ?? 'off') === 'off') await deleteReportSchedule(deps, user.id, survey);
        else
          await setReportSchedule(deps, user.id, survey, {
            frequency: b.frequency ?? '',
            weekday: num(b.weekday),
            day_of_month: num(b.day_of_month),
            hour: num(b.hour) ?? -1,
            time_zone: b.time_zone ?? '',
          });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return render(reply, user, survey, { error: err });
      }
      return reply.redirect(`${scheduleUrl(token)}?done=1`, 303);
    },
  );
}
