// A translator's round trip: a survey's texts for one target language as an XLIFF 2.0 or CSV file,
// and such a file read back and stored through saveTranslation (what the /v3 translation routes
// call). Each text is a unit named by its context and resource id; a unit whose source no longer
// matches the survey's text is not stored (its translation would be of other words), and the texts
// still without a translation are named in the answer.
import { parse as parseCsv } from 'csv-parse/sync';
import type { Deps } from '../../context.js';
import { csvFile } from '../../platform/csv.js';
import { ApiError } from '../../platform/errors.js';
import type { SurveyRow } from './access.js';
import { getTranslation, type SurveyTranslation, saveTranslation, type Translation } from './translations.js';

/** The largest translation file read (a survey's texts in another language fit many times over). */
export const TRANSLATION_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** As many units as the /v3 routes take in one request. */
const MAX_UNITS = 20_000;

export type TranslationFormat = 'xliff' | 'csv';

const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:2.0';
const CSV_HEADER = ['context', 'resource_id', 'source', 'translation'];

const unitId = (t: { context: string; resource_id: string }) => `${t.context}.${t.resource_id}`;

export interface TranslationFile {
  name: string;
  contentType: string;
  body: string;
}

/** The survey's texts with their current translation into `code`, as a file for a translator. */
export async function exportTranslationFile(
  deps: Deps,
  survey: SurveyRow,
  code: string,
  format: TranslationFormat,
): Promise<TranslationFile> {
  const t = await getTranslation(deps, survey, code);
  if (t.language.id === survey.language)
    throw new ApiError(1002, `The survey is written in ${t.language.id}; choose another language.`);
  const base = `survey-${survey.id}-${t.language.id}`;
  if (format === 'csv')
    return {
      name: `${base}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: csvFile(
        [CSV_HEADER, ...t.translations.map((x) => [x.context, x.resource_id, x.default, x.translation])],
        true,
      ),
    };
  const { Builder } = await import('xml2js');
  const xml = new Builder({ xmldec: { version: '1.0', encoding: 'UTF-8' } }).buildObject({
    xliff: {
      $: { xmlns: XLIFF_NS, version: '2.0', srcLang: survey.language, trgLang: t.language.id },
      file: {
        $: { id: `survey-${survey.id}` },
        unit: t.translations.map((x) => ({
          $: { id: unitId(x), name: x.context },
          segment: { source: x.default, ...(x.translation ? { target: x.translation } : {}) },
        })),
      },
    },
  });
  return { name: `${base}.xlf`, contentType: 'application/xliff+xml; charset=utf-8', body: xml };
}

interface Unit {
  context: string;
  resource_id: string;
  source: string;
  translation: string;
}

const refuse = (detail: string) => new ApiError(1002, detail);

/** A node as xml2js reads it (explicitArray): text under `_` when it has attributes. */
type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };

function isNode(node: unknown): node is XmlNode {
  return typeof node === 'object' && node !== null;
}

function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  return isNode(node) && typeof node._ === 'string' ? node._ : '';
}

/** A node's children named `name`: elements, or strings for text-only ones. */
function kids(node: unknown, name: string): unknown[] {
  const v = isNode(node) ? node[name] : undefined;
  return Array.isArray(v) ? v : [];
}

async function readXliff(text: string, code: string): Promise<Unit[]> {
  // Translation files never need a document type: refusing it refuses every entity expansion
  // ("billion laughs") and external entity before the parser sees the file.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw refuse('The file declares a document type or entities, which an XLIFF file never needs: refused.');
  const { parseStringPromise } = await import('xml2js');
  let root: Record<string, XmlNode>;
  try {
    root = await parseStringPromise(text, { explicitArray: true, strict: true });
  } catch (err) {
    throw refuse(
      `The file is not well-formed XML: ${String(err instanceof Error ? err.message : err).split('\n')[0]}`,
    );
  }
  const xliff = root?.xliff;
  if (xliff?.$?.version !== '2.0')
    throw refuse('The file is not an XLIFF 2.0 document (its root must be <xliff version="2.0">).');
  const target = xliff.$?.trgLang;
  if (target && target.toLowerCase() !== code.toLowerCase())
    throw refuse(`The file translates into ${target}, not ${code}.`);
  const units = kids(xliff, 'file')
    .flatMap((f) => kids(f, 'unit'))
    .filter(isNode);
  return units.map((u, i) => {
    const [context, ...rest] = (u.$?.id ?? '').split('.');
    const segment = kids(u, 'segment').find(isNode);
    if (!context || rest.length !== 1 || !segment)
      throw refuse(`Unit ${i + 1} has no id of the form context.resource_id or no segment.`);
    return {
      context,
      resource_id: rest[0],
      source: textOf(kids(segment, 'source')[0]),
      translation: textOf(kids(segment, 'target')[0]).trim() ? textOf(kids(segment, 'target')[0]) : '',
    };
  });
}

/** The CSV writer's formula guard undone: a cell it prefixed with an apostrophe reads as written. */
const unguard = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

function readCsv(text: string): Unit[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, { bom: true, relax_column_count: false, skip_empty_lines: true });
  } catch (err) {
    throw refuse(`The file is not a readable CSV file: ${err instanceof Error ? err.message : err}`);
  }
  const [head, ...body] = rows;
  if (!head || CSV_HEADER.some((h, i) => head[i]?.trim().toLowerCase() !== h))
    throw refuse(`The CSV file's first row must be: ${CSV_HEADER.join(',')}.`);
  return body.map((r) => ({
    context: r[0],
    resource_id: r[1],
    source: unguard(r[2] ?? ''),
    translation: unguard(r[3] ?? ''),
  }));
}

export interface TranslationImport {
  saved: SurveyTranslation;
  /** units stored */
  stored: number;
  /** the survey's texts that still have no translation in this language */
  untranslated: Array<Omit<Translation, 'translation'>>;
  /** units of the file whose source text is no longer the survey's (not stored) */
  changed: Array<Omit<Translation, 'translation'>>;
}

/**
 * Reads a translated XLIFF 2.0 or CSV file (told apart by its first character) and stores its
 * translations into `code` with saveTranslation, merging into what is there. Nothing is written
 * when the file is refused: too large, not XLIFF 2.0 or CSV, a document type or entities, a unit
 * naming no text of the survey.
 */
export async function importTranslationFile(
  deps: Deps,
  survey: SurveyRow,
  code: string,
  bytes: Buffer,
  truncated = false,
): Promise<TranslationImport> {
  if (truncated || bytes.length > TRANSLATION_FILE_MAX_BYTES)
    throw refuse(
      `The file is larger than ${TRANSLATION_FILE_MAX_BYTES / 1024 / 1024} MB; a translation file is far smaller: refused.`,
    );
  if (bytes.length === 0) throw refuse('The file is empty.');
  const text = bytes.toString('utf8').replace(/^\ufeff/, '');
  const units = /^\s*</.test(text) ? await readXliff(text, code) : readCsv(text);
  if (units.length > MAX_UNITS) throw refuse(`The file has more than ${MAX_UNITS} texts.`);
  const current = await getTranslation(deps, survey, code);
  const byId = new Map(current.translations.map((t) => [unitId(t), t]));
  const changed: TranslationImport['changed'] = [];
  const given: Unit[] = [];
  for (const u of units) {
    const now = byId.get(unitId(u));
    if (!now) throw refuse(`The file names a text the survey does not have: ${unitId(u)}.`);
    if (!u.translation) continue;
    if (now.default !== u.source)
      changed.push({ default: now.default, context: now.context, resource_id: now.resource_id });
    else given.push(u);
  }
  const saved =
    given.length === 0 && current.exists
      ? current
      : await saveTranslation(
          deps,
          survey,
          code,
          {
            translations: given.map((u) => ({
              default: u.source,
              translation: u.translation,
              context: u.context,
              resource_id: u.resource_id,
            })),
          },
          current.exists ? 'patch' : 'post',
        );
  const untranslated = saved.translations
    .filter((t) => !t.translation)
    .map(({ translation: _, ...rest }) => rest);
  return { saved, stored: given.length, untranslated, changed };
}
