// Export files written to a stream: responses as CSV (platform/csv.ts: RFC 4180 with CRLF, optional
// BOM for Excel) or XLSX (exceljs's streaming writer), and an SPSS syntax file that reads the numeric CSV
// and labels its variables and codes (the summary is summary.ts). Rows come from the database in keyset batches, so memory stays constant however many responses there are.
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type Cell, sheetRow, writeCsv } from '../../platform/csv.js';
import { type ExportRow, exportBatches, type ResponseFilters } from '../responses/responses.js';
import type { ExportFormat } from './formats.js';
import { type Layout, RESPONDENT_COLUMNS, responseCells, type ValuesMode } from './layout.js';

export { EXPORT_FORMATS, type ExportFormat, exportFormatOf } from './formats.js';

export const FILE_TYPES: Record<ExportFormat, { ext: string; mime: string }> = {
  csv: { ext: 'csv', mime: 'text/csv; charset=utf-8' },
  xlsx: { ext: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  summary: { ext: 'csv', mime: 'text/csv; charset=utf-8' },
  summary_xlsx: {
    ext: 'xlsx',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  spss: { ext: 'sps', mime: 'text/plain; charset=utf-8' },
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  pptx: {
    ext: 'pptx',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
};

/** Rows read per database round trip: small enough that a batch's parsed answers die in V8's young
 * generation (2000 doubled the CPU time in GC and the peak heap). */
const BATCH = 500;

export interface RowSource {
  filters: ResponseFilters;
  /** The basic plan's ordinal ceiling. */
  upTo?: number;
}

/** Called after each batch with the number of responses written so far. */
export type Progress = (done: number) => Promise<void>;

async function* responseRows(
  deps: Parameters<typeof exportBatches>[0],
  source: RowSource,
  progress: Progress | undefined,
): AsyncGenerator<ExportRow[]> {
  let done = 0;
  for await (const batch of exportBatches(deps, source.filters, BATCH, source.upTo)) {
    yield batch;
    done += batch.length;
    await progress?.(done);
  }
}

export async function writeResponsesCsv(
  deps: Parameters<typeof exportBatches>[0],
  layout: Layout,
  source: RowSource,
  opts: { values: ValuesMode; bom: boolean },
  out: Writable,
  progress?: Progress,
): Promise<void> {
  async function* cells(): AsyncGenerator<Cell[][]> {
    yield [layout.columns.map((c) => c.question), layout.columns.map((c) => c.detail)];
    for await (const batch of responseRows(deps, source, progress))
      yield batch.map((r) => responseCells(layout, r, opts.values, 'text'));
  }
  await writeCsv(out, opts.bom, cells());
}

export async function writeResponsesXlsx(
  deps: Parameters<typeof exportBatches>[0],
  layout: Layout,
  source: RowSource,
  opts: { values: ValuesMode },
  out: Writable,
  progress?: Progress,
): Promise<void> {
  const { default: ExcelJS } = await import('exceljs'); // a second of start-up if imported eagerly
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wb.addWorksheet('Responses', { views: [{ state: 'frozen', ySplit: 2 }] });
  ws.addRow(sheetRow(layout.columns.map((c) => c.question))).commit();
  ws.addRow(sheetRow(layout.columns.map((c) => c.detail))).commit();
  for await (const batch of responseRows(deps, source, progress))
    for (const r of batch) {
      const row = ws.addRow(sheetRow(responseCells(layout, r, opts.values, 'date')));
      row.getCell(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
      row.getCell(4).numFmt = 'yyyy-mm-dd hh:mm:ss';
      row.commit();
    }
  ws.commit();
  await wb.commit();
  await finished(out);
}

/** SPSS names: a letter first, letters, digits and _ after, at most 64 characters. */
function spssNames(layout: Layout): string[] {
  const fixed = [
    'respondent_id',
    'collector_id',
    'start_date',
    'end_date',
    'ip_address',
    'email_address',
    'first_name',
    'last_name',
    'custom_data_1',
    'response_status',
  ];
  const names = [...fixed, ...layout.customVariables.map((_, i) => `custom_var_${i + 1}`)];
  const order = new Map([...layout.questions.keys()].map((id, i) => [id, i + 1]));
  const seen = new Map<string, number>();
  for (const c of layout.columns.slice(names.length)) {
    if (c.calculated !== undefined) {
      names.push(`calc_${c.calculated}`.slice(0, 64));
      continue;
    }
    const q = order.get(c.questionId!)!;
    const k = (seen.get(c.questionId!) ?? 0) + 1;
    seen.set(c.questionId!, k);
    names.push(`q${q}_${k}`);
  }
  return names;
}

const spssString = (s: string) => `'${s.replace(/'/g, "''").replace(/[\r\n]+/g, ' ')}'`;

/**
 * An SPSS syntax file for the numeric CSV export (format csv, values numeric, saved as
 * responses.csv beside it): reads it, then labels every variable with its question and sub-field
 * and every numeric code with its choice.
 */
export async function writeSpssSyntax(layout: Layout, out: Writable): Promise<void> {
  const names = spssNames(layout);
  const fixed = RESPONDENT_COLUMNS + layout.customVariables.length;
  const lines: string[] = [
    '* Survey Service export: labels for the numeric CSV (values: numerical value).',
    "* Save the CSV export (values numeric) as responses.csv in SPSS's working directory.",
    'GET DATA /TYPE=TXT',
    "  /FILE='responses.csv'",
    '  /ENCODING=UTF8',
    '  /DELIMITERS=","',
    "  /QUALIFIER='\"'",
    '  /ARRANGEMENT=DELIMITED',
    '  /FIRSTCASE=3',
    '  /VARIABLES=',
  ];
  layout.columns.forEach((c, i) => {
    const numeric = i >= fixed && c.codes !== undefined;
    lines.push(`    ${names[i]} ${numeric ? 'F8.2' : 'A255'}`);
  });
  lines.push('.', 'VARIABLE LABELS');
  layout.columns.forEach((c, i) => {
    let q = c.question;
    for (let j = i; !q && j > 0; j--) q = layout.columns[j - 1].question;
    const label = c.detail ? `${q}: ${c.detail}` : q;
    lines.push(
      `  ${names[i]} ${spssString(label.slice(0, 250))}${i === layout.columns.length - 1 ? '.' : ''}`,
    );
  });
  const labelled = layout.columns
    .map((c, i) => [c, i] as const)
    .filter(([c]) => c.codes && c.codes.length > 0);
  if (labelled.length > 0) {
    lines.push('VALUE LABELS');
    labelled.forEach(([c, i], n) => {
      const codes = c.codes!.map((v) => `${v.code} ${spssString(v.text.slice(0, 120))}`).join(' ');
      lines.push(`  ${n > 0 ? '/' : ''}${names[i]} ${codes}`);
    });
    lines.push('.');
  }
  lines.push('EXECUTE.', '');
  out.end(lines.join('\r\n'));
  await finished(out);
}
