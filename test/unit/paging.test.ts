// Paging (src/http/paging.ts): page and offset from the query, and the list envelope's links,
// which hold only the keys that apply and keep the request's other filters.

import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { baseUrl, envelope, envelopeJson, type Page, pageOf } from '../../src/http/paging.js';
import { stringifyAs } from '../../src/platform/json.js';

const request = (url: string) => ({ url, protocol: 'https' as const, host: 'surveys.example.org' });
const page = (n: number, perPage = 10): Page => pageOf({ page: n, per_page: perPage });
const link = (query: string) => `https://surveys.example.org/v3/surveys?${query}`;

describe('pageOf', () => {
  it('defaults to the first page of 50', () => {
    expect(pageOf({})).toEqual({ page: 1, perPage: 50, offset: 0 });
  });

  it('skips the rows of the pages before', () => {
    expect(pageOf({ page: 3, per_page: 20 })).toEqual({ page: 3, perPage: 20, offset: 40 });
  });
});

describe('envelope', () => {
  it('on the first page links only onwards', () => {
    const e = envelope(request('/v3/surveys'), page(1), 25, ['a']);
    expect(e).toEqual({
      data: ['a'],
      per_page: 10,
      page: 1,
      total: 25,
      links: {
        self: link('page=1&per_page=10'),
        next: link('page=2&per_page=10'),
        last: link('page=3&per_page=10'),
      },
    });
  });

  it('in the middle links both ways; on the last page only back', () => {
    expect(Object.keys(envelope(request('/v3/surveys'), page(2), 25, []).links).sort()).toEqual([
      'first',
      'last',
      'next',
      'prev',
      'self',
    ]);
    expect(envelope(request('/v3/surveys'), page(3), 25, []).links).toEqual({
      self: link('page=3&per_page=10'),
      prev: link('page=2&per_page=10'),
      first: link('page=1&per_page=10'),
    });
  });

  it('has one page, and only self, when there is nothing', () => {
    expect(envelope(request('/v3/surveys'), page(1), 0, []).links).toEqual({
      self: link('page=1&per_page=10'),
    });
  });

  it('points prev at the last page from past the end', () => {
    expect(envelope(request('/v3/surveys'), page(9), 25, []).links.prev).toBe(link('page=3&per_page=10'));
  });

  it('keeps the other query parameters, replacing page and per_page', () => {
    const e = envelope(request('/v3/surveys?per_page=10&title=a%20b&page=1&sort_by=title'), page(1), 25, []);
    expect(e.links.next).toBe(link('page=2&per_page=10&title=a+b&sort_by=title'));
  });

  it('never links past lastPage (the basic plan’s readable pages)', () => {
    const e = envelope(request('/v3/surveys'), page(1), 100, [], 2);
    expect(e.links.next).toBe(link('page=2&per_page=10'));
    expect(e.links.last).toBe(link('page=2&per_page=10'));
    expect(envelope(request('/v3/surveys'), page(2), 100, [], 2).links.next).toBeUndefined();
  });
});

describe('envelopeJson', () => {
  it('is the envelope around pre-serialized items', () => {
    const items = [{ id: '1', title: 'x"y' }];
    const Items = Type.Array(Type.Object({ id: Type.String(), title: Type.String() }));
    const text = envelopeJson(request('/v3/surveys?page=2'), page(2), 25, stringifyAs(Items, items), 3);
    expect(JSON.parse(text)).toEqual(envelope(request('/v3/surveys?page=2'), page(2), 25, items, 3));
  });
});

describe('baseUrl', () => {
  it('is the scheme and host that were called', () => {
    expect(baseUrl({ protocol: 'http', host: 'localhost:3000' })).toBe('http://localhost:3000');
  });
});
