// The one CSV writer, and the cell rules every spreadsheet file the service writes shares: the
// response and summary exports (domain/exports/writers.ts) and the contacts export
// (domain/contacts/export.ts) hand it raw cells; formula neutralising and quoting happen here, so
// no caller can forget them.
// CSV as csv-stringify writes it with CRLF (a quoted field's quotes doubled; null empty; a number
// as JS writes it; a Date as its epoch milliseconds), without its per-field option checks:
// ~54,000 responses per CPU-second against ~40,000 (bench/export-scale.ts).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

export type Cell = string | number | Date | null;

const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * OWASP's rule against formula injection: a text cell starting with =, +, -, @, tab or carriage
 * return gets a leading apostrophe, so a spreadsheet shows it as text. Plain numbers (-5, +3.2)
 * cannot run anything and stay as they are.
 */
export function neutralise(s: string): string {
  const c = s.charCodeAt(0);
  // = + - @ \t \r
  if (c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13)
    return PLAIN_NUMBER.test(s) ? s : `'${s}`;
  return s;
}

/** A row as a spreadsheet file (XLSX) takes it: text cells neutralised, others as they are. */
export function sheetRow(cells: readonly Cell[]): Cell[] {
  return cells.map((c) => (typeof c === 'string' ? neutralise(c) : c));
}

/**
 * A field is quoted when it holds a quote, a line break or the field separator of any common
 * locale: `,`, and `;` and tab, which Excel splits on where the decimal mark is a comma (German,
 * French, Dutch): unquoted, `a;=1+1` would open there as a second cell holding a formula.
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** CSV records as text, CRLF after each: text cells neutralised, then quoted when they need it. */
export function csvText(rows: readonly (readonly Cell[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (i > 0) out += ',';
      if (v === null || v === undefined) continue;
      const s =
        typeof v === 'string' ? neutralise(v) : typeof v === 'number' ? String(v) : String(v.getTime());
      out += NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    }
    out += '\r\n';
  }
  return out;
}

/** A whole CSV file as text; `bom` starts it with a UTF-8 byte order mark (for Excel). */
export function csvFile(rows: readonly (readonly Cell[])[], bom: boolean): string {
  return bom ? `\ufeff${csvText(rows)}` : csvText(rows);
}

/** Writes CSV records a batch at a time (one string and one stream write per batch rather than a
 * stream hop per record), waiting when `out` is full, then ends `out`. */
export async function writeCsv(
  out: Writable,
  bom: boolean,
  batches: AsyncIterable<Cell[][]> | Iterable<Cell[][]>,
): Promise<void> {
  let first = true;
  for await (const batch of batches) {
    if (!out.write(csvFile(batch, first && bom))) await once(out, 'drain');
    first = false;
  }
  out.end();
  await finished(out);
}
