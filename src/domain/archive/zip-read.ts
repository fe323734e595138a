// Reading an account archive: a zip opened with yauzl (entries read from the central directory,
// each entry's data streamed on demand), refused before anything is used when it is not a zip, when
// a name is not one the format has (path traversal included), or when its sizes look like a zip
// bomb. Each entry's stream is checked against its declared size as it is read (yauzl's
// validateEntrySizes), so a lying header fails too.
import type { Readable } from 'node:stream';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import yauzl from 'yauzl';
import { errorMessage } from '../../platform/errors.js';

/** An archive that is refused: nothing was written. */
export class ArchiveRefused extends Error {}

/** Limits of an archive (a zip bomb stops at one of them). */
export const LIMITS = {
  entries: 1_000_000,
  /** the sum of the entries' uncompressed sizes */
  totalBytes: 64 * 1024 ** 3,
  /** a compressed entry bigger than this uncompressed may expand at most `ratio` times */
  ratioFrom: 1024 * 1024,
  ratio: 200,
  /** a JSON file or one line of a JSON Lines file */
  jsonBytes: 64 * 1024 * 1024,
};

const NAMES =
  /^(manifest\.json|folders\.json|contact_fields\.json|contacts\.jsonl|contact_lists\.json|webhooks\.json|surveys\/[0-9]{1,6}\/(survey\.json|responses\.jsonl|uploads\.jsonl)|files\/[0-9]{1,20})$/;
const DIRECTORIES = /^(surveys\/|surveys\/[0-9]{1,6}\/|files\/)$/;

export interface OpenArchive {
  has(name: string): boolean;
  /** the entry's data, streamed */
  stream(name: string): Promise<Readable>;
  size(name: string): number;
  names(): string[];
  close(): void;
}

export async function openArchive(path: string): Promise<OpenArchive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      autoClose: false,
      strictFileNames: true,
      validateEntrySizes: true,
    });
  } catch (err) {
    throw new ArchiveRefused(`not a zip archive (${errorMessage(err)})`);
  }
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (DIRECTORIES.test(name)) continue;
      if (!NAMES.test(name))
        throw new ArchiveRefused(
          `the archive holds a file this format does not have: ${JSON.stringify(name)}`,
        );
      if (entries.has(name)) throw new ArchiveRefused(`the archive holds ${name} twice`);
      if (entries.size >= LIMITS.entries) throw new ArchiveRefused(`more than ${LIMITS.entries} files`);
      if (entry.isEncrypted()) throw new ArchiveRefused(`${name} is encrypted`);
      total += entry.uncompressedSize;
      if (total > LIMITS.totalBytes)
        throw new ArchiveRefused(`the files would expand to more than ${LIMITS.totalBytes} bytes`);
      if (
        entry.uncompressedSize > LIMITS.ratioFrom &&
        entry.uncompressedSize > LIMITS.ratio * Math.max(1, entry.compressedSize)
      )
        throw new ArchiveRefused(
          `${name} would expand ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times (a zip bomb?)`,
        );
      entries.set(name, entry);
    }
  } catch (err) {
    zip.close();
    if (err instanceof ArchiveRefused) throw err;
    // yauzl's own checks: an absolute or ../ path, a malformed directory.
    throw new ArchiveRefused(`a malformed or unsafe entry: ${errorMessage(err)}`);
  }
  const entry = (name: string) => {
    const e = entries.get(name);
    if (!e) throw new ArchiveRefused(`the archive has no ${name}`);
    return e;
  };
  return {
    has: (name) => entries.has(name),
    stream: async (name) => {
      const s = await zip.openReadStreamPromise(entry(name));
      return s;
    },
    size: (name) => entry(name).uncompressedSize,
    names: () => [...entries.keys()],
    close: () => zip.close(),
  };
}

/** The first thing wrong with `value` against `schema`, or null. */
export function problem(schema: TSchema, value: unknown): string | null {
  const [error] = [...Value.Errors(schema, value)];
  if (!error) return null;
  return `${error.instancePath || '/'} ${error.message}`;
}

async function readAll(stream: Readable, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream) {
      n += chunk.length;
      if (n > LIMITS.jsonBytes) throw new ArchiveRefused(`${name} is larger than ${LIMITS.jsonBytes} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    stream.destroy();
    if (err instanceof ArchiveRefused) throw err;
    throw new ArchiveRefused(`${name} could not be read: ${errorMessage(err)}`);
  }
  return Buffer.concat(chunks);
}

function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ArchiveRefused(`${where} is not JSON: ${errorMessage(err)}`);
  }
}

/** A JSON file checked against `schema`. */
export async function readJson<T extends TSchema>(
  archive: OpenArchive,
  name: string,
  schema: T,
): Promise<import('typebox').Static<T>> {
  const value = parse((await readAll(await archive.stream(name), name)).toString('utf8'), name);
  const wrong = problem(schema, value);
  if (wrong !== null || !Value.Check(schema, value))
    throw new ArchiveRefused(`${name} does not match its schema: ${wrong}`);
  return value;
}

/** The lines of a JSON Lines file, each checked against `schema`, streamed. */
export async function* readLines<T extends TSchema>(
  archive: OpenArchive,
  name: string,
  schema: T,
): AsyncGenerator<import('typebox').Static<T>> {
  const stream = await archive.stream(name);
  let rest = '';
  let line = 0;
  const one = (text: string) => {
    line++;
    const value = parse(text, `${name} line ${line}`);
    if (!Value.Check(schema, value))
      throw new ArchiveRefused(`${name} line ${line} does not match its schema: ${problem(schema, value)}`);
    return value;
  };
  try {
    for await (const chunk of stream) {
      rest += chunk.toString('utf8');
      let at = rest.indexOf('\n');
      while (at >= 0) {
        const text = rest.slice(0, at);
        rest = rest.slice(at + 1);
        if (text.trim()) yield one(text);
        at = rest.indexOf('\n');
      }
      if (rest.length > LIMITS.jsonBytes)
        throw new ArchiveRefused(`${name} line ${line + 1} is longer than ${LIMITS.jsonBytes} bytes`);
    }
  } catch (err) {
    stream.destroy();
    if (err instanceof ArchiveRefused) throw err;
    throw new ArchiveRefused(`${name} could not be read: ${errorMessage(err)}`);
  }
  if (rest.trim()) yield one(rest);
}
