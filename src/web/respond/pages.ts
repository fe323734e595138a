// The respondent page at a weblink collector's URL (/r/<token>): the survey page by page with its
// buttons_text, answers checked on the server (and in the browser when JavaScript runs), saved as a
// partial response at each page and completed at the end; thank-you page or redirect; clear pages
// for closed, expired and full collectors; a password form for protected ones. Works without
// JavaScript: plain form posts, each followed by a redirect (post/redirect/get).
import fastifyCookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import { CollectorNotOpen, closedReason } from '../../domain/collectors/collectors.js';
import { checkCollectorPassword } from '../../domain/collectors/password.js';
import type { PageIn, StoredPage } from '../../domain/responses/answers.js';
import { redirectWithValues } from '../../domain/responses/calculated.js';
import type { IndexedPage } from '../../domain/responses/design-index.js';
import {
  mayResume,
  openEditLink,
  type PageView,
  type Place,
  pageView,
  placeOf,
  type Respondent,
} from '../../domain/responses/flow.js';
import { type ResponseRow, storedPages } from '../../domain/responses/responses.js';
import { finishLater } from '../../domain/responses/resume.js';
import { answerPosted, exitPosted, oneAtATime, screenBack } from '../../domain/responses/screens.js';
import { addressWindow, admitSubmission } from '../../domain/responses/submission-limit.js';
import { settingsOf } from '../../domain/surveys/surveys.js';
import {
  ownerTakesFiles,
  type Reservation,
  releaseUpload,
  UploadRefused,
} from '../../domain/uploads/admission.js';
import { discardFiles, type IncomingFile, receiveFile } from '../../domain/uploads/uploads.js';
import { baseUrl } from '../../http/paging.js';
import { browserLanguage, type Message, translator } from '../../platform/i18n/index.js';
import { sha256 } from '../../platform/secrets.js';
import { pageErrorHandler, sendPage } from '../account/frame.js';
import { type Html, html, raw } from '../html.js';
import { page as layout, respondentHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pagePlugin } from '../page-area.js';
import { recalledText, richText } from '../surveys/render-question.js';
import { admitUploadRequest, readMultipart } from '../uploads.js';
import { answersFromForm, type Form, type Values, valuesFromAnswers } from './form-answers.js';
import { frameLanguage, languageSwitcher, shown, waitText } from './language.js';
import { loadRespondent, type RespondentContext } from './load.js';
import { fill, holes, keptPage, pageKey, sameOrderForAll } from './page-cache.js';
import { numberedBefore, questionFields } from './questions.js';
import { quizResultsSection } from './quiz-results.js';
import { quotaEnd } from './quota-end.js';
import { continueResponse, laterButton, resumeRoutes } from './resume.js';
import { renderScreen } from './screen.js';
import {
  type FormStamps,
  respondentRecord,
  respondentResponse,
  screeningFields,
  screenPost,
  stampsOf,
} from './screening.js';
import { SCRIPT } from './script.js';
import {
  csrfToken,
  csrfValid,
  newSessionToken,
  PASSWORD_PROOF_MS,
  passwordProof,
  passwordProven,
  readCookie,
  setCookie,
} from './session.js';
import { lookOf, shareTags, type Themed, themedRoutes, themeRoutes } from './theme.js';

type Ctx = RespondentContext;

/** The survey link (or `sub` below it) with the link's own query kept. */
function linkOf(ctx: Ctx, sub = ''): string {
  return `${ctx.path}${sub}${ctx.query ? `?${ctx.query}` : ''}`;
}

/** A respondent page: the survey's header (title, logo; no links away) and colour, and its language. */
function send(reply: FastifyReply, status: number, title: string, body: Html, survey?: Themed): FastifyReply {
  return sendPage(reply, markupOf(reply, title, body, survey), status, { noindex: true });
}

function markupOf(reply: FastifyReply, title: string, body: Html, survey?: Themed): string {
  const look = lookOf(survey);
  const base = baseUrl(reply.request);
  const lang = survey?.language ?? browserLanguage(reply.request.headers['accept-language']);
  return layout(title, html`<div class="respond">${body}</div>`, {
    ...frameLanguage(lang),
    header: respondentHeader({ title: survey?.title ?? translator(lang)('survey'), logoUrl: look.logoUrl }),
    styles: look.styles,
    // tells an embedding page (embed.js) the page's height
    scripts: ['/assets/respond-frame.js'],
    head: survey ? shareTags(survey, `${base}${reply.request.url.split('?')[0]}`, base) : undefined,
  });
}

function notFound(reply: FastifyReply): FastifyReply {
  const t = translator(browserLanguage(reply.request.headers['accept-language']));
  return send(
    reply,
    404,
    t('not_found_title'),
    html`<h1>${t('not_found_title')}</h1><p>${t('not_found')}</p>`,
  );
}

/** What a respondent form's fields may take, besides its files. */
const FIELDS_BYTES = 1024 * 1024;

function closedPage(reply: FastifyReply, ctx: Ctx, reason: 'closed' | 'expired' | 'full'): FastifyReply {
  return send(
    reply,
    200,
    ctx.t('closed_title', { title: ctx.survey.title }),
    html`<h1>${ctx.survey.title}</h1><div role="status" class="closed" data-reason="${reason}"><p><strong>${ctx.t(reason)}</strong></p><p>${ctx.collector.options.closed_page_message}</p></div>`,
    ctx.survey,
  );
}

function renderSurveyPage(
  deps: Deps,
  ctx: Ctx,
  stamps: FormStamps,
  place: Place,
  values: Values,
  errors: Map<string, Message>,
  started: string,
  view: PageView,
): Html {
  const s = settingsOf(ctx.survey);
  const pages = ctx.index.pages;
  const pageIndex = pages.findIndex((x) => x.id === place.pageId);
  const p = pages[pageIndex];
  const questions = questionFields(
    deps,
    ctx,
    view.questions,
    view,
    values,
    errors,
    numberedBefore(pages, pageIndex),
  );
  const isLast = pageIndex === pages.length - 1;
  const action = linkOf(ctx);
  const { done, total } = place.progress;
  const summary =
    errors.size > 0
      ? html`<div class="error-summary" role="alert" tabindex="-1" id="problems"><p><strong>${errors.size === 1 ? ctx.t('summary_one') : ctx.t('summary_many', { count: errors.size })}</strong></p><ul>${[...errors.keys()].map((id) => html`<li><a href="#q${id}">${recalledText(ctx.index.questions.get(id)?.heading.replace(/<[^>]*>/g, '') ?? '', view.recall)}: ${shown(errors.get(id), ctx.language.lang)}</a></li>`)}</ul></div>`
      : '';
  return html`${languageSwitcher(ctx.language, ctx.path, ctx.query, p.id, ctx.t('language'))}<h1>${ctx.survey.title}</h1>
${summary}
<form method="post" action="${action}" novalidate data-respond${p.questions.some((q) => q.displayType === 'file_upload') ? raw(' enctype="multipart/form-data"') : ''}>
<input type="hidden" name="csrf" value="${stamps.csrf}">
<input type="hidden" name="p" value="${p.id}">
<input type="hidden" name="started" value="${started}">
${p.title ? html`<h2 class="page-title">${richText(p.title, view.recall)}</h2>` : ''}
${p.description ? html`<p>${richText(p.description, view.recall)}</p>` : ''}
${questions}
${screeningFields(deps, stamps, p.id)}
<nav class="survey-nav" aria-label="${ctx.t('pages_label')}">
${place.back && s.buttons_text.prev_button ? html`<button type="submit" name="nav" value="prev" class="secondary">${s.buttons_text.prev_button}</button>` : ''}
<button type="submit" name="nav" value="${isLast ? 'done' : 'next'}">${isLast ? s.buttons_text.done_button : s.buttons_text.next_button}</button>
${s.buttons_text.exit_button ? html`<button type="submit" name="nav" value="exit" class="secondary">${s.buttons_text.exit_button}</button>` : ''}
${laterButton(ctx.collector, ctx.t)}
</nav>
<div class="progress"><label for="progress">${total === done + 1 || isLast ? ctx.t('progress', { page: done + 1, total: done + 1 }) : ctx.t('progress_up_to', { page: done + 1, total })}</label>
<progress id="progress" value="${done}" max="${total}">${Math.round((done / total) * 100)}%</progress></div>
${s.buttons_text.exit_button && !mayResume(ctx.collector) ? html`<p class="muted exit-note">${ctx.t('exit_note', { exit: s.buttons_text.exit_button })}</p>` : ''}
</form>
${s.footer ? html`<footer class="powered">${ctx.t('powered')}</footer>` : ''}
${SCRIPT}`;
}

function valuesOf(ctx: Ctx, r: ResponseRow | undefined, page: IndexedPage): Values {
  if (!r) return {};
  const stored = storedPages(r).find((p) => p.id === page.id);
  const out: Values = {};
  for (const qa of stored?.questions ?? []) {
    const q = ctx.index.questions.get(qa.id);
    if (q) Object.assign(out, valuesFromAnswers(q, qa.answers));
  }
  return out;
}

function thankYou(
  reply: FastifyReply,
  ctx: Ctx,
  closeHint: boolean,
  quizResults: Html | string = '',
): FastifyReply {
  const o = ctx.collector.options;
  const message = o.thank_you_page.is_enabled ? o.thank_you_page.message : o.thank_you_message;
  return send(
    reply,
    200,
    ctx.t('thank_you_title', { title: ctx.survey.title }),
    html`<h1>${ctx.survey.title}</h1><div role="status" class="thank-you"><p>${message}</p>${closeHint ? html`<p>${ctx.t('close_hint')}</p>` : ''}</div>${quizResults}`,
    ctx.survey,
  );
}

/** The end of a disqualified response: the collector's URL when it has one (and its type is not
 * "message"), else its disqualification message. */
function disqualified(reply: FastifyReply, ctx: Ctx): FastifyReply {
  const o = ctx.collector.options;
  if (o.disqualification_url && o.disqualification_type !== 'message')
    return reply.redirect(o.disqualification_url, 303);
  return send(
    reply,
    200,
    ctx.t('thank_you_title', { title: ctx.survey.title }),
    html`<h1>${ctx.survey.title}</h1><div role="status" class="disqualified"><p>${o.disqualification_message}</p></div>`,
    ctx.survey,
  );
}

export function respondPages(deps: Deps) {
  return pagePlugin('respond-pages', async function register(app: PageApp): Promise<void> {
    // Its own CSRF (tied to the respondent's session, not a cookie pair), so not a pageArea; the
    // same HTML error page as every other page scope.
    app.setErrorHandler(pageErrorHandler);
    await app.register(formbody, { bodyLimit: 1024 * 1024 });
    // Pages with a file-upload question post multipart forms, read part by part (readForm).
    await app.register(multipart, {
      // an oversized file is cut at the limit and flagged (truncated), then refused at its question
      throwFileSizeLimit: false,
      limits: { fileSize: deps.config.uploads.maxBytes, files: 20, fields: 5000, fieldSize: FIELDS_BYTES },
    });
    await themeRoutes(app);
    await themedRoutes(app, deps);
    if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

    const load = (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) =>
      loadRespondent(deps, request, reply);

    const sessionCookie = (ctx: Ctx) =>
      ctx.recipient ? `sr${ctx.collector.id}r${ctx.recipient.id}` : `sr${ctx.collector.id}`;
    const passwordCookie = (ctx: Ctx) => `sp${ctx.collector.id}`;
    const embeddable = (ctx: Ctx) => (ctx.collector.options.embed_origins?.length ?? 0) > 0;

    function passwordPage(reply: FastifyReply, ctx: Ctx, session: string, wrong: boolean): FastifyReply {
      const action = linkOf(ctx, '/password');
      return send(
        reply,
        wrong ? 403 : 200,
        ctx.t('password_title', { title: ctx.survey.title }),
        html`<h1>${ctx.survey.title}</h1>
<p>${ctx.t('password_intro')}</p>
${wrong ? html`<p class="error" role="alert">${ctx.t('password_wrong')}</p>` : ''}
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${csrfToken(deps, session)}">
<label for="password">${ctx.t('password')}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<p><button type="submit">${ctx.t('continue')}</button></p>
</form>`,
        ctx.survey,
      );
    }

    /** The session token, minted (and set as a cookie) on first sight (then `fresh`: no response has it). */
    function session(request: FastifyRequest, reply: FastifyReply, ctx: Ctx) {
      const existing = readCookie(request, sessionCookie(ctx));
      if (existing && /^[A-Za-z0-9_-]{20,100}$/.test(existing)) return { sess: existing, fresh: false };
      const minted = newSessionToken();
      setCookie(deps, reply, sessionCookie(ctx), minted, ctx.path, 60 * 60 * 24 * 30, embeddable(ctx));
      return { sess: minted, fresh: true };
    }

    function passwordOk(request: FastifyRequest, ctx: Ctx): boolean {
      const hash = ctx.collector.password_hash;
      if (!hash) return true;
      return passwordProven(deps, ctx.collector.id, hash, readCookie(request, passwordCookie(ctx)));
    }

    /** What the respondent may do now: null to go on, or a reply already sent. */
    function gate(reply: FastifyReply, ctx: Ctx, response: ResponseRow | undefined): FastifyReply | null {
      const reason = closedReason(ctx.collector, deps.clock.now());
      if (reason === 'closed' || reason === 'expired') return closedPage(reply, ctx, reason);
      if (!response && reason === 'full') return closedPage(reply, ctx, 'full');
      if (response?.response_status === 'completed' && ctx.collector.options.edit_response_type !== 'always')
        return send(
          reply,
          200,
          ctx.t('answered_title', { title: ctx.survey.title }),
          html`<h1>${ctx.survey.title}</h1><div role="status"><p>${ctx.t('answered')}</p></div>`,
          ctx.survey,
        );
      if (response?.response_status === 'disqualified') return disqualified(reply, ctx);
      if (ctx.index.pages.length === 0) return closedPage(reply, ctx, 'closed');
      return null;
    }

    app.get<{ Params: { token: string }; Querystring: Record<string, string> }>(
      '/r/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = await load(request, reply);
        if (!ctx) return notFound(reply);
        const { sess, fresh } = session(request, reply, ctx);
        const reason = closedReason(ctx.collector, deps.clock.now());
        if (reason === 'closed' || reason === 'expired') return closedPage(reply, ctx, reason);
        if (!passwordOk(request, ctx)) return passwordPage(reply, ctx, sess, false);
        // A session minted now has no response (nor one kept aside) to look up.
        const response = fresh ? undefined : await respondentResponse(deps, ctx.collector.id, sha256(sess));
        const stop = gate(reply, ctx, response);
        if (stop) return stop;
        const place = placeOf(ctx.index, response, request.query.p);
        const started = response?.date_created ?? deps.clock.now().toISOString();
        const draw = async (stamps: FormStamps, at: string) => {
          const r = { ...ctx, link: new URLSearchParams(ctx.query), respondentKey: sha256(sess) };
          const view = await pageView(deps, r, response, place.pageId);
          const values = valuesOf(ctx, response, ctx.index.pageById.get(place.pageId)!);
          const { screen } = request.query;
          const body = oneAtATime(ctx.survey)
            ? renderScreen(deps, ctx, stamps, response, place, screen, undefined, new Map(), at, view)
            : renderSurveyPage(deps, ctx, stamps, place, values, new Map(), at, view);
          return markupOf(reply, ctx.survey.title, body, ctx.survey);
        };
        const stamps = stampsOf(deps, sess);
        // Everyone's page but for their own stamps: drawn once, kept, filled in.
        const key =
          ctx.rows && !response && !ctx.recipient && sameOrderForAll(ctx.index.pageById.get(place.pageId)!)
            ? pageKey(`${baseUrl(request)}${request.url}`, ctx.language.lang, lookOf(ctx.survey), ctx.rows)
            : null;
        const kept =
          key &&
          (deps.caches.respondentPages.get(key) ??
            (await keptPage(deps, key, () => draw(holes.stamps, holes.started))));
        const markup = kept
          ? fill(kept, { csrf: stamps.csrf, shown: stamps.shown(place.pageId), started })
          : await draw(stamps, started);
        return sendPage(reply, markup, 200, { noindex: true });
      },
    );

    // A response's edit_url: the token is the capability. It hands the response to this browser's
    // session and continues at the collector's URL, if the collector lets responses be edited.
    app.get<{ Querystring: { sm?: string } }>('/r/', { schema: { hide: true } }, async (request, reply) => {
      const link = await openEditLink(deps, String(request.query.sm ?? ''));
      if (!link) return notFound(reply);
      const t = translator(browserLanguage(request.headers['accept-language']));
      if ('refused' in link)
        return send(
          reply,
          403,
          t('edit_refused_title'),
          html`<h1>${t('edit_refused_title')}</h1><p>${t(link.refused === 'never' ? 'edit_refused_saved' : 'edit_refused_completed')}</p>`,
        );
      return continueResponse(deps, reply, link);
    });
    const laterPage = resumeRoutes(app, deps, send);

    app.post<{ Params: { token: string }; Body: Form }>(
      '/r/:token/password',
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = await load(request, reply);
        if (!ctx) return notFound(reply);
        const sess = readCookie(request, sessionCookie(ctx));
        const form = request.body ?? {};
        if (!csrfValid(deps, sess, form.csrf)) return expired(reply, ctx);
        const hash = ctx.collector.password_hash;
        const checked = await checkCollectorPassword(
          deps,
          ctx.collector,
          String(form.password ?? ''),
          request.ip,
        );
        if (!checked.ok && checked.reason === 'wrong') return passwordPage(reply, ctx, sess!, true);
        if (!checked.ok) return tryAgain(reply, ctx, checked.retryAfterSeconds);
        if (hash)
          setCookie(
            deps,
            reply,
            passwordCookie(ctx),
            passwordProof(deps, ctx.collector.id, hash),
            ctx.path,
            PASSWORD_PROOF_MS / 1000,
            embeddable(ctx),
          );
        return reply.redirect(linkOf(ctx), 303);
      },
    );

    /** Too many attempts from this browser's address (wrong passwords, or submissions). */
    function tryAgain(reply: FastifyReply, ctx: Ctx, seconds: number): FastifyReply {
      reply.header('retry-after', String(seconds));
      const wait = waitText(ctx.t, seconds);
      return send(
        reply,
        429,
        ctx.t('wait_title', { title: ctx.survey.title }),
        html`<h1>${ctx.survey.title}</h1><div role="alert" class="try-again"><p><strong>${ctx.t('too_many')}</strong></p><p>${wait}</p><p><a href="${linkOf(ctx)}">${ctx.t('return')}</a></p></div>`,
        ctx.survey,
      );
    }

    function expired(reply: FastifyReply, ctx: Ctx): FastifyReply {
      return send(
        reply,
        403,
        ctx.t('expired_title'),
        html`<h1>${ctx.survey.title}</h1><p role="alert">${ctx.t('page_expired')} <a href="${linkOf(ctx)}">${ctx.t('open_again')}</a>.</p>${
          embeddable(ctx)
            ? html`<p>${ctx.t('embed_blocked')} <a href="${linkOf(ctx)}" target="_blank" rel="noopener">${ctx.t('open_own_window')}</a></p>`
            : ''
        }`,
        ctx.survey,
      );
    }

    /**
     * The posted form and its files. A multipart form is read part by part: a file is received only
     * for an upload question of the posted page, and only once the form's CSRF token (which the page
     * puts before every question) has proved valid, so a forged post never stores a byte; such a
     * post reads as `refused`. Files left unused are the caller's to discard.
     */
    async function readForm(
      request: FastifyRequest<{ Body: Form }>,
      ctx: Ctx,
      sess: string | undefined,
    ): Promise<{ form: Form; files: IncomingFile[]; refused: boolean }> {
      if (!request.isMultipart()) return { form: request.body ?? {}, files: [], refused: false };
      // one file per question
      const received = new Set<string>();
      const { fields, items, refused } = await readMultipart<IncomingFile>(request, {
        allowed: (form) => csrfValid(deps, sess, form.csrf),
        receive: async (part, form) => {
          const page = ctx.index.pageById.get(String(form.p ?? ''));
          const q = page?.questions.find(
            (x) => `q_${x.id}` === part.fieldname && x.displayType === 'file_upload',
          );
          if (!q || !part.filename || received.has(q.id)) return null;
          received.add(q.id);
          return receiveFile(deps, q.id, part.filename, part.file);
        },
        discard: discardFiles,
      });
      return { form: fields, files: items, refused };
    }

    /**
     * Before a multipart post's body is read: the collector open, its password given, a session
     * to check the form's token against, the owner's plan taking files, and the upload admitted
     * (size, free disk, the owner's and the address's hourly bytes). Null to go on, or the reply.
     */
    async function admitPost(
      request: FastifyRequest,
      reply: FastifyReply,
      ctx: Ctx,
      sess: string | undefined,
    ): Promise<{ stop: FastifyReply } | { reservation?: Reservation }> {
      if (!request.isMultipart()) return {};
      if (!sess) return { stop: expired(reply, ctx) };
      const reason = closedReason(ctx.collector, deps.clock.now());
      if (reason === 'closed' || reason === 'expired') return { stop: closedPage(reply, ctx, reason) };
      if (!passwordOk(request, ctx)) return { stop: passwordPage(reply, ctx, sess, false) };
      const uploads = [...ctx.index.questions.values()].filter((q) => q.displayType === 'file_upload').length;
      try {
        if (uploads > 0 && !(await ownerTakesFiles(deps, ctx.survey.owner_id)))
          throw new UploadRefused(1015, 'This survey cannot take files at the moment.');
        // a file per upload question (at most 20), and the page's other answers
        const maxBytes = Math.min(uploads, 20) * deps.config.uploads.maxBytes + FIELDS_BYTES;
        return {
          reservation: await admitUploadRequest(deps, request, reply, ctx.survey.owner_id, maxBytes),
        };
      } catch (err) {
        if (!(err instanceof UploadRefused)) throw err;
        return { stop: uploadRefused(reply, ctx, err) };
      }
    }

    function uploadRefused(reply: FastifyReply, ctx: Ctx, err: UploadRefused): FastifyReply {
      return send(
        reply,
        err.code === 1015 ? 403 : err.status,
        ctx.t('not_sent_title', { title: ctx.survey.title }),
        html`<h1>${ctx.survey.title}</h1><div role="alert" class="try-again"><p><strong>${ctx.t('not_sent')}</strong></p><p>${err.detail}</p><p><a href="${linkOf(ctx)}">${ctx.t('return')}</a></p></div>`,
        ctx.survey,
      );
    }

    app.post<{ Params: { token: string }; Body: Form }>(
      '/r/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = await load(request, reply);
        if (!ctx) return notFound(reply);
        const sess = readCookie(request, sessionCookie(ctx));
        const admitted = await admitPost(request, reply, ctx, sess);
        if ('stop' in admitted) return admitted.stop;
        const { form, files, refused } = await readForm(request, ctx, sess);
        try {
          if (refused || !csrfValid(deps, sess, form.csrf)) {
            // nothing was kept: the bytes it declared count against nobody
            if (admitted.reservation) await releaseUpload(deps, admitted.reservation);
            return expired(reply, ctx);
          }
          return await answer(request, reply, ctx, sess!, form, files);
        } finally {
          // Files the flow did not keep (any reply but a saved page) leave no trace.
          await discardFiles(files);
        }
      },
    );

    async function answer(
      request: FastifyRequest,
      reply: FastifyReply,
      ctx: Ctx,
      sess: string,
      form: Form,
      files: IncomingFile[],
    ): Promise<FastifyReply> {
      const reason = closedReason(ctx.collector, deps.clock.now());
      if (reason === 'closed' || reason === 'expired') return closedPage(reply, ctx, reason);
      if (!passwordOk(request, ctx)) return passwordPage(reply, ctx, sess, false);
      const respondentKey = sha256(sess);
      // The post's first read also counts it against its address's submissions (admitSubmission).
      const record = await respondentRecord(
        deps,
        ctx.collector.id,
        respondentKey,
        addressWindow(deps, ctx.collector.id, request.ip),
      );
      const response = record.response;
      const stop = gate(reply, ctx, response);
      if (stop) return stop;
      const place = placeOf(ctx.index, response, typeof form.p === 'string' ? form.p : undefined);
      const here = (pageId: string, screen?: number) =>
        `${ctx.path}?${new URLSearchParams([...new URLSearchParams(ctx.query), ['p', pageId]]).toString()}${screen === undefined ? '' : `&screen=${screen}`}`;
      const nav = String(form.nav ?? 'next');
      const back = oneAtATime(ctx.survey)
        ? screenBack({ ...ctx, link: new URLSearchParams(ctx.query) }, response, place, form.screen)
        : { pageId: place.back ?? place.pageId, screen: undefined };
      if (nav === 'prev') return reply.redirect(here(back.pageId, back.screen), 303);

      // Every page post counts against the submission limits (one client cannot flood).
      const flood = await admitSubmission(deps, ctx.collector.id, request.ip, record.counted);
      if (flood) return tryAgain(reply, ctx, flood.retryAfterSeconds);

      // The form as answers; the flow checks them (and the files) by the respondent rules.
      const page = ctx.index.pageById.get(place.pageId)!;
      const pageIn: PageIn = {
        id: page.id,
        questions: page.questions
          .filter((q) => q.family !== 'presentation')
          .map((q) => ({ id: q.id, answers: answersFromForm(q, form) })),
      };
      const given = {
        page: pageIn,
        files: files.filter((f) => page.questions.some((q) => q.id === f.questionId)),
      };
      const started = typeof form.started === 'string' ? form.started : undefined;
      const respondent: Respondent = {
        survey: ctx.survey,
        collector: ctx.collector,
        index: ctx.index,
        link: new URLSearchParams(ctx.query),
        recipient: ctx.recipient,
        respondentKey,
        ip: request.ip,
      };
      // A post the screening keeps aside goes where the flow would send it (domain/screening).
      const held = await screenPost(deps, request, reply, respondent, record, pageIn, form);
      let finished: ResponseRow | undefined;
      try {
        if (nav === 'later' && !held) {
          const saved = await finishLater(deps, respondent, response, given, started, form.screen);
          return laterPage(reply, ctx.survey, saved, linkOf(ctx));
        }
        if (nav === 'exit' && !held) {
          const saved = await exitPosted(deps, respondent, response, given, started, form.screen);
          return send(
            reply,
            200,
            ctx.survey.title,
            html`<h1>${ctx.survey.title}</h1><div role="status" class="exited">${
              saved ? html`<p>${ctx.t('exit_saved')}</p>` : html`<p>${ctx.t('exit_unsaved')}</p>`
            }<p><a href="${linkOf(ctx)}">${ctx.t('return')}</a></p></div>`,
            ctx.survey,
          );
        }
        const outcome = held ?? (await answerPosted(deps, respondent, response, given, started, form.screen));
        if (outcome.kind === 'invalid') {
          const values = Object.fromEntries(
            Object.entries(form).filter(([k, v]) => k.startsWith('q_') && v !== undefined),
          ) as Values;
          const [view, at] = [
            await pageView(deps, respondent, response, place.pageId),
            started ?? deps.clock.now().toISOString(),
          ];
          const body = oneAtATime(ctx.survey)
            ? renderScreen(
                deps,
                ctx,
                stampsOf(deps, sess),
                response,
                place,
                form.screen,
                values,
                outcome.errors,
                at,
                view,
              )
            : renderSurveyPage(deps, ctx, stampsOf(deps, sess), place, values, outcome.errors, at, view);
          return send(reply, 422, ctx.t('check_title', { title: ctx.survey.title }), body, ctx.survey);
        }
        if (outcome.kind === 'screen') return reply.redirect(here(outcome.pageId, outcome.screen), 303);
        if (outcome.kind === 'next') return reply.redirect(here(outcome.pageId), 303);
        if (outcome.kind === 'overquota')
          return quotaEnd(reply, outcome.quota, ctx.survey, (t, b) => send(reply, 200, t, b, ctx.survey));
        if (outcome.status === 'disqualified') {
          if (ctx.collector.options.allow_multiple_responses)
            setCookie(deps, reply, sessionCookie(ctx), '', ctx.path, 0);
          return disqualified(reply, ctx);
        }
        finished = outcome.response;
      } catch (err) {
        // Closed, expired or full since the page was shown (decided with the insert).
        if (err instanceof CollectorNotOpen) return closedPage(reply, ctx, err.reason);
        throw err;
      }

      const o = ctx.collector.options;
      // Another response may follow in this browser: forget the finished one.
      if (o.allow_multiple_responses) setCookie(deps, reply, sessionCookie(ctx), '', ctx.path, 0);
      if (o.redirect_type === 'loop' && o.allow_multiple_responses) return reply.redirect(ctx.path, 303);
      if (o.redirect_type === 'url' && o.redirect_url)
        return reply.redirect(redirectWithValues(o.redirect_url, ctx.index, finished), 303);
      return thankYou(
        reply,
        ctx,
        o.redirect_type === 'close',
        finished ? quizResultsSection(ctx.survey, ctx.index, finished) : '',
      );
    }
  });
}

export type { StoredPage };
