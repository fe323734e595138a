// /collect/alerts?sm=<manage token>: the survey's response alerts (an email to its owner on each
// completed response, or a daily digest, or none), set through domain/alerts.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { type AlertMode, alertModeOf, alertsOptedOut, setAlertMode } from '../../domain/alerts/alerts.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage, userPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';

const CHOICES: [AlertMode, string, string][] = [
  ['off', 'No alerts', ''],
  ['each', 'An email for each completed response', 'Sent within a minute or so of each response.'],
  [
    'daily',
    'A daily digest',
    'Once a day, the number of responses completed that day (none when there were none).',
  ],
];

export const alertsUrl = (token: string) => `/collect/alerts?sm=${encodeURIComponent(token)}`;

export function alertPages(app: PageApp, deps: Deps): void {
  async function render(
    reply: FastifyReply,
    user: User,
    survey: SurveyRow,
    state: { notice?: string; error?: ApiError },
  ) {
    const csrf = await csrfToken(deps, reply);
    const mode = await alertModeOf(deps, survey.id);
    const optedOut = await alertsOptedOut(deps, survey.owner_id);
    const body = html`${surveyHeader(survey, 'collect')}
<h2>Response alerts</h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error ? html`<p class="notice danger" role="alert">${state.error.detail ?? state.error.message}</p>` : ''}
${optedOut ? html`<p class="notice warn">The survey's owner has turned off all alerts on their account page, so none are sent.</p>` : ''}
<form method="post" action="${alertsUrl(survey.manage_token)}">${hidden(csrf)}
<fieldset><legend>Email the survey's owner</legend>
${CHOICES.map(
  ([value, label, hint]) =>
    html`<div class="check"><input type="radio" id="alert-${value}" name="mode" value="${value}"${value === mode ? html` checked` : ''}${hint ? html` aria-describedby="alert-${value}-hint"` : ''}><label for="alert-${value}">${label}</label></div>${hint ? html`<p class="hint" id="alert-${value}-hint">${hint}</p>` : ''}`,
)}
</fieldset>
<div class="actions"><button type="submit">Save alerts</button></div>
</form>`;
    const status = state.error ? Math.min(state.error.status, 500) : 200;
    return sendPage(
      reply,
      await userPage(deps, reply, user, `Alerts: ${survey.title}`, body, { section: 'surveys' }),
      status,
    );
  }

  const Query = Type.Object({
    sm: Type.String({ maxLength: 100 }),
    done: Type.Optional(Type.String({ maxLength: 10 })),
  });

  app.get('/collect/alerts', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const { sm, done } = request.query;
    const user = await currentUser(deps, request);
    if (!user) return reply.redirect(loginUrl(alertsUrl(sm)), 303);
    const survey = await managedSurvey(deps, { user }, sm, 'collect', 'read');
    return render(reply, user, survey, { notice: done ? 'The alerts are saved.' : undefined });
  });

  app.post(
    '/collect/alerts',
    {
      schema: {
        hide: true,
        querystring: Query,
        body: Type.Object({ _csrf: Type.String({ maxLength: 200 }), mode: Type.String({ maxLength: 10 }) }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { sm } = request.query;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(alertsUrl(sm)), 303);
      const survey = await managedSurvey(deps, { user }, sm, 'collect', 'write');
      try {
        await setAlertMode(deps, user.id, survey, request.body.mode);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return render(reply, user, survey, { error: err });
      }
      return reply.redirect(`${alertsUrl(sm)}&done=1`, 303);
    },
  );
}
