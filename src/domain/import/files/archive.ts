// Reading what a tool exports, safely: zip archives are read in memory (never extracted to disk),
// refusing entry names that climb out of the archive or are absolute, and bounding the total
// unpacked size (a zip bomb is refused before its bytes are inflated, and yauzl checks that every
// entry inflates to no more than it declared); XML is parsed with no DTD at all, so no entity is
// ever declared or expanded (billion laughs, external entities).
import { Parser } from 'xml2js';
import yauzl from 'yauzl';
import { BadImportFile } from './converted.js';

/** The most an archive is unpacked to, in all (a survey archive is mostly XML text). */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
/** Entries an archive may hold (a tool's export has a handful). */
const MAX_ENTRIES = 1000;

/** Whether the buffer starts as a zip archive does. */
export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50;

/**
 * The files of a zip archive, by name, read in memory. Refused (BadImportFile): a damaged or
 * truncated archive, an entry named with `..`, `\` or an absolute path, more than MAX_ENTRIES
 * entries, or more than `maxTotal` bytes unpacked.
 */
export async function readZip(buf: Buffer, maxTotal: number): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  ).catch((err: Error) => {
    throw new BadImportFile(
      `The archive cannot be read (${err.message}): it may be truncated or not a zip file.`,
    );
  });
  if (zip.entryCount > MAX_ENTRIES) {
    zip.close();
    throw new BadImportFile(
      `The archive holds ${zip.entryCount} entries; an export holds at most ${MAX_ENTRIES}.`,
    );
  }
  const out = new Map<string, Buffer>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        total += entry.uncompressedSize;
        if (total > maxTotal)
          return reject(
            new BadImportFile(
              `The archive unpacks to more than ${Math.floor(maxTotal / 1024 / 1024)} MB: it is refused.`,
            ),
          );
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    if (err instanceof BadImportFile) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new BadImportFile(`The archive cannot be read: ${message}.`);
  } finally {
    zip.close();
  }
  return out;
}

/** A file's text (UTF-8, a byte-order mark dropped). */
export const textOf = (buf: Buffer) => buf.toString('utf8').replace(/^\uFEFF/, '');

/**
 * An XML document parsed by xml2js (strict, no DTD): a document that declares a DOCTYPE or an
 * entity is refused outright, so nothing can be expanded, and a truncated one fails to parse.
 * `what` names the file in the messages.
 */
export async function parseXml(buf: Buffer, what: string): Promise<unknown> {
  const text = textOf(buf);
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new BadImportFile(
      `The ${what} declares a DTD or entities, which an export never does: it is refused.`,
    );
  const parser = new Parser({
    strict: true,
    explicitArray: false,
    explicitRoot: true,
    trim: false,
    normalize: false,
    // unknown entities are errors in strict mode: none is looked up or expanded
    async: false,
  });
  try {
    return await parser.parseStringPromise(text);
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new BadImportFile(`The ${what} is not well-formed XML (${message}): it may be truncated.`);
  }
}
