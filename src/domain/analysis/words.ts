// Word frequencies of open-ended answers (issue #27 item 4): for each text question (single
// textbox, comment box, multiple textboxes, and the "Other" text of choice questions), the words
// its answers use under the page's filter, most used first, with how many responses use each.
//
// Rules, in order: the text is put in NFC and lower-cased by the survey language's rules
// (toLocaleLowerCase: Turkish İ → i); split into words — by Intl.Segmenter (isWordLike) for the
// languages written without spaces (Japanese, Chinese, Thai), by a Unicode letter/digit run for the
// others (the same words for those scripts, measured ~6× faster); apostrophes split a word
// ("l'entreprise" → "entreprise", "wasn't" → "wasn"); numbers and one-letter words are dropped (a
// single ideograph or kana is a word); then the stop words of the survey's language (the `stopword`
// package's list; English when it has none) and a few contraction stems are dropped.
//
// Cost: the answers are read from the newest WORDS_FROM matching responses only (by ordinal, on an
// index), walked in the database (db/stores/text-answers.ts), so a survey of 100,000 responses
// costs what one of WORDS_FROM does; the page says when it read fewer than match. The same read
// gives the page's latest answers (textResults), so the analyze page reads text answers once.
import sw from 'stopword';
import type { Deps } from '../../context.js';
import { type TextAnswer, textAnswers } from '../../db/stores/text-answers.js';
import type { IndexedQuestion } from '../responses/design-index.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';
import { isNumberQuestion } from './filters.js';
import { latestTexts } from './overview.js';

/** Responses read, newest first. */
export const WORDS_FROM = 5000;
/** Words listed per question. */
export const WORDS_TOP = 50;

export interface WordCount {
  word: string;
  /** Times the word occurs. */
  count: number;
  /** Responses whose answer uses it. */
  responses: number;
}
export interface QuestionWords {
  /** Responses with a text answer to the question (among those read). */
  answered: number;
  words: WordCount[];
}

type StopList = keyof Omit<typeof sw, 'removeStopwords'>;

/** The survey language (ISO 639-1, languages.ts) → the stopword package's list (ISO 639-3). */
const STOP_LISTS: Readonly<Record<string, StopList>> = {
  ar: 'ara',
  bg: 'bul',
  ca: 'cat',
  cs: 'ces',
  da: 'dan',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  es: 'spa',
  et: 'est',
  fa: 'fas',
  fi: 'fin',
  fr: 'fra',
  he: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  lt: 'lit',
  lv: 'lav',
  ms: 'msa',
  nl: 'nld',
  no: 'nob',
  pl: 'pol',
  pt: 'por',
  'pt-br': 'porBr',
  ro: 'ron',
  ru: 'rus',
  sk: 'slk',
  sl: 'slv',
  sv: 'swe',
  th: 'tha',
  tl: 'tgl',
  tr: 'tur',
  uk: 'ukr',
  vi: 'vie',
  'zh-cn': 'zho',
  'zh-tw': 'zho',
};

/** What an apostrophe leaves of English contractions ("wasn't" → "wasn", "you'll" → "ll"). */
const ENGLISH_STEMS = [
  'aren',
  'couldn',
  'didn',
  'doesn',
  'don',
  'hadn',
  'hasn',
  'haven',
  'isn',
  'll',
  're',
  've',
  'wasn',
  'weren',
  'won',
  'wouldn',
  'shouldn',
  'mustn',
  'needn',
];

/** Languages written without spaces between words: split by Intl.Segmenter's dictionaries. */
const UNSPACED = new Set(['ja', 'zh-cn', 'zh-tw', 'th']);

const LETTERS = /[\p{L}\p{M}\p{N}_]+/gu;
const NUMBER = /^[\p{N}_]+$/u;
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The language's stop words (English when the package has no list for it). */
export function stopWords(language: string): Set<string> {
  const code = language.toLowerCase();
  const list = STOP_LISTS[code] ?? STOP_LISTS[code.split('-')[0]] ?? 'eng';
  const words = new Set<string>(sw[list].map((w) => w.toLocaleLowerCase(code)));
  if (list === 'eng') for (const w of ENGLISH_STEMS) words.add(w);
  return words;
}

/** The words of one text, lower-cased and filtered by the rules above. */
export type Tokenizer = (text: string) => string[];

export function tokenizer(language: string): Tokenizer {
  const code = language.toLowerCase();
  const locale = code === 'no' ? 'nb' : code;
  const lower = (t: string) => t.normalize('NFC').toLocaleLowerCase(locale);
  const stops = stopWords(code);
  const keep = (w: string) => !NUMBER.test(w) && ([...w].length > 1 || IDEOGRAPH.test(w)) && !stops.has(w);
  if (UNSPACED.has(code)) {
    const segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    return (text) => {
      const out: string[] = [];
      for (const s of segmenter.segment(lower(text)))
        if (s.isWordLike) for (const w of s.segment.match(LETTERS) ?? []) if (keep(w)) out.push(w);
      return out;
    };
  }
  return (text) => (lower(text).match(LETTERS) ?? []).filter(keep);
}

/** Questions whose answers are words: open-ended text (not numbers or files), or an "Other" text. */
export function isWordQuestion(q: IndexedQuestion): boolean {
  if (q.family === 'open_ended') return !isNumberQuestion(q) && q.displayType !== 'file_upload';
  return q.other !== null;
}

/** Counts the words of `texts` (response id, text), most used first (ties: more responses, then
 * alphabetical), the first `top` of them. */
export function countWords(
  texts: Array<{ response: string; text: string }>,
  words: Tokenizer,
  top = WORDS_TOP,
): QuestionWords {
  const counts = new Map<string, WordCount>();
  const byResponse = new Map<string, string[]>();
  for (const { response, text } of texts) {
    const list = byResponse.get(response) ?? [];
    list.push(text);
    byResponse.set(response, list);
  }
  let answered = 0;
  for (const list of byResponse.values()) {
    const used = new Set<string>();
    for (const text of list)
      for (const w of words(text)) {
        used.add(w);
        const c = counts.get(w) ?? { word: w, count: 0, responses: 0 };
        c.count++;
        counts.set(w, c);
      }
    if (list.some((t) => t.trim() !== '')) answered++;
    for (const w of used) counts.get(w)!.responses++;
  }
  const words_ = [...counts.values()]
    .sort((a, b) => b.count - a.count || b.responses - a.responses || (a.word < b.word ? -1 : 1))
    .slice(0, top);
  return { answered, words: words_ };
}

/** The word frequencies of each of `questions` that takes words, from text answers already read
 * (textAnswers), for a survey written in `language`. File names are not words. */
export function wordsOf(
  rows: TextAnswer[],
  language: string,
  questions: IndexedQuestion[],
): Map<string, QuestionWords> {
  const byQuestion = new Map<string, Array<{ response: string; text: string }>>();
  for (const r of rows) {
    if (Number(r.upload)) continue;
    const list = byQuestion.get(r.question_id) ?? [];
    list.push({ response: r.response_id, text: r.text });
    byQuestion.set(r.question_id, list);
  }
  const words = tokenizer(language);
  return new Map(
    questions.filter(isWordQuestion).map((q) => [q.id, countWords(byQuestion.get(q.id) ?? [], words)]),
  );
}

/** What the analyze page shows of written answers, from one read of the newest `from` responses
 * matching `f`: the latest texts of the `listed` questions (overview.ts latestTexts: the newest
 * answers among those responses, so a question few answer lists more than recentTexts' 500 would
 * give) and the word frequencies of `questions`. */
export async function textResults(
  deps: Deps,
  language: string,
  f: ResponseFilters,
  questions: IndexedQuestion[],
  listed: Set<string>,
  from = WORDS_FROM,
): Promise<{ texts: Map<string, string[]>; words: Map<string, QuestionWords> }> {
  const ids = new Set([...listed, ...questions.filter(isWordQuestion).map((q) => q.id)]);
  const rows = await textAnswers(deps.db, filtered(deps, f), [...ids], from);
  return { texts: latestTexts(rows, listed), words: wordsOf(rows, language, questions) };
}
