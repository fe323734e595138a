// Word frequencies of open-ended answers: for each text question (single
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
import { textAnswerPages } from '../../db/stores/text-answers.js';
import { Slices } from '../../platform/slices.js';
import type { IndexedQuestion } from '../responses/design-index.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';
import { isNumberQuestion } from './filters.js';
import { LatestTexts } from './overview.js';

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
  const byResponse = new Map<string, string[]>();
  for (const { response, text } of texts) {
    const list = byResponse.get(response) ?? [];
    list.push(text);
    byResponse.set(response, list);
  }
  const tally = new WordTally(words);
  for (const [response, list] of byResponse) for (const text of list) tally.add(response, text);
  return tally.result(top);
}

/** countWords, the texts given one at a time, each response's texts one after another. */
export class WordTally {
  private readonly counts = new Map<string, WordCount>();
  private answered = 0;
  private response: string | null = null;
  private readonly used = new Set<string>();
  private written = false;

  constructor(private readonly words: Tokenizer) {}

  add(response: string, text: string): void {
    if (response !== this.response) this.close();
    this.response = response;
    if (text.trim() !== '') this.written = true;
    for (const w of this.words(text)) {
      this.used.add(w);
      const c = this.counts.get(w) ?? { word: w, count: 0, responses: 0 };
      c.count++;
      this.counts.set(w, c);
    }
  }

  /** Ends the current response's texts. */
  private close(): void {
    if (this.response === null) return;
    if (this.written) this.answered++;
    for (const w of this.used) this.counts.get(w)!.responses++;
    this.used.clear();
    this.written = false;
    this.response = null;
  }

  result(top = WORDS_TOP): QuestionWords {
    this.close();
    const words = [...this.counts.values()]
      .sort((a, b) => b.count - a.count || b.responses - a.responses || (a.word < b.word ? -1 : 1))
      .slice(0, top);
    return { answered: this.answered, words };
  }
}

/** What the analyze page shows of written answers, from one read of the newest `from` responses
 * matching `f`: the latest texts of the `listed` questions (overview.ts latestTexts: the newest
 * answers among those responses, so a question few answer lists more than recentTexts' 500 would
 * give) and the word frequencies of `questions`. Its CPU grows with the answers' length: they are
 * read a page of responses at a time and counted in slices (platform/slices.ts), so the event loop
 * turns every few milliseconds however long they are. */
export async function textResults(
  deps: Deps,
  language: string,
  f: ResponseFilters,
  questions: IndexedQuestion[],
  listed: Set<string>,
  from = WORDS_FROM,
): Promise<{ texts: Map<string, string[]>; words: Map<string, QuestionWords> }> {
  const counted = questions.filter(isWordQuestion);
  const ids = new Set([...listed, ...counted.map((q) => q.id)]);
  const words = tokenizer(language);
  const tallies = new Map(counted.map((q) => [q.id, new WordTally(words)]));
  const latest = new LatestTexts(listed);
  const slices = new Slices();
  for await (const rows of textAnswerPages(deps.db, filtered(deps, f), [...ids], from))
    for (const r of rows) {
      latest.add(r);
      // File names are not words.
      if (!Number(r.upload)) tallies.get(r.question_id)?.add(r.response_id, r.text);
      if (slices.due()) await slices.yield();
    }
  return {
    texts: latest.texts,
    words: new Map(counted.map((q) => [q.id, tallies.get(q.id)!.result()])),
  };
}
