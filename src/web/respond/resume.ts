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
import { respondentLanguage } from '../../domain/surveys/translations.js';
import { baseUrl } from '../../http/paging.js';
import { ApiError } from '../../platform/errors.js';
import { browserLanguage, type Translate, translator } from '../../platform/i18n/index.js';
import { sha256 } from '../../platform/secrets.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { waitText } from './language.js';
import { localizeSurvey } from './localize.js';
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

/** A sentence with the day (marked up) in the place its translation puts `{date}`. */
function withDay(t: Translate, key: 'later_link' | 'link_expired', iso: string, days = 0): Html {
  const [before, after = ''] = t(key, { date: '\u0000', days }).split('\u0000');
  return html`${before}${day(iso)}${after}`;
}

/** The link, where to email it, and the way back. */
function linkPanel(
  t: Translate,
  lang: string,
  base: string,
  token: string,
  expiresAt: string,
  note: Html | string = '',
  email = '',
): Html {
  const url = `${base}${RESUME_PATH}${token}`;
  return html`${note}<p>${withDay(t, 'later_link', expiresAt)}</p>
<p class="secret resume-link"><a href="${url}">${url}</a></p>
<p>${t('later_secret')}</p>
<form method="post" action="${RESUME_PATH}${token}/email?lang=${encodeURIComponent(lang)}" class="resume-email">
<label for="resume-email">${t('later_email')}</label>
<input type="email" id="resume-email" name="email" autocomplete="email" value="${email}" required>
<p><button type="submit">${t('later_send')}</button></p>
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
  // the survey as shown, so in the page's language
  const t = translator(survey.language);
  const body = saved
    ? html`<div role="status" class="finish-later"><p><strong>${t('later_saved')}</strong></p></div>
${linkPanel(t, survey.language, baseUrl(reply.request), saved.token, saved.expiresAt)}`
    : html`<div role="status" class="finish-later"><p>${t('later_not_kept')}</p></div>`;
  return send(
    reply,
    200,
    t('later_title', { title: survey.title }),
    html`<h1>${survey.title}</h1>${body}<p><a href="${back}">${t('return')}</a></p>`,
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

/** A message in the page's words. */
type Words = (t: Translate) => string;

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const LangQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 35 })) });
const EmailBody = Type.Object({ email: Type.Optional(Type.String({ maxLength: 1000 })) });

/** The link's routes, registered in the respondent pages' scope with their frame; returns the page
 * that follows Finish later (in that frame). */
export function resumeRoutes(app: PageApp, deps: Deps, send: Send) {
  /** The survey in the language the page was in (`lang`), else the one the browser asks for. */
  async function shownIn(reply: FastifyReply, stored: SurveyRow, lang: string | undefined) {
    const l = await respondentLanguage(deps, stored, lang, reply.request.headers['accept-language']);
    const survey = await withTheme(deps, l.translation ? localizeSurvey(stored, l.translation) : stored);
    return { survey, t: translator(survey.language) };
  }

  /** A page for a link that leads nowhere now. */
  async function endPage(
    reply: FastifyReply,
    s: Exclude<ResumeState, { state: 'open' }>,
    lang: string | undefined,
  ) {
    if (s.state === 'unknown') {
      const t = translator(browserLanguage(reply.request.headers['accept-language']));
      return send(
        reply,
        404,
        t('link_unknown_title'),
        html`<h1>${t('link_unknown_heading')}</h1><p>${t('link_unknown')}</p>`,
      );
    }
    const { survey, t } = await shownIn(reply, s.survey, lang);
    const message =
      s.state === 'expired'
        ? html`<p><strong>${t('link_expired_heading')}</strong></p><p>${withDay(t, 'link_expired', s.expiresAt, deps.config.resumeDays)}</p>`
        : s.state === 'done'
          ? html`<p><strong>${t('link_done_heading')}</strong></p><p>${t('link_done')}</p>`
          : html`<p><strong>${t('link_locked_heading')}</strong></p><p>${t('link_locked')}</p>`;
    return send(
      reply,
      s.state === 'expired' ? 410 : 200,
      t('later_title', { title: survey.title }),
      html`<h1>${survey.title}</h1><div role="status" class="resume-ended" data-state="${s.state}">${message}</div>`,
      survey,
    );
  }

  app.get(
    '/r/resume/:token',
    { schema: { hide: true, params: TokenParams, querystring: LangQuery } },
    async (request, reply) => {
      const s = await openResumeLink(deps, request.params.token);
      if (s.state !== 'open') return endPage(reply, s, request.query.lang);
      return continueResponse(deps, reply, s.link);
    },
  );
  app.post(
    '/r/resume/:token/email',
    { schema: { hide: true, params: TokenParams, querystring: LangQuery, body: EmailBody } },
    async (request, reply) => {
      const token = request.params.token;
      const lang = request.query.lang;
      const email = request.body.email ?? '';
      const page = (stored: SurveyRow, expiresAt: string, status: number, message: Words, typed = '') =>
        emailPage(reply, token, lang, stored, expiresAt, status, message, typed);
      let outcome: EmailOutcome;
      try {
        outcome = await emailResumeLink(deps, token, email, request.ip, lang);
      } catch (err) {
        // the domain refuses only an address that is not one
        if (!(err instanceof ApiError)) throw err;
        const s = await openResumeLink(deps, token);
        if (s.state !== 'open') return endPage(reply, s, lang);
        return page(s.survey, s.expiresAt, 400, (t) => t('later_bad_email'), email);
      }
      switch (outcome.state) {
        case 'sent': {
          const to = outcome.to;
          return page(outcome.survey, outcome.expiresAt, 200, (t) => t('later_sent', { email: to }));
        }
        case 'capped':
          return page(outcome.survey, outcome.expiresAt, 429, (t) => t('later_capped'));
        case 'wait': {
          const seconds = outcome.retryAfterSeconds;
          reply.header('retry-after', String(seconds));
          return page(
            outcome.survey,
            outcome.expiresAt,
            429,
            (t) => `${t('later_too_many')} ${waitText(t, seconds)}`,
          );
        }
        default:
          return endPage(reply, outcome, lang);
      }
    },
  );

  async function emailPage(
    reply: FastifyReply,
    token: string,
    lang: string | undefined,
    stored: SurveyRow,
    expiresAt: string,
    status: number,
    message: Words,
    email: string,
  ) {
    const { survey, t } = await shownIn(reply, stored, lang);
    const note =
      status === 200
        ? html`<div role="status" class="resume-sent"><p><strong>${message(t)}</strong></p></div>`
        : html`<div role="alert" class="error-summary" id="problems"><p><strong>${message(t)}</strong></p></div>`;
    return send(
      reply,
      status,
      t('later_title', { title: survey.title }),
      html`<h1>${survey.title}</h1>${linkPanel(t, survey.language, baseUrl(reply.request), token, expiresAt, note, email)}`,
      survey,
    );
  }

  return (reply: FastifyReply, survey: Themed, saved: SavedForLater | null, back: string) =>
    finishLaterPage(reply, send, survey, saved, back);
}
