// Server-rendered HTML: a tagged template that escapes every interpolated value unless it is
// already Html (built by this tag or marked with `raw` for trusted, constant markup). Pages are
// built from these fragments, so user text cannot become markup by accident.

import { allowInline } from '../http/security-headers.js';
import { escapeHtml } from '../platform/escape.js';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup, never user text. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** A constant <style> block, allowed by the page policy through its hash (declare at module load). */
export function inlineStyle(css: string): Html {
  allowInline('style', css);
  return new Html(`<style>${css}</style>`);
}

/** A constant <script> block, allowed by the page policy through its hash (declare at module load). */
export function inlineScript(js: string): Html {
  allowInline('script', js);
  return new Html(`<script>${js}</script>`);
}
