// The respondent page's language: the switcher (plain links, so it works without script; the
// chosen language rides in the link's `lang` parameter, which every form and redirect keeps) and
// the messages of the domain's checks in the page's language.
import type { Language } from '../../domain/surveys/languages.js';
import {
  directionOf,
  type Message,
  messageText,
  type Translate,
  translator,
} from '../../platform/i18n/index.js';
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

/** The page frame's language: its `lang`, direction and skip link (layout's options). */
export function frameLanguage(lang: string): { lang: string; dir: 'ltr' | 'rtl'; skipText: string } {
  return { lang, dir: directionOf(lang), skipText: translator(lang)('skip') };
}

/** "Please wait … and try again." */
export function waitText(t: Translate, seconds: number): string {
  if (seconds === 1) return t('wait_second');
  return seconds < 90
    ? t('wait_seconds', { count: seconds })
    : t('wait_minutes', { count: Math.ceil(seconds / 60) });
}
