// The export formats, apart from their writers: the command line lists them without loading exceljs.
export const EXPORT_FORMATS = ['csv', 'xlsx', 'summary', 'summary_xlsx', 'spss'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The formats that are the summary (rollups per question), which a compare question can split. */
export const isSummary = (f: ExportFormat): boolean => f === 'summary' || f === 'summary_xlsx';
