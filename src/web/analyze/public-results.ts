// /results/<token>: a survey's shared results (domain/shared-results), read-only and without
// sign-in. The survey's title and look (theme, logo), how many responses the owner's fixed filter
// matches, and the chosen questions' charts (the analyze page's `questionResult`). No link leads into
// the owner's workspace; the page is noindex, sent with no referrer and never cached by browsers.
// A password form when the owner set one (CSRF like every public form; a cookie scoped to the link
// remembers the unlock for a day, and the server refuses it after that; guesses limited per link and address). Unknown, off and expired
// links, and links whose owner may no longer share, all get the same plain 404. Every request
// (views, password tries, unknown links) is counted against the client address's per-minute
// allowance first. The figures are rendered once per results stamp (cachedBody,
// deps.caches.sharedResults); the checks and the frame, on every request.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { type ResultFilter, responseFilters } from '../../domain/analysis/filters.js';
import { recentTexts } from '../../domain/analysis/overview.js';
import { rollups } from '../../domain/analysis/rollups.js';
import { waitText } from '../../domain/limits/attempts.js';
import { type DesignIndex, designIndex } from '../../domain/responses/design-index.js';
import { readableFilters } from '../../domain/responses/plan-limit.js';
import {
  admitResultsView,
  checkResultsPassword,
  fixedFilter,
  isUnlocked,
  isWrittenAnswers,
  type OpenShare,
  openSharedResults,
  shareableQuestions,
  UNLOCK_MS,
  unlockProof,
} from '../../domain/shared-results/shared-results.js';
import { pageErrorHandler, sendPage } from '../account/frame.js';
import { type Html, html, raw } from '../html.js';
import { page, respondentHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { lookOf, type Themed, withTheme } from '../respond/theme.js';
import { csrfToken, isSecure } from '../session.js';
import { questionResult } from './pages.js';
import { filterInWords, shareResultsRoutes } from './share-results.js';

const Params = Type.Object({ token: Type.String({ maxLength: 100 }) });
const NOINDEX = html`<meta name="robots" content="noindex, nofollow">`;

/** A page of the shared results: the survey's header and look, or the plain frame. */
function send(reply: FastifyReply, status: number, title: string, body: Html, survey?: Themed): FastifyReply {
  const look = lookOf(survey);
  reply.header('referrer-policy', 'no-referrer');
  const markup = page(title, html`<div class="shared-results">${body}</div>`, {
    lang: survey?.language ?? 'en',
    header: respondentHeader({
      title: survey?.title ?? 'Survey results',
      logoUrl: survey ? look.logoUrl : null,
    }),
    styles: look.styles,
    head: NOINDEX,
  });
  return sendPage(reply, markup, status, { noindex: true });
}

function notFound(reply: FastifyReply): FastifyReply {
  return send(
    reply,
    404,
    'Results not found',
    html`<h1>Results not found</h1><p>This results link is not valid: it may have been turned off or have expired. Ask whoever sent it for a new one.</p>`,
  );
}

function tooMany(reply: FastifyReply, seconds: number): FastifyReply {
  reply.header('retry-after', String(seconds));
  return send(
    reply,
    429,
    'Please try again shortly',
    html`<h1>Please try again shortly</h1><div role="alert" class="try-again"><p><strong>Too many requests from your connection.</strong></p><p>Please wait ${waitText(seconds)} and reload the page.</p></div>`,
  );
}

const cookieName = (share: OpenShare) => `rs${share.surveyId}`;
const pathOf = (token: string) => `/results/${token}`;

function unlocked(deps: Deps, request: FastifyRequest, share: OpenShare): boolean {
  return isUnlocked(deps, share, request.cookies[cookieName(share)]);
}

export function publicResultsRoutes(app: PageApp, deps: Deps): void {
  async function passwordPage(
    reply: FastifyReply,
    token: string,
    survey: Themed,
    wrong: boolean,
  ): Promise<FastifyReply> {
    const csrf = await csrfToken(deps, reply);
    return send(
      reply,
      wrong ? 403 : 200,
      `${survey.title}: password`,
      html`<h1>${survey.title}: results</h1>
<p>These results are protected by a password.</p>
${wrong ? html`<p class="error" role="alert" id="password-error">That password is not correct.</p>` : ''}
<form method="post" action="${pathOf(token)}/unlock" class="narrow-form">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${wrong ? html` aria-invalid="true" aria-describedby="password-error"` : ''}>
<p><button type="submit">See the results</button></p>
</form>`,
      survey,
    );
  }

  /** The request's share after the throttle, or the reply already sent. */
  async function admit(
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
  ): Promise<OpenShare | FastifyReply> {
    const wait = await admitResultsView(deps, request.ip);
    if (wait) return tooMany(reply, wait.retryAfterSeconds);
    return (await openSharedResults(deps, request.params.token)) ?? notFound(reply);
  }
  const isShare = (x: OpenShare | FastifyReply): x is OpenShare => 'nonce' in x;

  app.get<{ Params: { token: string } }>(
    '/results/:token',
    { schema: { hide: true, params: Params } },
    async (request, reply) => {
      const share = await admit(request, reply);
      if (!isShare(share)) return share;
      const survey = await withTheme(deps, share.survey);
      if (!unlocked(deps, request, share)) return passwordPage(reply, request.params.token, survey, false);
      return send(reply, 200, `${survey.title}: results`, await cachedBody(deps, share), survey);
    },
  );

  app.post<{ Params: { token: string }; Body: { password?: string } }>(
    '/results/:token/unlock',
    {
      schema: {
        hide: true,
        params: Params,
        body: Type.Object({
          _csrf: Type.String({ maxLength: 200 }),
          password: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const share = await admit(request, reply);
      if (!isShare(share)) return share;
      const token = request.params.token;
      const checked = await checkResultsPassword(deps, share, request.body.password ?? '', request.ip);
      if (!checked.ok && checked.reason === 'wrong')
        return passwordPage(reply, token, await withTheme(deps, share.survey), true);
      if (!checked.ok) return tooMany(reply, checked.retryAfterSeconds);
      if (share.passwordHash)
        reply.setCookie(cookieName(share), unlockProof(deps, share), {
          path: pathOf(token),
          maxAge: UNLOCK_MS / 1000,
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecure(deps, request),
        });
      return reply.redirect(pathOf(token), 303);
    },
  );
}

/** The results as rendered under the share's stamp, rendered again when it has moved. */
async function cachedBody(deps: Deps, share: OpenShare): Promise<Html> {
  const cache = deps.caches.sharedResults;
  const hit = cache.get(share.surveyId);
  if (hit?.stamp === share.stamp) return raw(hit.markup);
  const index = await designIndex(deps, share.survey);
  const body = await resultsBody(deps, share, index, fixedFilter(share.filterQuery, index));
  cache.set(share.surveyId, { stamp: share.stamp, markup: body.value });
  return body;
}

/** The results: the count under the fixed filter (in words), then each chosen question's chart. */
async function resultsBody(deps: Deps, share: OpenShare, index: DesignIndex, f: ResultFilter): Promise<Html> {
  const chosen = new Set(share.questionIds);
  const questions = shareableQuestions(index).filter((q) => chosen.has(q.id));
  const filters = readableFilters(share.ownerPlan, responseFilters(share.surveyId, f));
  const { total, items } = await rollups(deps, index, filters, questions);
  const written = new Set(questions.filter(isWrittenAnswers).map((q) => q.id));
  const texts = written.size > 0 ? await recentTexts(deps, filters, written) : new Map<string, string[]>();
  const words = filterInWords(f, index);
  return html`<h1>${share.survey.title}: results</h1>
<p role="status" id="total"><strong>${total}</strong> ${total === 1 ? 'response' : 'responses'}</p>
${words.length ? html`<div class="shared-filter"><p>Counting only responses that match:</p><ul>${words.map((w) => html`<li>${w}</li>`)}</ul></div>` : ''}
${items.map((it) => questionResult(it.question, it.summary, written.has(it.question.id) ? texts.get(it.question.id) : undefined, total))}
<footer class="powered">Read-only results shared by the survey's owner · Survey Service</footer>`;
}

/** The area's error pages: the public page's own frame (no link into any workspace) for its
 * expired forms; every other error as every page scope shows it. */
function resultsErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (request.url.startsWith('/results/') && err.code?.startsWith('FST_CSRF'))
    return send(
      reply,
      403,
      'Please try again',
      html`<h1>Please try again</h1><p role="alert">This form has expired or your browser does not keep cookies. Open the results link again and give the password.</p>`,
    );
  return pageErrorHandler(err, request, reply);
}

export function resultsPages(deps: Deps) {
  return pageArea('results-pages', deps, [shareResultsRoutes, publicResultsRoutes], {
    errorHandler: resultsErrors,
  });
}
