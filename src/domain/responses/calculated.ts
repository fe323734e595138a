// A response's calculated variables (domain/surveys/calculated.ts) computed from its stored answers:
// the columns of the exports and the values a collector's end redirect passes on. The same
// evaluation (recall.ts calculatedValues) gives the values piping and display logic see on a page.
import { formatValue } from '../surveys/formula.js';
import { splitPipes } from '../surveys/piping.js';
import type { DesignIndex } from './design-index.js';
import { calculatedValues, knownFrom } from './recall.js';
import { type ResponseRow, responseVariables, storedPages } from './responses.js';

/** The response's calculated variables by name (empty values are null). */
export function responseValues(
  index: DesignIndex,
  response: Pick<ResponseRow, 'pages' | 'custom_variables'>,
): ReadonlyMap<string, number | null> {
  if (!index.calculated?.length) return new Map();
  const variables = responseVariables(response);
  return calculatedValues(index, knownFrom(storedPages(response), variables));
}

/**
 * The collector's end-of-survey redirect URL with each `[variable("name")]` and
 * `[custom_variable("name")]` replaced by the response's value, URL-encoded (empty when it has
 * none): e.g. https://example.com/done?score=[variable("total")]. Other text is kept as written.
 */
export function redirectWithValues(
  url: string,
  index: DesignIndex,
  /** undefined for a response kept aside by screening: its values are left out */
  response: Pick<ResponseRow, 'pages' | 'custom_variables'> | undefined,
): string {
  if (!url.includes('[')) return url;
  const parts = splitPipes(url);
  if (parts.every((p) => typeof p === 'string')) return url;
  const values = response ? responseValues(index, response) : new Map<string, number | null>();
  const link = response ? responseVariables(response) : {};
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (p.kind === 'variable') return encodeURIComponent(formatValue(values.get(p.key) ?? null));
      if (p.kind === 'custom_variable') return encodeURIComponent(link[p.key] ?? '');
      return '';
    })
    .join('');
}
