// The questions of a respondent page or of one screen as form fields: the page and the
// one-question-at-a-time screen render them alike.
import type { Deps } from '../../context.js';
import type { IndexedPage, IndexedQuestion } from '../../domain/responses/design-index.js';
import type { PageView } from '../../domain/responses/flow.js';
import { acceptedTypes, sizeText } from '../../domain/uploads/uploads.js';
import type { Message, Translate } from '../../platform/i18n/index.js';
import { type Html, html } from '../html.js';
import { renderQuestion } from '../surveys/render-question.js';
import type { Values } from './form-answers.js';
import { shown } from './language.js';

/** How many numbered (answerable) questions the pages before page `pageIndex` hold. */
export function numberedBefore(pages: readonly IndexedPage[], pageIndex: number): number {
  return pages
    .slice(0, pageIndex)
    .reduce((n, x) => n + x.questions.filter((q) => q.family !== 'presentation').length, 0);
}

/**
 * `questions` as fields, numbered on from `before` (text and image blocks unnumbered), each
 * answerable one wrapped with its required text for the page's script.
 */
export function questionFields(
  deps: Deps,
  ctx: { language: { lang: string }; t: Translate },
  questions: readonly IndexedQuestion[],
  view: PageView,
  values: Values,
  errors: ReadonlyMap<string, Message>,
  before: number,
): Html[] {
  let number = before;
  const upload = {
    accept: acceptedTypes(deps, ','),
    maxBytes: deps.config.uploads.maxBytes,
    maxText: sizeText(deps.config.uploads.maxBytes),
  };
  return questions.map((q) => {
    const rendered = renderQuestion(
      { id: q.id, family: q.family, subtype: q.subtype, doc: q.doc },
      {
        seed: view.seed,
        recall: view.recall,
        counts: view.counts,
        number: q.family === 'presentation' ? undefined : ++number,
        values,
        error: shown(errors.get(q.id), ctx.language.lang),
        upload,
        t: ctx.t,
      },
    );
    if (q.family === 'presentation') return rendered;
    const req = q.doc.required;
    return html`<div class="q-wrap"${req ? html` data-required="1" data-required-text="${req.text}"` : ''}>${rendered}</div>`;
  });
}
