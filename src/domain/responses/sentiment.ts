// The sentiment of open-ended answers: positive, neutral or negative, scored once when a response is
// written and kept in its response_keys row (`sentiments`, migration 0081), so filters and shares are
// plain queries. The scorer is the `sentiment` package: the AFINN-165 word list (3,382 English words
// rated -5..+5, emoji included) with negation ("not good" counts against); a text's label is the sign
// of the sum of its words' ratings (0: neutral). English only: answers of a survey in any other
// language are "not analysed" (the package detects no language, so the survey's decides).
//
// What is scored, per response and question: every text answer that is not a choice, a file or a
// number (open-ended single, multiple textboxes and comment boxes; a choice question's "Other"
// text), the texts of one question joined into one answer. It is decided from the answers alone,
// as the numeric rollup is, so the worker can complete rows an older release wrote (derived.ts)
// without the design. A later change of the survey's language does not rescore stored answers.
import Sentiment from 'sentiment';
import { answerNumber } from '../../db/stores/response-numbers.js';
import { isOneOf } from '../../platform/lists.js';

export const SENTIMENTS = ['positive', 'neutral', 'negative', 'not_analysed'] as const;
export type SentimentLabel = (typeof SENTIMENTS)[number];

export const SENTIMENT_LABELS: Readonly<Record<SentimentLabel, string>> = {
  positive: 'Positive',
  neutral: 'Neutral',
  negative: 'Negative',
  not_analysed: 'Not analysed',
};

/** The languages the scorer reads (ISO 639-1, as surveys name them). */
export const SENTIMENT_LANGUAGES = ['en'] as const;
/** The same, as the pages say them. */
export const SENTIMENT_LANGUAGE_NAMES = 'English';

const scorer = new Sentiment();

/** Whether answers in `language` (a survey's: 'en', 'en-gb', 'fr'…) are scored. */
export function analysable(language: string): boolean {
  const base = language.toLowerCase().split('-')[0];
  return isOneOf(SENTIMENT_LANGUAGES, base);
}

/** The label of one text written in `language`. */
export function sentimentOf(text: string, language: string): SentimentLabel {
  if (!analysable(language)) return 'not_analysed';
  const { score } = scorer.analyze(text);
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
}

/** The stored answers' shape, as far as sentiment goes. */
interface TextPage {
  questions: Array<{
    id: string;
    answers: Array<{ choice_id?: string; text?: string; upload_id?: string; download_url?: string }>;
  }>;
}

/** The written texts of a response, per question (see the top of this file for which). */
export function writtenTexts(pages: TextPage[]): Map<string, string> {
  const texts = new Map<string, string[]>();
  for (const p of pages)
    for (const q of p.questions)
      for (const a of q.answers) {
        if (a.choice_id !== undefined || a.upload_id !== undefined || a.download_url !== undefined) continue;
        const t = a.text?.trim();
        if (!t || answerNumber(t) !== undefined) continue;
        const list = texts.get(q.id) ?? [];
        list.push(t);
        texts.set(q.id, list);
      }
  return new Map([...texts].map(([q, list]) => [q, list.join('\n')]));
}

/** The token a response's `sentiments` holds when its answer to `question` reads as `label`. */
export function sentimentToken(question: string, label: SentimentLabel): string {
  return ` ${question}:${label} `;
}

/** A response's `sentiments` text: ' q:label q:label ' (' ' when it wrote nothing). */
export function answerSentiments(pages: TextPage[], language: string): string {
  const tokens: string[] = [];
  for (const [q, text] of writtenTexts(pages)) tokens.push(`${q}:${sentimentOf(text, language)}`);
  return ` ${tokens.join(' ')} `;
}

/** The label per question of a stored `sentiments` text (null: not scored yet). */
export function readSentiments(stored: string | null): Map<string, SentimentLabel> {
  const out = new Map<string, SentimentLabel>();
  for (const t of (stored ?? '').split(' ')) {
    const cut = t.lastIndexOf(':');
    const label = t.slice(cut + 1);
    if (cut > 0 && isOneOf(SENTIMENTS, label)) out.set(t.slice(0, cut), label);
  }
  return out;
}
