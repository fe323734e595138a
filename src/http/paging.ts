// Paging for list endpoints: the shared query schema, and the envelope
// {data, per_page, page, total, links} whose links hold only the keys that apply.
import type { FastifyRequest } from 'fastify';
import { type TArray, type TSchema, Type } from 'typebox';
import { type JsonOf, jsonOf } from '../platform/json.js';

export const MAX_PER_PAGE = 1000;

/** A list's `sort_order` (either case, as its schema accepts it) as the domain's ASC or DESC. */
export function sortOrderOf(order: 'ASC' | 'DESC' | 'asc' | 'desc' | undefined): 'ASC' | 'DESC' | undefined {
  if (order === undefined) return undefined;
  return order === 'ASC' || order === 'asc' ? 'ASC' : 'DESC';
}

/** `page` and `per_page` as every list endpoint accepts them (strings coerced; bounds checked). */
export function pagingQuery(maxPerPage = MAX_PER_PAGE) {
  return {
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number' }),
    ),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxPerPage,
        default: 50,
        description: `Page size (at most ${maxPerPage})`,
      }),
    ),
  };
}

export const PagingQuery = Type.Object(pagingQuery());

export function listEnvelopeSchema<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    per_page: Type.Integer(),
    page: Type.Integer(),
    total: Type.Integer(),
    links: Type.Object({
      self: Type.String(),
      prev: Type.Optional(Type.String()),
      next: Type.Optional(Type.String()),
      first: Type.Optional(Type.String()),
      last: Type.Optional(Type.String()),
    }),
  });
}

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export function pageOf(query: { page?: number; per_page?: number }): Page {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 50;
  return { page, perPage, offset: (page - 1) * perPage };
}

/** What paging reads of a request (a FastifyRequest is one). */
type PagedRequest = Pick<FastifyRequest, 'url' | 'protocol' | 'host'>;

/** `scheme://host` of the request: hrefs and links are absolute on the host that was called. */
export function baseUrl(request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  return `${request.protocol}://${request.host}`;
}

export type ListEnvelope<T extends TSchema> = ReturnType<typeof listEnvelopeSchema<T>>;

/**
 * The envelope as JSON text around `data`, the page's items already as JSON text (a JSON array):
 * for lists that splice stored JSON or build their items' text directly instead of going through
 * the response schema's serializer. Same fields, in the schema's order, as `envelope`.
 */
export function envelopeJson<T extends TSchema>(
  request: PagedRequest,
  page: Page,
  total: number,
  data: JsonOf<TArray<T>>,
  lastPage?: number,
): JsonOf<ListEnvelope<T>> {
  const { links } = envelope(request, page, total, [], lastPage);
  const ordered = {
    self: links.self,
    prev: links.prev,
    next: links.next,
    first: links.first,
    last: links.last,
  };
  return jsonOf<ListEnvelope<T>>(
    `{"data":${data},"per_page":${page.perPage},"page":${page.page},"total":${total},"links":${JSON.stringify(ordered)}}`,
  );
}

/** `lastPage`: the last page a client may be sent to, when later ones would be refused (the basic
 * plan's response limit); links.next and links.last never point past it. */
export function envelope<T>(request: PagedRequest, page: Page, total: number, data: T[], lastPage?: number) {
  // Unlike the original, links keep the request's other filters, so following links.next pages
  // through the same result set.
  const [path, search = ''] = request.url.split('?');
  const rest = new URLSearchParams(search);
  rest.delete('page');
  rest.delete('per_page');
  const tail = rest.size > 0 ? `&${rest.toString()}` : '';
  const link = (p: number) => `${baseUrl(request)}${path}?page=${p}&per_page=${page.perPage}${tail}`;
  const last = Math.max(1, Math.min(Math.ceil(total / page.perPage), lastPage ?? Number.POSITIVE_INFINITY));
  const links: { self: string; prev?: string; first?: string; next?: string; last?: string } = {
    self: link(page.page),
  };
  if (page.page > 1) {
    links.prev = link(Math.min(page.page - 1, last));
    links.first = link(1);
  }
  if (page.page < last) {
    links.next = link(page.page + 1);
    links.last = link(last);
  }
  return { data, per_page: page.perPage, page: page.page, total, links };
}
