// The filter form of the results pages (analyze, summary, responses): a plain GET form, so the
// filter is the page's URL (domain/analysis/filters.ts reads it back). Dates, collector and
// completeness first; answers in a disclosure, one group per question.
import {
  choiceIds,
  filterQuery,
  isFiltered,
  isNumberQuestion,
  isSentimentQuestion,
  isTextQuestion,
  type ResultFilter,
} from '../../domain/analysis/filters.js';
import type { DesignIndex, IndexedQuestion } from '../../domain/responses/design-index.js';
import { choiceLabel } from '../../domain/responses/readable.js';
import { SENTIMENT_LABELS, SENTIMENTS } from '../../domain/responses/sentiment.js';
import { type Html, html, raw } from '../html.js';

export const STATUS_LABELS: Record<string, string> = {
  completed: 'Completed',
  partial: 'Partial',
  overquota: 'Over quota',
  disqualified: 'Disqualified',
};

const plain = (text: string) => text.replace(/<[^>]*>/g, '');
const checked = (on: boolean) => (on ? raw(' checked') : '');

function answerFields(q: IndexedQuestion, f: ResultFilter): Html | string {
  const title = plain(q.label) || `Question ${q.position}`;
  const own = f.answers.filter((c) => c.question === q.id);
  const chosen = new Set(own.flatMap((c) => (c.kind === 'choices' ? c.choices : [])));
  const range = own.find((c) => c.kind === 'range');
  const has = own.find((c) => c.kind === 'contains');
  const parts: Array<Html | string> = [];
  const choices = [...q.choices.values()];
  if (choices.length > 0 && choiceIds(q).size > 0 && !(q.family === 'matrix' && q.subtype === 'menu'))
    parts.push(
      html`<div class="choices">${choices.map(
        (c) =>
          html`<label><input type="checkbox" name="a" value="${q.id}:${c.id}"${checked(chosen.has(c.id))}> ${plain(choiceLabel(q, c)) || c.id}</label>`,
      )}${q.other ? html`<label><input type="checkbox" name="a" value="${q.id}:${q.other.id}"${checked(chosen.has(q.other.id))}> ${plain(q.other.text) || 'Other'}</label>` : ''}</div>`,
    );
  if (isNumberQuestion(q))
    parts.push(
      html`<div class="range"><label for="min_${q.id}">At least</label><input type="number" step="any" id="min_${q.id}" name="min_${q.id}" value="${range?.kind === 'range' ? (range.min ?? '') : ''}">
<label for="max_${q.id}">At most</label><input type="number" step="any" id="max_${q.id}" name="max_${q.id}" value="${range?.kind === 'range' ? (range.max ?? '') : ''}"></div>`,
    );
  if (isTextQuestion(q) || (q.other && !isNumberQuestion(q)))
    parts.push(
      html`<div><label for="has_${q.id}">Answer contains</label><input type="search" id="has_${q.id}" name="has_${q.id}" maxlength="200" value="${has?.kind === 'contains' ? has.text : ''}"></div>`,
    );
  if (isSentimentQuestion(q)) {
    const felt = new Set(own.flatMap((c) => (c.kind === 'sentiment' ? c.labels : [])));
    parts.push(
      html`<div class="sentiments" role="group" aria-labelledby="sl${q.id}"><span id="sl${q.id}">Sentiment</span>${SENTIMENTS.map(
        (l) =>
          html`<label><input type="checkbox" name="sentiment_${q.id}" value="${l}"${checked(felt.has(l))}> ${SENTIMENT_LABELS[l]}</label>`,
      )}</div>`,
    );
  }
  if (parts.length === 0) return '';
  return html`<fieldset class="answer-filter" id="af${q.id}"><legend>${title}</legend>${parts}</fieldset>`;
}

/** The filter form; `action` is the page's own path, `keep` the page's other parameters (hidden). */
export function filterForm(
  action: string,
  f: ResultFilter,
  index: DesignIndex,
  collectors: Array<{ id: string; name: string }>,
  keep: Record<string, string> = {},
): Html {
  const questions = index.pages.flatMap((p) => p.questions).filter((q) => q.family !== 'presentation');
  const byAnswer = f.answers.length > 0;
  return html`<form class="filters result-filter" method="get" action="${action}" aria-label="Filter responses">
<div><label for="start">From</label><input type="date" id="start" name="start" value="${f.start ?? ''}"></div>
<div><label for="end">To</label><input type="date" id="end" name="end" value="${f.end ?? ''}"></div>
<div><label for="collector">Collector</label><select id="collector" name="collector"><option value="">All collectors</option>${collectors.map(
    (c) => html`<option value="${c.id}"${c.id === f.collector ? raw(' selected') : ''}>${c.name}</option>`,
  )}</select></div>
<fieldset class="statuses"><legend>Completeness</legend>${Object.entries(STATUS_LABELS).map(
    ([s, label]) =>
      html`<label><input type="checkbox" name="status" value="${s}"${checked(f.status.some((x) => x === s))}> ${label}</label>`,
  )}</fieldset>
<details class="by-answer"${byAnswer ? raw(' open') : ''}><summary>Filter by answer${byAnswer ? ` (${f.answers.length})` : ''}</summary>
<p class="muted">Choices of one question match any of them; conditions on different questions must all hold.</p>
${questions.map((q) => answerFields(q, f))}</details>
${Object.entries(keep).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<div class="actions"><button type="submit">Filter</button>${isFiltered(f) ? html` <a href="${action}">Clear filters</a>` : ''}</div></form>`;
}

/** The filter as hidden fields (a form that carries the page's filter, e.g. the download). */
export function hiddenFilter(f: ResultFilter, except: string[] = []): Html[] {
  return [...filterQuery(f)]
    .filter(([k]) => !except.includes(k))
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
}

/** "N responses (match)": the count the page says, in a live region. */
export function matchCount(total: number, f: ResultFilter, id = 'total'): Html {
  return html`<p role="status" id="${id}"><strong>${total}</strong> ${total === 1 ? 'response' : 'responses'}${isFiltered(f) ? (total === 1 ? ' matches these filters' : ' match these filters') : ''}</p>`;
}
