// The export formats, apart from their writers: the command line lists them without loading exceljs.
export const EXPORT_FORMATS = ['csv', 'xlsx', 'summary', 'spss'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
