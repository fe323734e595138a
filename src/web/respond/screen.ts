// A survey shown one question at a time (domain/responses/screens.ts): the respondent page of one
// screen. The same form as a page (pages.ts) with the screen's number in it, so it works as a plain
// form: Next comes first, which makes it the button Enter submits natively. Its script
// (screen-script.ts) adds the transition, choice keys and the focus on the question.
import type { Deps } from '../../context.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import type { DesignIndex } from '../../domain/responses/design-index.js';
import { mayResume, type PageView, type Place, type Respondent } from '../../domain/responses/flow.js';
import { type ResponseRow, storedPages } from '../../domain/responses/responses.js';
import { screenPlace } from '../../domain/responses/screens.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import { settingsOf } from '../../domain/surveys/surveys.js';
import type { Message, Translate } from '../../platform/i18n/index.js';
import { type Html, html, raw } from '../html.js';
import { recalledText, richText } from '../surveys/render-question.js';
import { type Values, valuesFromAnswers } from './form-answers.js';
import { languageSwitcher, type PageLanguage, shown as shownText } from './language.js';
import { numberedBefore, questionFields } from './questions.js';
import { laterButton } from './resume.js';
import { SCREEN_SCRIPT } from './screen-script.js';
import { type FormStamps, screeningFields } from './screening.js';
import { SCRIPT } from './script.js';

/** What of the respondent page's context a screen needs. */
export interface ScreenCtx extends Pick<Respondent, 'recipient'> {
  survey: SurveyRow;
  collector: Collector;
  index: DesignIndex;
  path: string;
  query: string;
  language: PageLanguage;
  t: Translate;
}

/** The page's saved answers as form values. */
function savedValues(ctx: ScreenCtx, response: ResponseRow | undefined, pageId: string): Values {
  const out: Values = {};
  const page = response ? storedPages(response).find((p) => p.id === pageId) : undefined;
  for (const qa of page?.questions ?? []) {
    const q = ctx.index.questions.get(qa.id);
    if (q) Object.assign(out, valuesFromAnswers(q, qa.answers));
  }
  return out;
}

/**
 * A screen of the page `place` names: `asked` (the query's or the form's `screen`) if reached,
 * else where the respondent left off; with `errors`, the screen of the first. `values` are the
 * form's when it was posted, shown only on the screen that was posted.
 */
export function renderScreen(
  deps: Deps,
  ctx: ScreenCtx,
  stamps: FormStamps,
  response: ResponseRow | undefined,
  place: Place,
  asked: unknown,
  posted: Values | undefined,
  errors: ReadonlyMap<string, Message>,
  started: string,
  view: PageView,
): Html {
  const link = new URLSearchParams(ctx.query);
  const at = screenPlace({ ...ctx, link }, response, place, view, asked, errors);
  const s = settingsOf(ctx.survey);
  const pages = ctx.index.pages;
  const pageIndex = pages.findIndex((x) => x.id === place.pageId);
  const p = pages[pageIndex];
  const values = posted && String(at.screen) === asked ? posted : savedValues(ctx, response, p.id);
  const failing = new Map([...errors].filter(([id]) => at.questions.some((q) => q.id === id)));
  // Numbered as on pages: the questions of the pages before, then this one's place on its page.
  const questions = questionFields(
    deps,
    ctx,
    at.questions,
    view,
    values,
    failing,
    numberedBefore(pages, pageIndex) + at.screen,
  );
  const { done, total, exact } = at.progress;
  const query = ctx.query ? `?${ctx.query}` : '';
  const summary =
    failing.size > 0
      ? html`<div class="error-summary" role="alert" tabindex="-1" id="problems"><p><strong>${failing.size === 1 ? ctx.t('summary_one') : ctx.t('summary_many', { count: failing.size })}</strong></p><ul>${[...failing.keys()].map((id) => html`<li><a href="#q${id}">${recalledText(ctx.index.questions.get(id)?.heading.replace(/<[^>]*>/g, '') ?? '', view.recall)}: ${shownText(failing.get(id), ctx.language.lang)}</a></li>`)}</ul></div>`
      : '';
  const files = at.questions.some((q) => q.displayType === 'file_upload');
  return html`${languageSwitcher(ctx.language, ctx.path, ctx.query, p.id, ctx.t('language'))}<h1>${ctx.survey.title}</h1>
${summary}
<form method="post" action="${ctx.path}${query}" novalidate data-respond data-screen${files ? raw(' enctype="multipart/form-data"') : ''}>
<input type="hidden" name="csrf" value="${stamps.csrf}">
<input type="hidden" name="p" value="${p.id}">
<input type="hidden" name="screen" value="${at.screen}">
<input type="hidden" name="started" value="${started}">
${p.title ? html`<h2 class="page-title">${richText(p.title, view.recall)}</h2>` : ''}
${p.description && at.screen === 0 ? html`<p>${richText(p.description, view.recall)}</p>` : ''}
<div class="screen">${questions}</div>
${screeningFields(deps, stamps, p.id)}
<nav class="survey-nav" aria-label="${ctx.t('pages_label')}">
<button type="submit" name="nav" value="${at.finishes ? 'done' : 'next'}">${at.finishes ? s.buttons_text.done_button : s.buttons_text.next_button}</button>
<span class="muted enter-hint" hidden>${ctx.t('enter_hint')}</span>
${at.back && s.buttons_text.prev_button ? html`<button type="submit" name="nav" value="prev" class="secondary">${s.buttons_text.prev_button}</button>` : ''}
${s.buttons_text.exit_button ? html`<button type="submit" name="nav" value="exit" class="secondary">${s.buttons_text.exit_button}</button>` : ''}
${laterButton(ctx.collector, ctx.t)}
</nav>
<div class="progress"><label for="progress">${ctx.t(exact ? 'screen_progress' : 'screen_progress_up_to', { n: done + 1, total })}</label>
<progress id="progress" value="${done}" max="${total}">${Math.round((done / total) * 100)}%</progress></div>
${s.buttons_text.exit_button && !mayResume(ctx.collector) ? html`<p class="muted exit-note">${ctx.t('screen_exit_note', { exit: s.buttons_text.exit_button })}</p>` : ''}
</form>
${s.footer ? html`<footer class="powered">${ctx.t('powered')}</footer>` : ''}
${SCRIPT}${SCREEN_SCRIPT}`;
}
