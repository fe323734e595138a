// Lenient parsing (src/http/lenient.ts): the spellings published v3 clients send, rewritten to
// what the schema accepts, and everything else left for validation to refuse.
import { describe, expect, it } from 'vitest';
import { lenientValue, type Schema } from '../../src/http/lenient.js';

const bool: Schema = { type: 'boolean' };
const id: Schema = { type: 'string', pattern: '^[0-9]{1,20}$' };
const text: Schema = { type: 'string' };

describe('lenientValue', () => {
  it('reads booleans spelled true/false/1/0 in any case', () => {
    for (const v of ['true', 'True', 'TRUE', '1']) expect(lenientValue(v, bool)).toBe(true);
    for (const v of ['false', 'False', 'FALSE', '0']) expect(lenientValue(v, bool)).toBe(false);
  });

  it('leaves other boolean spellings for validation', () => {
    expect(lenientValue('yes', bool)).toBe('yes');
    expect(lenientValue('', bool)).toBe('');
    expect(lenientValue(2, bool)).toBe(2);
  });

  it('reads ids sent as JSON numbers: the id schema, or a string field named like an id', () => {
    expect(lenientValue(42, id)).toBe('42');
    expect(lenientValue(7, text, 'id')).toBe('7');
    expect(lenientValue(7, text, 'survey_id')).toBe('7');
    expect(lenientValue(7, text, 'page_ids')).toBe('7');
  });

  it('keeps numbers that are no id: other fields, negative, fractional or unsafe integers', () => {
    expect(lenientValue(7, text, 'title')).toBe(7);
    expect(lenientValue(7, text)).toBe(7);
    expect(lenientValue(-1, id)).toBe(-1);
    expect(lenientValue(1.5, id)).toBe(1.5);
    expect(lenientValue(2 ** 53, id)).toBe(2 ** 53);
  });

  it('rewrites array items and object properties in place, by their own schemas and names', () => {
    const body = { flag: 'TRUE', ids: [1, '2'], nested: { collector_id: 3, name: 4 }, extra: 'True' };
    const out = lenientValue(body, {
      type: 'object',
      properties: {
        flag: bool,
        ids: { type: 'array', items: id },
        nested: { type: 'object', properties: { collector_id: text, name: text } },
      },
    });
    expect(out).toBe(body);
    expect(body).toEqual({
      flag: true,
      ids: ['1', '2'],
      nested: { collector_id: '3', name: 4 },
      extra: 'True',
    });
  });

  it('looks through a nullable type (one non-null branch) but not a real union', () => {
    expect(lenientValue('1', { anyOf: [bool, { type: 'null' }] })).toBe(true);
    expect(lenientValue('1', { anyOf: [bool, id] })).toBe('1');
  });

  it('leaves null, undefined and values without a schema as they are', () => {
    expect(lenientValue(null, bool)).toBeNull();
    expect(lenientValue(undefined, bool)).toBeUndefined();
    expect(lenientValue('true', undefined)).toBe('true');
    expect(lenientValue('true', { type: 'integer' })).toBe('true');
  });
});
