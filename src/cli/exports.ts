// `survey-service export`: a survey's responses as a file, written by the same domain as the API
// and the analyze page's download (the acting user's access and plan apply).
import { createWriteStream } from 'node:fs';
import { Option } from 'commander';
import type { ExportSpec } from '../domain/exports/exports.js';
import { EXPORT_FORMATS, type ExportFormat } from '../domain/exports/formats.js';
import { parseApiDate } from '../platform/dates.js';
import { type Commands, collect, withDeps } from './common.js';

/** The domain the export verb calls, loaded when it runs (its writers load exceljs). */
const domain = () => import('../domain/exports/exports.js');

interface ExportOptions {
  survey: string;
  format: ExportFormat;
  values: 'text' | 'numeric';
  bom?: boolean;
  to?: string;
  owner?: string;
  collector: string[];
  status: string[];
  from?: string;
  until?: string;
  compare?: string;
}

const date = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  const iso = parseApiDate(v);
  if (!iso) throw new Error(`--${name} must be a date like 2026-01-31 or 2026-01-31T12:00:00`);
  return iso;
};

export const exportCommands: Commands = (program) => {
  program
    .command('export')
    .description(
      "write a survey's responses to a file (CSV, XLSX, summary CSV or XLSX, SPSS syntax, PDF report or PPTX slides)",
    )
    .requiredOption('--survey <id>', 'the survey id')
    .addOption(new Option('--format <format>', 'file format').choices([...EXPORT_FORMATS]).default('csv'))
    .addOption(
      new Option('--values <values>', 'answer text or numeric codes')
        .choices(['text', 'numeric'])
        .default('text'),
    )
    .option('--bom', 'CSV: start with a UTF-8 byte order mark (for Excel)')
    .option('--to <file>', 'write to this file (default: standard output)')
    .option('--owner <username>', 'act as this user (needs analyze access; default: the survey owner)')
    .option('--collector <id>', 'only this collector (repeatable)', collect, [])
    .option('--status <status>', 'only this response status (repeatable)', collect, [])
    .option('--from <date>', 'responses created at or after')
    .option('--until <date>', 'responses created at or before')
    .option(
      '--compare <question id>',
      'summary and report formats: split each line by the answers of this choice question',
    )
    .action(async (opts: ExportOptions) => {
      await withDeps('export', async (deps) => {
        const { surveyForCli, checkExportAllowed, writeExportTo } = await domain();
        const { survey, paid } = await surveyForCli(deps, opts.survey, opts.owner);
        const spec: ExportSpec = {
          format: opts.format,
          values: opts.values,
          bom: !!opts.bom,
          collectorIds: opts.collector.length ? opts.collector : undefined,
          status: opts.status.length ? opts.status : undefined,
          startCreated: date('from', opts.from),
          endCreated: date('until', opts.until),
          compare: opts.compare,
        };
        const upTo = await checkExportAllowed(deps, paid, survey, spec);
        await writeExportTo(deps, survey, spec, upTo, opts.to ? createWriteStream(opts.to) : process.stdout);
      });
    });
};
