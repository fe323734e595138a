// Importing contacts from a CSV file: the file is read into rows, each column is mapped to a contact
// field (email, names, phone number, a custom field, or left out), and the rows go through the same
// bulk creation as POST /v3/contacts/bulk, so its sorting, duplicate rule and the plan's contact
// limit hold. Each row gets its own result.
import { parse } from 'csv-parse/sync';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { type BulkRow, bulkCreateContacts } from './bulk.js';
import { type ContactInput, CUSTOM_SLOTS, type CustomSlot } from './contacts.js';

/** Where a column goes: a contact field, `custom_<slot>`, or '' (not imported). */
export const IMPORT_TARGETS = [
  'email',
  'first_name',
  'last_name',
  'phone_number',
  ...CUSTOM_SLOTS.map((s) => `custom_${s}` as const),
] as const;
export type ImportTarget = (typeof IMPORT_TARGETS)[number] | '';

/** The most rows one import takes (one bulk request's worth, kept small enough for one page). */
export const IMPORT_MAX_ROWS = 5000;
/** The largest file accepted, in bytes. */
export const IMPORT_MAX_BYTES = 1_000_000;

export interface ParsedCsv {
  header: string[];
  rows: string[][];
}

/** Reads CSV text whose first line names the columns (400/1002 when it is not CSV or too big). */
export function readCsv(text: string): ParsedCsv {
  if (Buffer.byteLength(text) > IMPORT_MAX_BYTES)
    throw new ApiError(1002, `The file is larger than ${IMPORT_MAX_BYTES / 1_000_000} MB.`);
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw new ApiError(1002, `The file could not be read as CSV: ${(err as Error).message}`);
  }
  if (records.length < 2)
    throw new ApiError(1002, 'The file needs a header line naming the columns and at least one contact.');
  if (records.length - 1 > IMPORT_MAX_ROWS)
    throw new ApiError(
      1002,
      `The file has ${records.length - 1} rows; one import takes at most ${IMPORT_MAX_ROWS}.`,
    );
  return { header: records[0], rows: records.slice(1) };
}

const GUESSES: [RegExp, ImportTarget][] = [
  [/e-?mail/, 'email'],
  [/^(first|given|fore)[ _-]?name$|^first$/, 'first_name'],
  [/^(last|family|sur)[ _-]?name$|^last$/, 'last_name'],
  [/phone|mobile|cell/, 'phone_number'],
];

/**
 * A first mapping from the header: well-known names go to their field, a column named like a
 * custom field's label goes to that field, the rest are left out. Each target is used once.
 */
export function guessMapping(header: string[], fieldLabels: { id: string; label: string }[]): ImportTarget[] {
  const used = new Set<ImportTarget>();
  return header.map((name) => {
    const n = name.trim().toLowerCase();
    const custom = fieldLabels.find((f) => f.label.trim().toLowerCase() === n);
    const target: ImportTarget = custom
      ? (`custom_${custom.id}` as ImportTarget)
      : (GUESSES.find(([re]) => re.test(n))?.[1] ?? '');
    if (!target || used.has(target)) return '';
    used.add(target);
    return target;
  });
}

/** 1002 unless the mapping names one target per column, each at most once, and an email or phone. */
export function checkMapping(mapping: string[], columns: number): ImportTarget[] {
  if (mapping.length !== columns) throw new ApiError(1002, 'Choose where each column goes.');
  const seen = new Set<string>();
  for (const m of mapping) {
    if (m !== '' && !(IMPORT_TARGETS as readonly string[]).includes(m))
      throw new ApiError(1002, `'${m}' is not a contact field.`);
    if (m !== '' && seen.has(m)) throw new ApiError(1002, 'Each contact field can take only one column.');
    seen.add(m);
  }
  if (!seen.has('email') && !seen.has('phone_number'))
    throw new ApiError(1002, 'Choose the column that holds the email address (or the phone number).');
  return mapping as ImportTarget[];
}

function contactOf(row: string[], mapping: ImportTarget[]): ContactInput {
  const c: ContactInput = {};
  const custom: Partial<Record<CustomSlot, string>> = {};
  mapping.forEach((target, i) => {
    const value = (row[i] ?? '').trim();
    if (!target) return;
    if (target === 'email' || target === 'phone_number') c[target] = value || null;
    else if (target === 'first_name' || target === 'last_name') c[target] = value;
    else custom[target.slice(7) as CustomSlot] = value;
  });
  if (Object.keys(custom).length > 0) c.custom_fields = custom;
  return c;
}

export interface ImportRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  contact: ContactInput;
  result: BulkRow;
}

/** Imports the rows with the mapping; existing contacts are updated when `updateExisting`. */
export async function importContacts(
  deps: Deps,
  ownerId: string,
  plan: Plan,
  csv: ParsedCsv,
  mapping: ImportTarget[],
  options: { updateExisting: boolean; listId?: string },
): Promise<ImportRow[]> {
  const contacts = csv.rows.map((r) => contactOf(r, mapping));
  const result = await bulkCreateContacts(
    deps,
    ownerId,
    plan,
    contacts,
    options.updateExisting,
    options.listId,
  );
  return contacts.map((contact, i) => ({ line: i + 2, contact, result: result.rows[i] }));
}
