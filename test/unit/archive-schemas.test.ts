// The account archive's published JSON Schemas (docs/archive/) are the ones the domain's TypeBox
// schemas generate (`survey-service account schema` rewrites them), and each is a JSON Schema a
// standard validator (Ajv, draft 2020-12) compiles.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FILE_KINDS, jsonSchemaOf, schemaFile } from '../../src/domain/archive/format.js';

const DIR = join(import.meta.dirname, '../../docs/archive');

describe('docs/archive', () => {
  it('holds exactly the generated schemas (run `survey-service account schema` after a change)', () => {
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.schema.json'))
        .sort(),
    ).toEqual(FILE_KINDS.map(schemaFile).sort());
    for (const kind of FILE_KINDS)
      expect(JSON.parse(readFileSync(join(DIR, schemaFile(kind)), 'utf8')), schemaFile(kind)).toEqual(
        jsonSchemaOf(kind),
      );
  });

  it('compiles in a standard validator, which refuses what the format refuses', () => {
    const ajv = new Ajv2020({ strict: false });
    const validators = new Map(FILE_KINDS.map((kind) => [kind, ajv.compile(jsonSchemaOf(kind))]));
    const manifest = validators.get('manifest')!;
    expect(manifest({ format: 'survey-service-account-archive', version: 1 })).toBe(false);
    const folders = validators.get('folders')!;
    expect(folders([{ id: '100000001', title: 'Research' }])).toBe(true);
    expect(folders([{ id: '../1', title: 'Research' }])).toBe(false);
  });
});
