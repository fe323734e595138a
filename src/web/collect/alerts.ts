// /collect/alerts?sm=<manage token>: the survey's response alerts (an email on each completed
// response, or a daily digest, or none) and who they go to (the owner, or chosen members of the
// owner's team), set through domain/alerts.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  type AlertMode,
  alertCandidates,
  alertModeOf,
  alertRecipientIds,
  alertsOptedOut,
  setAlertMode,
} from '../../domain/alerts/alerts.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage, userPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import { surveyHeader } from '../layout.js';
import { Checked, type PageApp } from '../page-area.js';
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
    const [mode, optedOut, candidates, chosen] = await Promise.all([
      alertModeOf(deps, survey.id),
      alertsOptedOut(deps, survey.owner_id),
      alertCandidates(deps, survey.owner_id),
      alertRecipientIds(deps, survey),
    ]);
    const isOwner = user.id === survey.owner_id;
    const recipients = html`<fieldset><legend>Send them to</legend>
${candidates.length > 1 ? html`<p class="hint">Among you and the active members of your team; with nobody ticked, they go to you. Someone who leaves the team stops getting them.</p>` : ''}
${candidates.map(
  (c) =>
    html`<div class="check"><input type="checkbox" id="alert-to-${c.user_id}" name="to" value="${c.user_id}"${chosen.includes(c.user_id) ? html` checked` : ''}${isOwner ? '' : html` disabled`}><label for="alert-to-${c.user_id}">${c.owner ? (isOwner ? 'You' : `${c.name} (owner)`) : c.name} <span class="muted">${c.email}</span></label></div>`,
)}
</fieldset>`;
    const body = html`${surveyHeader(survey, 'collect')}
<h2>Response alerts</h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error ? html`<p class="notice danger" role="alert">${state.error.detail ?? state.error.message}</p>` : ''}
${optedOut ? html`<p class="notice warn">The survey's owner has turned off all alerts on their account page, so none are sent.</p>` : ''}
<form method="post" action="${alertsUrl(survey.manage_token)}">${hidden(csrf)}
<fieldset><legend>Email</legend>
${CHOICES.map(
  ([value, label, hint]) =>
    html`<div class="check"><input type="radio" id="alert-${value}" name="mode" value="${value}"${value === mode ? html` checked` : ''}${hint ? html` aria-describedby="alert-${value}-hint"` : ''}><label for="alert-${value}">${label}</label></div>${hint ? html`<p class="hint" id="alert-${value}-hint">${hint}</p>` : ''}`,
)}
</fieldset>
${recipients}
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
        body: Type.Object({
          _csrf: Type.String({ maxLength: 200 }),
          mode: Type.String({ maxLength: 10 }),
          to: Checked,
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { sm } = request.query;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(alertsUrl(sm)), 303);
      const survey = await managedSurvey(deps, { user }, sm, 'collect', 'write');
      try {
        const { to } = request.body;
        const chosen = to === undefined ? [] : typeof to === 'string' ? [to] : to;
        await setAlertMode(deps, user.id, survey, request.body.mode, chosen);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return render(reply, user, survey, { error: err });
      }
      return reply.redirect(`${alertsUrl(sm)}&done=1`, 303);
    },
  );
}
