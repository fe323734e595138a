// A new respondent's page kept as markup (deps.caches.respondentPages): drawn once with holes where
// each respondent's own values go (the CSRF token, the signed instant the page was drawn, the start
// time), then filled per request. Kept only where nothing else of the page is the respondent's: no
// response yet (no answers, errors or path), a weblink (no recipient to recall), the survey's own
// language (a translation's text is not part of the key), and an order that is no one's own (no
// random, flipped or by-count order of the page's questions or choices). Piping and display logic
// of such a page read only the link's custom variables, which are in the key (the URL).
import type { KeptPage } from '../../caches.js';
import type { Deps } from '../../context.js';
import type { RespondentEntry } from '../../domain/collectors/entry.js';
import type { IndexedPage } from '../../domain/responses/design-index.js';
import type { FormStamps } from './screening.js';

type Hole = KeptPage['holes'][number];
// Marked by a control character, which no markup of ours writes (a survey text holding one is drawn
// each time: keep() finds its holes more than once).
const MARK = '\u0001';
const HOLE: Record<Hole, string> = {
  csrf: `${MARK}csrf${MARK}`,
  shown: `${MARK}shown${MARK}`,
  started: `${MARK}started${MARK}`,
};
const HOLES = new RegExp(`${MARK}(csrf|shown|started)${MARK}`);

/** The stamps and start a kept page is drawn with: its holes. */
export const holes: { stamps: FormStamps; started: string } = {
  stamps: { csrf: HOLE.csrf, shown: () => HOLE.shown },
  started: HOLE.started,
};

/** Whether the page shows every respondent the same order (nothing seeded by their session, nor by
 * the counts of answers so far). */
export function sameOrderForAll(page: IndexedPage): boolean {
  const fixed = (s: { type: string } | null | undefined) =>
    !s || s.type === 'default' || s.type === 'textasc' || s.type === 'textdesc';
  return fixed(page.sorting) && page.questions.every((q) => fixed(q.doc.sorting));
}

/** The key of a page: where it is asked for (host and URL: the link's custom variables, the page and
 * screen), the page's language and look, and the stamp of the collector's and survey's rows as read
 * (domain/collectors/entry.ts: the survey's design_version among them, so a design edit is a new
 * key). */
export function pageKey(
  url: string,
  language: string,
  look: { styles: string[]; logoUrl: string | null },
  entry: Pick<RespondentEntry, 'stamp'>,
): string {
  return `${entry.stamp}\u0003${url}\u0003${language}\u0003${look.styles.join(' ')}\u0003${look.logoUrl}`;
}

/** The markup cut at its holes; null when a hole is not there exactly once (the survey's own text
 * held a hole's characters: such a page is drawn each time). */
export function keep(markup: string): KeptPage | null {
  const cut = markup.split(HOLES);
  const texts: string[] = [];
  const holes: Hole[] = [];
  for (let i = 0; i < cut.length; i++) (i % 2 === 0 ? texts : holes).push(cut[i] as Hole);
  const once = (h: Hole) => holes.filter((x) => x === h).length === 1;
  return once('csrf') && once('shown') && once('started') && holes.length === 3 ? { texts, holes } : null;
}

/** The page kept under `key`, drawn with its holes by `draw` on first use; null when it cannot be
 * kept (then it is drawn for the respondent). */
export async function keptPage(
  deps: Deps,
  key: string,
  draw: () => Promise<string>,
): Promise<KeptPage | null> {
  const hit = deps.caches.respondentPages.get(key);
  if (hit) return hit;
  const cut = keep(await draw());
  if (cut) deps.caches.respondentPages.set(key, cut);
  return cut;
}

/** A kept page with one respondent's values. */
export function fill(page: KeptPage, values: Record<Hole, string>): string {
  let out = page.texts[0];
  for (let i = 0; i < page.holes.length; i++) out += values[page.holes[i]] + page.texts[i + 1];
  return out;
}
