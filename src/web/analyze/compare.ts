// Compare by a question on the analyze page: a GET form choosing the question
// (carrying the page's filter), and every other question's results split by its answers, as a
// shaded grid (choices × groups) and a table of counts and percentages of each group's answers.
import { type Crosstab, isComparable } from '../../domain/analysis/crosstab.js';
import { isNumberQuestion, type ResultFilter } from '../../domain/analysis/filters.js';
import type { QuestionRollup } from '../../domain/analysis/rollups.js';
import {
  CONFIDENCE_LEVELS,
  type Confidence,
  columnLetter,
  DEFAULT_CONFIDENCE,
  type TableSignificance,
  tableSignificance,
} from '../../domain/analysis/significance.js';
import type { DesignIndex, IndexedQuestion } from '../../domain/responses/design-index.js';
import { type Html, html, raw } from '../html.js';
import { gridChart } from './charts.js';
import { hiddenFilter } from './filter-form.js';

const plain = (text: string) => text.replace(/<[^>]*>/g, '');
const title = (q: IndexedQuestion) => plain(q.label) || `Question ${q.position}`;
const pct = (n: number, of: number) => `${of > 0 ? Math.round((n / of) * 1000) / 10 : 0}%`;
const round2 = (n: number) => Math.round(n * 100) / 100;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The form choosing the question to compare by; `by` is the one chosen, if any, `confidence` the
 * significance level of its tables. */
export function compareForm(
  action: string,
  f: ResultFilter,
  index: DesignIndex,
  by?: IndexedQuestion,
  confidence: Confidence = DEFAULT_CONFIDENCE,
): Html {
  const options = index.pages.flatMap((p) => p.questions).filter(isComparable);
  return html`<form class="filters compare-form" method="get" action="${action}" aria-label="Compare by a question">
${hiddenFilter(f)}
<div><label for="compare">Compare by</label><select id="compare" name="compare"><option value="">No comparison</option>${options.map(
    (q) => html`<option value="${q.id}"${q.id === by?.id ? raw(' selected') : ''}>${title(q)}</option>`,
  )}</select></div>
<div><label for="confidence">Significance</label><select id="confidence" name="confidence">${CONFIDENCE_LEVELS.map(
    (c) => html`<option value="${c}"${c === confidence ? raw(' selected') : ''}>${c}% confidence</option>`,
  )}</select></div>
<div class="actions"><button type="submit">Compare</button></div></form>`;
}

const figure = (n: number) => (Math.abs(n) >= 0.001 || n === 0 ? String(round3(n)) : n.toExponential(1));

/** What the table's tests say: the chi-square line, and when the counts are too small to hold. */
function significanceNote(s: TableSignificance): Html {
  const chi = s.chi;
  const level = `${s.confidence}%`;
  const verdict = chi
    ? chi.p < 1 - s.confidence / 100
      ? `the answers differ between the groups at ${level} confidence`
      : `no significant difference between the groups at ${level} confidence`
    : '';
  return html`<p class="muted significance">${
    chi
      ? html`Chi-square test: χ² = ${figure(chi.statistic)}, ${chi.df} degrees of freedom, p = ${figure(chi.p)}: ${verdict}.${
          chi.small
            ? html` <strong>Too few answers for this test to hold</strong> (expected counts below 5 in more than a fifth of the cells, or below 1).`
            : ''
        }`
      : 'Too few answered groups for a chi-square test.'
  } Letters in a cell name the groups whose share it is significantly higher than (${level}).${
    s.smallPairs > 0
      ? ` ${s.smallPairs} ${s.smallPairs === 1 ? 'pair of cells was' : 'pairs of cells were'} not compared: too few answers (fewer than 5 chose, or did not choose, the answer in a group).`
      : ''
  }</p>`;
}

/** One question's figures per group: a row per choice (count and share of the group's answers). */
function split(q: IndexedQuestion, x: Crosstab, confidence: Confidence): Html {
  const groups = x.groups;
  const result = (g: (typeof groups)[number]): QuestionRollup | undefined =>
    g.items.find((it) => it.question.id === q.id);
  const head = html`<thead><tr><th scope="col">${title(q)}</th>${groups.map((g, i) => html`<th scope="col" class="num">${plain(g.label)} <span class="col-letter">(${columnLetter(i)})</span></th>`)}</tr></thead>`;
  const answered = html`<tr><th scope="row">Answered</th>${groups.map((g) => html`<td class="num" id="x-${q.id}-answered-${g.choiceId}">${result(g)?.summary.answered ?? 0}</td>`)}</tr>`;
  let rows: Html[] = [];
  let chart: Html | string = '';
  let note: Html | string = '';
  if (q.family === 'single_choice' || q.family === 'multiple_choice') {
    const choices = [...q.choices.values()].map((c) => ({ id: c.id, label: plain(c.text) || 'Image' }));
    const count = (g: (typeof groups)[number], id: string) => {
      const s = result(g)?.summary;
      return id === q.other?.id
        ? (s?.other_answered ?? 0)
        : (s?.choices?.find((c) => c.id === id)?.count ?? 0);
    };
    if (q.other) choices.push({ id: q.other.id, label: plain(q.other.text) || 'Other' });
    chart = gridChart(
      `${title(q)} by ${title(x.by)}`,
      choices.map((c) => c.label),
      groups.map((g) => plain(g.label)),
      choices.map((c) => groups.map((g) => count(g, c.id))),
    );
    const bases = groups.map((g) => result(g)?.summary.answered ?? 0);
    const marks = tableSignificance(
      choices.map((c) => groups.map((g) => count(g, c.id))),
      bases,
      confidence,
    );
    note = significanceNote(marks);
    rows = choices.map(
      (c, r) =>
        html`<tr><th scope="row">${c.label}</th>${groups.map((g, i) => {
          const higher = marks.higherThan[r][i];
          return html`<td class="num" id="x-${q.id}-${c.id}-${g.choiceId}">${count(g, c.id)} (${pct(count(g, c.id), bases[i])})${
            higher.length
              ? html` <span class="sig" id="sig-${q.id}-${c.id}-${g.choiceId}" title="Significantly higher than ${higher.join(', ')}"><span class="visually-hidden">higher than </span>${higher.join('')}</span>`
              : ''
          }</td>`;
        })}</tr>`,
    );
  } else if (isNumberQuestion(q)) {
    const stats = (g: (typeof groups)[number]) => {
      const s = result(g)?.summary;
      return s?.stats ?? s?.rows?.find((r) => r.stats)?.stats;
    };
    rows = [
      html`<tr><th scope="row">Mean</th>${groups.map((g) => {
        const s = stats(g);
        return html`<td class="num" id="x-${q.id}-mean-${g.choiceId}">${s ? round2(s.mean) : '—'}</td>`;
      })}</tr>`,
    ];
  }
  return html`<section class="q-result compare-q"><h4>${title(q)}</h4>${chart}
<div class="chart-scroll" role="group" tabindex="0" aria-label="${title(q)} by ${title(x.by)} (figures)"><table class="figures-table">${head}<tbody>${answered}${rows}</tbody></table></div>${note}</section>`;
}

/** Every other question split by the answers of `x.by`. */
export function compareResult(x: Crosstab, confidence: Confidence = DEFAULT_CONFIDENCE): Html {
  const questions = x.groups[0]?.items.map((it) => it.question) ?? [];
  return html`<section id="compared" class="compare"><h3>Compared by “${title(x.by)}”</h3>
<p class="muted">Each column is the responses that chose that answer (a response with several answers is in each of their columns); percentages are of the column's answers to the question.</p>
<table class="figures-table"><thead><tr><th scope="col">Group</th><th scope="col" class="num">Responses</th></tr></thead><tbody>${x.groups.map(
    (g) =>
      html`<tr><th scope="row">${plain(g.label)}</th><td class="num" id="x-n-${g.choiceId}">${g.total}</td></tr>`,
  )}</tbody></table>
${questions.map((q) => split(q, x, confidence))}</section>`;
}
