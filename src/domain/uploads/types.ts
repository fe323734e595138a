// What an uploaded file may be: its extension (UPLOAD_TYPES) names a type, and the file's first
// bytes must agree where the type has a signature (PDF, images, the zip container of Office and
// OpenDocument files); plain text must not look binary. The stored content type is ours, from the
// extension, never the browser's claim.
import type { UPLOADABLE } from '../../config.js';

type Ext = (typeof UPLOADABLE)[number];

const starts = (head: Buffer, ...bytes: number[]) => bytes.every((b, i) => head[i] === b);
const ascii = (head: Buffer, at: number, text: string) =>
  head.subarray(at, at + text.length).toString('latin1') === text;
const zip = (head: Buffer) => starts(head, 0x50, 0x4b, 0x03, 0x04);
/** Text: no NUL byte, and none of the binary signatures above. */
const text = (head: Buffer) => !head.includes(0) && !SIGNED.some((sniff) => sniff(head));

const pdf = (head: Buffer) => ascii(head, 0, '%PDF-');
const png = (head: Buffer) => starts(head, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const jpeg = (head: Buffer) => starts(head, 0xff, 0xd8, 0xff);
const gif = (head: Buffer) => ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a');
const webp = (head: Buffer) => ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP');
const SIGNED = [pdf, png, jpeg, gif, webp, zip];

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

export const FILE_KINDS: Record<
  Ext,
  { contentType: string; label: string; sniff: (head: Buffer) => boolean }
> = {
  pdf: { contentType: 'application/pdf', label: 'PDF', sniff: pdf },
  png: { contentType: 'image/png', label: 'PNG', sniff: png },
  jpg: { contentType: 'image/jpeg', label: 'JPEG', sniff: jpeg },
  jpeg: { contentType: 'image/jpeg', label: 'JPEG', sniff: jpeg },
  gif: { contentType: 'image/gif', label: 'GIF', sniff: gif },
  webp: { contentType: 'image/webp', label: 'WebP', sniff: webp },
  txt: { contentType: 'text/plain; charset=utf-8', label: 'text', sniff: text },
  csv: { contentType: 'text/csv; charset=utf-8', label: 'CSV', sniff: text },
  docx: { contentType: `${OOXML}.wordprocessingml.document`, label: 'Word', sniff: zip },
  xlsx: { contentType: `${OOXML}.spreadsheetml.sheet`, label: 'Excel', sniff: zip },
  pptx: { contentType: `${OOXML}.presentationml.presentation`, label: 'PowerPoint', sniff: zip },
  odt: { contentType: `${ODF}.text`, label: 'OpenDocument text', sniff: zip },
  ods: { contentType: `${ODF}.spreadsheet`, label: 'OpenDocument spreadsheet', sniff: zip },
  odp: { contentType: `${ODF}.presentation`, label: 'OpenDocument presentation', sniff: zip },
};

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return m ? m[1].toLowerCase() : '';
}

/** The kind of a file by its name, if `allowed` takes it. */
export function kindOf(name: string, allowed: readonly string[]) {
  const ext = extensionOf(name);
  return allowed.includes(ext) && ext in FILE_KINDS ? FILE_KINDS[ext as Ext] : undefined;
}
