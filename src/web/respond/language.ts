// The respondent page's language: the switcher (plain links, so it works without script; the
// chosen language rides in the link's `lang` parameter, which every form and redirect keeps) and
// the messages of the domain's checks in the page's language.
import type { Language } from '../../domain/surveys/languages.js';
import { type Message, messageText } from '../../platform/i18n/index.js';
import { type Html, html } from '../html.js';

export interface PageLanguage {
  /** the language the page is shown in */
  lang: string;
  /** the languages the survey offers */
  choices: Language[];
}

/** Links to the page in each of the survey's languages; nothing when it has only one. */
export function languageSwitcher(
  l: PageLanguage,
  path: string,
  query: string,
  pageId: string | undefined,
  label: string,
): Html | string {
  if (l.choices.length < 2) return '';
  const href = (code: string) => {
    const search = new URLSearchParams(query);
    search.set('lang', code);
    if (pageId) search.set('p', pageId);
    return `${path}?${search.toString()}`;
  };
  return html`<nav class="languages" aria-label="${label}"><ul>${l.choices.map((c) =>
    c.id === l.lang
      ? html`<li><a href="${href(c.id)}" lang="${c.id}" aria-current="true">${c.native_name}</a></li>`
      : html`<li><a href="${href(c.id)}" lang="${c.id}" hreflang="${c.id}">${c.native_name}</a></li>`,
  )}</ul></nav>`;
}

/** A check's message in the page's language. */
export function shown(m: Message | undefined, lang: string): string | undefined {
  return m && messageText(m, lang);
}
