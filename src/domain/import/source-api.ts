// What an import reads its source through: the source's /v3 API (remote.ts, over HTTP within a
// request budget) or a survey converted from another tool's export file (files/file-source.ts,
// from memory). Both answer the same paths with the same SurveyMonkey v3 JSON, so every phase of
// the importer runs unchanged over either.
import type { Static, TSchema } from 'typebox';

export interface SourceApi {
  /** GET a /v3 path (or a links.next URL the source gave) as JSON, unchecked. */
  get(pathOrUrl: string): Promise<unknown>;
  /** GET `path` as `schema` says (MalformedSource naming `what` otherwise). */
  read<T extends TSchema>(schema: T, path: string, what: string): Promise<Static<T>>;
  /** Every item of a list endpoint, page by page; an item not as `schema` says goes to `bad`. */
  pages<T extends TSchema>(
    schema: T,
    path: string,
    what: string,
    bad?: (item: unknown, problem: string) => void,
  ): AsyncGenerator<Static<T>[]>;
  all<T extends TSchema>(
    schema: T,
    path: string,
    what: string,
    bad?: (item: unknown, problem: string) => void,
  ): Promise<Static<T>[]>;
}
