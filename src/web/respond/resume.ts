// "Finish later" on the respondent page (domain/responses/resume.ts): the button beside the page's
// others, the page that gives the link (and a form to have it emailed), and the link itself
// (/r/resume/<token>), which hands the response to the opening browser and continues at the
// survey's URL as an edit_url does, or says the link has expired, is unknown or its response done.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import { type EditLink, mayResume } from '../../domain/responses/flow.js';
import { bindRespondent } from '../../domain/responses/responses.js';
import {
  type EmailOutcome,
  emailResumeLink,
  openResumeLink,
  RESUME_PATH,
  type ResumeState,
  type SavedForLater,
} from '../../domain/responses/resume.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import { baseUrl } from '../../http/paging.js';
import { ApiError } from '../../platform/errors.js';
import type { Translate } from '../../platform/i18n/index.js';
import { sha256 } from '../../platform/secrets.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { newSessionToken, setCookie } from './session.js';
import { type Themed, withTheme } from './theme.js';

/** The respondent pages' frame (pages.ts `send`): the survey's header, colour and language. */
export type Send = (
  reply: FastifyReply,
  status: number,
  title: string,
  body: Html,
  survey?: Themed,
) => FastifyReply;

/** The button, where the collector lets a saved response be continued. */
export function laterButton(collector: Collector, t: Translate): Html | string {
  return mayResume(collector)
    ? html`<button type="submit" name="nav" value="later" class="secondary">${t('finish_later')}</button>`
    : '';
}

const day = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;

/** The link, where to email it, and the way back. */
function linkPanel(
  base: string,
  token: string,
  expiresAt: string,
  note: Html | string = '',
  email = '',
): Html {
  const url = `${base}${RESUME_PATH}${token}`;
  return html`${note}<p>To finish later, on this or any other device, open this link. It works until ${day(expiresAt)} (UTC).</p>
<p class="secret resume-link"><a href="${url}">${url}</a></p>
<p>Anyone with this link can see and change your answers, so keep it to yourself.</p>
<form method="post" action="${RESUME_PATH}${token}/email" class="resume-email">
<label for="resume-email">Email me the link</label>
<input type="email" id="resume-email" name="email" autocomplete="email" value="${email}" required>
<p><button type="submit">Send the link</button></p>
</form>`;
}

/** The page after Finish later: the link, or why nothing was saved. */
function finishLaterPage(
  reply: FastifyReply,
  send: Send,
  survey: Themed,
  saved: SavedForLater | null,
  back: string,
): FastifyReply {
  const body = saved
    ? html`<div role="status" class="finish-later"><p><strong>Your answers are saved.</strong></p></div>
${linkPanel(baseUrl(reply.request), saved.token, saved.expiresAt)}`
    : html`<div role="status" class="finish-later"><p>This survey does not keep answers to finish later. The pages you completed before this one are kept.</p></div>`;
  return send(
    reply,
    200,
    `${survey.title}: finish later`,
    html`<h1>${survey.title}</h1>${body}<p><a href="${back}">Return to the survey</a></p>`,
    survey,
  );
}

/** Hands the response to a new session of this browser and continues at the survey's URL (an
 * edit_url and a "Finish later" link alike); an email invitation's at its recipient's link. */
export async function continueResponse(
  deps: Deps,
  reply: FastifyReply,
  link: Exclude<EditLink, { refused: unknown }>,
): Promise<FastifyReply> {
  const { response, collector, recipient: invited } = link;
  const sess = newSessionToken();
  await bindRespondent(deps, response.id, sha256(sess));
  const path = `/r/${collector.url_token}`;
  const cookie = invited ? `sr${collector.id}r${invited.id}` : `sr${collector.id}`;
  setCookie(deps, reply, cookie, sess, path, 60 * 60 * 24 * 30);
  return reply.redirect(invited ? `${path}?rcp=${invited.token}` : path, 303);
}

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const EmailBody = Type.Object({ email: Type.Optional(Type.String({ maxLength: 1000 })) });

/** The link's routes, registered in the respondent pages' scope with their frame; returns the page
 * that follows Finish later (in that frame). */
export function resumeRoutes(app: PageApp, deps: Deps, send: Send) {
  /** A page for a link that leads nowhere now. */
  async function endPage(reply: FastifyReply, s: Exclude<ResumeState, { state: 'open' }>) {
    if (s.state === 'unknown')
      return send(
        reply,
        404,
        'Link not found',
        html`<h1>This link is not valid</h1><p>Check that the whole link was copied, or open the survey's own link to start again.</p>`,
      );
    const survey = await withTheme(deps, s.survey);
    const message =
      s.state === 'expired'
        ? html`<p><strong>This link has expired.</strong></p><p>Links to finish a survey later work for ${deps.config.resumeDays} days; this one ended on ${day(s.expiresAt)}. Open the survey's own link to start again.</p>`
        : s.state === 'done'
          ? html`<p><strong>These answers are already sent.</strong></p><p>This survey was finished: there is nothing left to answer. Thank you.</p>`
          : html`<p><strong>This survey no longer lets saved answers be changed.</strong></p><p>The answers saved so far are kept.</p>`;
    return send(
      reply,
      s.state === 'expired' ? 410 : 200,
      `${survey.title}: finish later`,
      html`<h1>${survey.title}</h1><div role="status" class="resume-ended" data-state="${s.state}">${message}</div>`,
      survey,
    );
  }

  app.get('/r/resume/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const s = await openResumeLink(deps, request.params.token);
    if (s.state !== 'open') return endPage(reply, s);
    return continueResponse(deps, reply, s.link);
  });

  app.post(
    '/r/resume/:token/email',
    { schema: { hide: true, params: TokenParams, body: EmailBody } },
    async (request, reply) => {
      const token = request.params.token;
      const email = request.body.email ?? '';
      let outcome: EmailOutcome;
      try {
        outcome = await emailResumeLink(deps, token, email, request.ip);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const s = await openResumeLink(deps, token);
        if (s.state !== 'open') return endPage(reply, s);
        return emailPage(reply, token, s.survey, s.expiresAt, 400, err.message, email);
      }
      switch (outcome.state) {
        case 'sent':
          return emailPage(
            reply,
            token,
            outcome.survey,
            outcome.expiresAt,
            200,
            `The link is on its way to ${outcome.to}.`,
          );
        case 'capped':
          return emailPage(
            reply,
            token,
            outcome.survey,
            outcome.expiresAt,
            429,
            'This link has been emailed as often as it can be. Copy it from this page instead.',
          );
        case 'wait':
          reply.header('retry-after', String(outcome.retryAfterSeconds));
          return emailPage(
            reply,
            token,
            outcome.survey,
            outcome.expiresAt,
            429,
            `Too many emails from your connection. Please wait ${outcome.retryAfterSeconds} seconds and try again.`,
          );
        default:
          return endPage(reply, outcome);
      }
    },
  );

  async function emailPage(
    reply: FastifyReply,
    token: string,
    stored: SurveyRow,
    expiresAt: string,
    status: number,
    message: string,
    email = '',
  ) {
    const survey = await withTheme(deps, stored);
    const note =
      status === 200
        ? html`<div role="status" class="resume-sent"><p><strong>${message}</strong></p></div>`
        : html`<div role="alert" class="error-summary" id="problems"><p><strong>${message}</strong></p></div>`;
    return send(
      reply,
      status,
      `${survey.title}: finish later`,
      html`<h1>${survey.title}</h1>${linkPanel(baseUrl(reply.request), token, expiresAt, note, email)}`,
      survey,
    );
  }

  return (reply: FastifyReply, survey: Themed, saved: SavedForLater | null, back: string) =>
    finishLaterPage(reply, send, survey, saved, back);
}
