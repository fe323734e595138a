// What an import reads its source through: the source's /v3 API (remote.ts, over HTTP within a
// request budget) or a survey converted from another tool's export file (files/file-source.ts,
// from memory). Both answer the same paths with the same SurveyMonkey v3 JSON, so every phase of
// the importer runs unchanged over either; this class reads and checks their answers once.
import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import { Envelope, MalformedSource, problem, read } from './source.js';

export abstract class SourceApi {
  /** How messages name the source ("the source's", "the file's"). */
  protected abstract readonly whose: string;

  /** GET a /v3 path (or a links.next URL the source gave) as JSON, unchecked. */
  abstract get(pathOrUrl: string): Promise<unknown>;

  /** A listing's links.next, checked before it is followed (a remote source keeps to its origin). */
  protected checkNext(_next: string, _what: string): void {}

  /** GET `path` as `schema` says (MalformedSource naming `what` otherwise). */
  async read<T extends TSchema>(schema: T, path: string, what: string): Promise<Static<T>> {
    return read(schema, await this.get(path), what);
  }

  /**
   * Every item of a list endpoint, page by page, following links.next (per_page as given in
   * `path`). An item not as `schema` says goes to `bad` (or fails the listing without one).
   */
  async *pages<T extends TSchema>(
    schema: T,
    path: string,
    what: string,
    bad?: (item: unknown, problem: string) => void,
  ): AsyncGenerator<Static<T>[]> {
    let next: string | undefined = path;
    while (next) {
      const page: Static<typeof Envelope> = await this.read(Envelope, next, `list of ${what}`);
      const items: Static<T>[] = [];
      for (const item of page.data) {
        if (Value.Check(schema, item)) {
          items.push(item);
          continue;
        }
        const p = problem(schema, item) ?? 'does not match';
        if (bad) bad(item, p);
        else throw new MalformedSource(`${this.whose} ${what} is malformed: ${p}`);
      }
      next = page.links?.next;
      if (next) this.checkNext(next, what);
      yield items;
    }
  }

  /** Every item of a list endpoint, all pages together. */
  async all<T extends TSchema>(
    schema: T,
    path: string,
    what: string,
    bad?: (item: unknown, problem: string) => void,
  ): Promise<Static<T>[]> {
    const out: Static<T>[] = [];
    for await (const page of this.pages(schema, path, what, bad)) out.push(...page);
    return out;
  }
}
