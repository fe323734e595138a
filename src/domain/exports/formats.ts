// The export formats, apart from their writers: the command line lists them without loading exceljs.
import { isOneOf } from '../../platform/lists.js';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'summary', 'summary_xlsx', 'spss', 'pdf', 'pptx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A stored job's format as an ExportFormat (one that is none is a fault: jobs are written with one). */
export function exportFormatOf(value: string): ExportFormat {
  if (isOneOf(EXPORT_FORMATS, value)) return value;
  throw new Error(`unknown export format ${value}`);
}

/** The formats that are the summary (rollups per question), which a compare question can split. */
export const isSummary = (f: ExportFormat): boolean => f === 'summary' || f === 'summary_xlsx';

/** The report formats: the analyze page as a PDF report or a PowerPoint deck (report.ts). */
export const isReport = (f: ExportFormat): boolean => f === 'pdf' || f === 'pptx';

/** The formats a compare question can split: the summaries and the reports. */
export const isCompared = (f: ExportFormat): boolean => isSummary(f) || isReport(f);
