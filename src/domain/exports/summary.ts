// The summary export: the rollups per question, one line per choice, row, column choice or "other",
// with counts and shares, as CSV (platform/csv.ts) or XLSX (one sheet). With a compare question
// (the analyze page's `compare`), each line also gets, per answer of that question, the count and
// share within the responses that gave it (crosstab.ts: the same rollups under the filter plus that
// answer), so the file holds what the page's compare tables show. The compare question's
// own lines have no group cells. A number question (numerical textbox, slider) also gets, per row,
// lines of its minimum, maximum, mean and median (the figure in the Responses column, no percent),
// overall and per group, like the analyze page's figures.
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Deps } from '../../context.js';
import { type Cell, sheetRow, writeCsv } from '../../platform/csv.js';
import { ApiError } from '../../platform/errors.js';
import { isComparable, resultsBy } from '../analysis/crosstab.js';
import { isNumberQuestion } from '../analysis/filters.js';
import type { QuestionSummary, Stats } from '../analysis/rollups.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { choiceLabel } from '../responses/readable.js';
import type { ResponseFilters } from '../responses/responses.js';
import { plainText, rowLabel } from './layout.js';

/** One line of a question's summary: its row and answer labels, a count and what it is a share of,
 * or a statistic (no share; '' when nobody answered). */
export interface Entry {
  row: string;
  answer: string;
  n: number | '';
  of?: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const pct = (n: number, of: number) => (of > 0 ? round2((n / of) * 100) : 0);
const STATS: Array<[string, keyof Stats]> = [
  ['Minimum', 'min'],
  ['Maximum', 'max'],
  ['Mean', 'mean'],
  ['Median', 'median'],
];

/** The lines of one question's summary (the same lines, in the same order, for any summary of q). */
export function entries(q: IndexedQuestion, s: QuestionSummary, total: number): Entry[] {
  const out: Entry[] = [];
  const line = (row: string, answer: string, n: number, of: number) => out.push({ row, answer, n, of });
  // Always every statistic line, so a group without answers keeps the lines aligned with the total.
  const statLines = (row: string, st: Stats | undefined) => {
    if (!isNumberQuestion(q)) return;
    for (const [answer, key] of STATS) out.push({ row, answer, n: st ? round2(st[key]) : '' });
  };
  const choice = (id: string) => {
    const c = q.choices.get(id);
    return c ? plainText(choiceLabel(q, c)) : '';
  };
  for (const c of s.choices ?? []) line('', choice(c.id), c.count, s.answered);
  for (const o of s.other ?? []) line('', plainText(q.other?.text ?? ''), o.count, s.answered);
  for (const r of s.rows ?? []) {
    const row = q.rows.get(r.id);
    const rowText = row ? rowLabel(row) : '';
    if (!r.choices && !r.cols) {
      line(rowText, '', r.answered, s.answered);
      statLines(rowText, r.stats);
    }
    for (const c of r.choices ?? []) line(rowText, choice(c.id), c.count, r.answered);
    for (const col of r.cols ?? []) {
      const cq = q.cols.get(col.id);
      for (const c of col.choices)
        line(
          `${rowText} - ${plainText(cq?.col.text ?? '')}`,
          plainText(cq?.choices.get(c.id)?.text ?? ''),
          c.count,
          r.answered,
        );
    }
  }
  if (!s.choices && !s.rows && !s.other) {
    line('', '', s.answered, total);
    statLines('', s.stats);
  }
  return out;
}

/** An entry's Responses and Percent cells. */
const figures = (e: Entry): Cell[] => (e.of === undefined || e.n === '' ? [e.n, ''] : [e.n, pct(e.n, e.of)]);

/** The question a summary is compared by, checked: a single or multiple choice question of the
 * survey (400/1002 naming `field` otherwise). */
export function compareQuestion(
  index: DesignIndex,
  id: string,
  field = 'compare_question_id',
): IndexedQuestion {
  const q = index.questions.get(id);
  if (!q || !isComparable(q))
    throw new ApiError(
      1002,
      `'${field}' ${id} is not a single or multiple choice question of this survey (the summary is compared by one).`,
    );
  return q;
}

/** The summary's lines (header first), compared by `by` when given. */
export async function summaryLines(
  deps: Deps,
  index: DesignIndex,
  filters: ResponseFilters,
  by?: IndexedQuestion,
): Promise<Cell[][]> {
  const questions = index.pages.flatMap((p) => p.questions).filter((q) => q.family !== 'presentation');
  // One read of the matching responses for the results and their split by `by`.
  const { total, items, compared: x } = await resultsBy(deps, index, filters, questions, by);
  const groups = x?.groups ?? [];
  const groupHead = groups.flatMap((g) => {
    const label = plainText(g.label);
    return [`${label}: Responses`, `${label}: Percent`];
  });
  const lines: Cell[][] = [
    ['Question', 'Row', 'Answer', 'Responses', 'Percent', 'Answered', 'Skipped', ...groupHead],
  ];
  if (x)
    lines.push([
      `Compared by: ${plainText(x.by.label)}`,
      '',
      'Responses in the group',
      total,
      100,
      '',
      '',
      ...groups.flatMap((g) => [g.total, pct(g.total, total)]),
    ]);
  for (const { question: q, summary: s } of items) {
    const head = plainText(q.label);
    const own = entries(q, s, total);
    const split = groups.map((g) => {
      const it = g.items.find((i) => i.question.id === q.id);
      return it ? entries(q, it.summary, g.total) : undefined;
    });
    own.forEach((e, i) => {
      const cells: Cell[] = [head, e.row, e.answer, ...figures(e), s.answered, s.skipped];
      for (const list of split) {
        const ge = list?.[i];
        cells.push(...(ge ? figures(ge) : ['', '']));
      }
      lines.push(cells);
    });
  }
  return lines;
}

export async function writeSummaryCsv(lines: Cell[][], bom: boolean, out: Writable): Promise<void> {
  await writeCsv(out, bom, [lines]);
}

export async function writeSummaryXlsx(lines: Cell[][], out: Writable): Promise<void> {
  const { default: ExcelJS } = await import('exceljs'); // a second of start-up if imported eagerly
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wb.addWorksheet('Summary', { views: [{ state: 'frozen', ySplit: 1 }] });
  for (const line of lines) ws.addRow(sheetRow(line)).commit();
  ws.commit();
  await wb.commit();
  await finished(out);
}
