// The words panel of an open-ended question on the analyze page: the most used
// words of its answers under the page's filter (domain/analysis/words.ts), each a link to the
// responses page filtered by "answer contains" that word on top of the page's filter, and a search
// box (GET form) that does the same for any text. The link is the results filter's `has_<q>`: a
// case-insensitive substring, so "price" also finds "prices" (the responses page may list a few
// more than the word's count).
import { filterSearch, type ResultFilter, withCondition } from '../../domain/analysis/filters.js';
import type { SentimentShares } from '../../domain/analysis/sentiments.js';
import { type QuestionWords, WORDS_FROM } from '../../domain/analysis/words.js';
import type { IndexedQuestion } from '../../domain/responses/design-index.js';
import {
  SENTIMENT_LABELS,
  SENTIMENT_LANGUAGE_NAMES,
  SENTIMENTS,
  type SentimentLabel,
} from '../../domain/responses/sentiment.js';
import { type Html, html } from '../html.js';
import { hiddenFilter } from './filter-form.js';

/** The panel of `q`, or '' when it takes no words. `total` is the responses matching the page. */
export function wordsPanel(
  token: string,
  f: ResultFilter,
  q: IndexedQuestion,
  words: QuestionWords | undefined,
  total: number,
): Html | string {
  if (!words) return '';
  const responses = `/analyze/${token}/responses`;
  const link = (text: string) =>
    `${responses}${filterSearch(withCondition(f, { question: q.id, kind: 'contains', text }))}`;
  const what = q.family === 'open_ended' ? 'answers' : '“Other” answers';
  const read =
    total > WORDS_FROM
      ? html`<p class="muted">Words of the newest ${WORDS_FROM.toLocaleString('en')} of the ${total.toLocaleString('en')} matching responses.</p>`
      : '';
  const list =
    words.words.length > 0
      ? html`<ol class="word-list" aria-label="Most used words">${words.words.map(
          (w, i) =>
            html`<li><a href="${link(w.word)}" id="w-${q.id}-${i}" data-word="${w.word}">${w.word} <span class="count">${w.count}<span class="visually-hidden"> times, in ${w.responses} ${w.responses === 1 ? 'response' : 'responses'}</span></span></a></li>`,
        )}</ol>`
      : html`<p class="muted">No words to count yet.</p>`;
  return html`<section class="words" id="words-${q.id}" aria-labelledby="words-h-${q.id}"><h4 id="words-h-${q.id}">Most used words in the ${what}</h4>
${read}${list}
<form class="filters word-search" method="get" action="${responses}" aria-label="Search the ${what}">
${hiddenFilter(f, [`has_${q.id}`])}
<div><label for="search-${q.id}">Find responses whose answer contains</label><input type="search" id="search-${q.id}" name="has_${q.id}" maxlength="200" required></div>
<div class="actions"><button type="submit">Search</button></div></form></section>`;
}

/** The sentiment shares of `q`'s written answers under the page's filter (responses/sentiment.ts),
 * each label a link to the responses page filtered by it on top of the page's filter; '' when the
 * question's answers are not scored. */
export function sentimentPanel(
  token: string,
  f: ResultFilter,
  q: IndexedQuestion,
  shares: SentimentShares | undefined,
): Html | string {
  if (!shares) return '';
  const scored = SENTIMENTS.reduce((n, l) => n + shares[l], 0);
  const link = (label: SentimentLabel) =>
    `/analyze/${token}/responses${filterSearch(withCondition(f, { question: q.id, kind: 'sentiment', labels: [label] }))}`;
  const what = q.family === 'open_ended' ? 'answers' : '“Other” answers';
  const share = (n: number) => (scored > 0 ? Math.round((n / scored) * 100) : 0);
  return html`<section class="words sentiment" id="sentiment-${q.id}" aria-labelledby="sentiment-h-${q.id}"><h4 id="sentiment-h-${q.id}">Sentiment of the ${what}</h4>
${
  scored > 0
    ? html`<ol class="word-list" aria-label="Sentiment shares">${SENTIMENTS.map(
        (l) =>
          html`<li><a href="${link(l)}" id="s-${q.id}-${l}" data-sentiment="${l}">${SENTIMENT_LABELS[l]} <span class="count">${share(shares[l])}% (${shares[l]})<span class="visually-hidden"> of ${scored} ${scored === 1 ? 'answer' : 'answers'}</span></span></a></li>`,
      )}</ol>
<p class="muted">Scored in ${SENTIMENT_LANGUAGE_NAMES}; answers in other languages are not analysed.</p>`
    : html`<p class="muted">No answers to score yet.</p>`
}</section>`;
}
