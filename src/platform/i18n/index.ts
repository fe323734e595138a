// The service's own words in the respondent's language. A survey may be written or translated in
// any language of domain/surveys/languages.ts; its respondent pages speak the service's words in
// the closest language shipped here and English otherwise. Adding a language: a catalog file
// typed `Catalog` (the compiler names every missing or extra key) and one entry in CATALOGS.
import { ar } from './ar.js';
import { de } from './de.js';
import { type Catalog, en, type MessageKey } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { sv } from './sv.js';
import { tr } from './tr.js';
import { zh } from './zh.js';

export type { Catalog, MessageKey };

export const CATALOGS: Readonly<Record<string, Catalog>> = Object.freeze({
  en,
  de,
  fr,
  es,
  pt,
  it,
  nl,
  pl,
  sv,
  tr,
  ar,
  he,
  ja,
  zh,
});

export type Params = Readonly<Record<string, string | number>>;

/**
 * A message for a respondent: one of the catalog's (shown in the page's language) or a text
 * someone wrote (an owner's own message, shown as written).
 */
export type Message = { key: MessageKey; params?: Params } | { text: string };

export type Translate = (key: MessageKey, params?: Params) => string;

const primary = (code: string) => code.toLowerCase().split(/[-_]/)[0];

/** Accept-Language's tags, most wanted first (q=0 and `*` dropped). */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** The shipped catalog language a browser asks for first (pages with no survey to follow). */
export function browserLanguage(acceptLanguage: string | undefined): string {
  return acceptedLanguages(acceptLanguage ?? '').find((t) => Object.hasOwn(CATALOGS, primary(t))) ?? 'en';
}

/** The catalog for a language code (`pt-br` → pt, `zh-cn` → zh), English when none is shipped. */
export function catalogFor(code: string): { lang: string; catalog: Catalog } {
  const p = primary(code);
  const catalog = Object.hasOwn(CATALOGS, p) ? CATALOGS[p] : undefined;
  return catalog ? { lang: p, catalog } : { lang: 'en', catalog: en };
}

function fill(template: string, params: Params | undefined): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function translator(code: string): Translate {
  const { catalog } = catalogFor(code);
  return (key, params) => fill(catalog[key], params);
}

/** A message's text in a language (English for API clients and logs). */
export function messageText(m: Message, code = 'en'): string {
  return 'text' in m ? m.text : translator(code)(m.key, m.params);
}

/** The catalog key whose English is exactly `text`: an owner's message left at its default is the
 * service's word, and so is shown in the respondent's language. */
export function defaultMessage(text: string, keys: readonly MessageKey[]): Message {
  const key = keys.find((k) => en[k] === text);
  return key ? { key } : { text };
}

const RTL: readonly string[] = ['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ug', 'ckb'];

/** The writing direction of a language's script. */
export function directionOf(code: string): 'rtl' | 'ltr' {
  return RTL.includes(primary(code)) ? 'rtl' : 'ltr';
}
