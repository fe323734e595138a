// A translator's file read back (domain/surveys/translation-files.ts), as the builder's translations
// page calls it: XLIFF 2.0 and CSV stored through saveTranslation (merged into what is there),
// untranslated and changed texts named, and every refused file storing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblem } from '../../src/domain/responses/checks.js';
import { designIndex } from '../../src/domain/responses/design-index.js';
import type { SurveyRow } from '../../src/domain/surveys/access.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { exportTranslationFile, importTranslationFile } from '../../src/domain/surveys/translation-files.js';
import { getTranslation } from '../../src/domain/surveys/translations.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;
let survey: SurveyRow;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
  survey = await createSurvey(t.deps, owner.actor, {
    title: 'Lunch',
    pages: [
      {
        questions: [
          {
            family: 'single_choice',
            subtype: 'vertical',
            headings: [{ heading: 'Soup?' }],
            required: { text: 'This question requires an answer.', type: 'all', amount: '0' },
            answers: { choices: [{ text: 'Yes' }, { text: '-1 or less' }] },
          },
        ],
      },
    ],
  });
});
afterAll(() => t?.close());

const stored = async () => (await getTranslation(t.deps, survey, 'fr')).translations;

describe('translation files', () => {
  it('reads back an XLIFF file, storing its targets and naming what is left', async () => {
    const file = await exportTranslationFile(t.deps, survey, 'fr', 'xliff');
    expect(file.name).toBe(`survey-${survey.id}-fr.xlf`);
    const xliff = file.body
      .replace('<source>Lunch</source>', '<source>Lunch</source><target>Déjeuner</target>')
      .replace('<source>Soup?</source>', '<source>Soup?</source><target>Soupe ?</target>');
    const result = await importTranslationFile(t.deps, survey, 'fr', Buffer.from(xliff));
    expect(result.stored).toBe(2);
    expect(result.saved.counts.translated_string_count).toBe(2);
    expect(result.untranslated.map((u) => u.default)).toEqual([
      'Next',
      'Prev',
      'Done',
      'Exit',
      'Yes',
      '-1 or less',
    ]);
    expect((await stored()).filter((s) => s.translation).map((s) => s.translation)).toEqual([
      'Déjeuner',
      'Soupe ?',
    ]);
  });

  it('reads back a CSV file (formula-guarded cells as written), merged into the stored translation', async () => {
    const csv = (await exportTranslationFile(t.deps, survey, 'fr', 'csv')).body;
    expect(csv).toContain(",'-1 or less,");
    const edited = csv.replace(",'-1 or less,", ",'-1 or less,'-1 ou moins").replace(',Yes,', ',Yes,Oui');
    const result = await importTranslationFile(t.deps, survey, 'fr', Buffer.from(edited));
    expect(result.stored).toBe(4); // the two already translated come back in the file too
    const now = await stored();
    expect(now.find((s) => s.default === '-1 or less')?.translation).toBe('-1 ou moins');
    expect(now.find((s) => s.default === 'Yes')?.translation).toBe('Oui');
    expect(now.find((s) => s.default === 'Lunch')?.translation).toBe('Déjeuner');
  });

  it('skips and names a text changed since the file was made', async () => {
    const xliff = (await exportTranslationFile(t.deps, survey, 'fr', 'xliff')).body.replace(
      '<source>Next</source>',
      '<source>Onwards</source><target>En avant</target>',
    );
    const result = await importTranslationFile(t.deps, survey, 'fr', Buffer.from(xliff));
    expect(result.changed.map((c) => c.default)).toEqual(['Next']);
    expect((await stored()).find((s) => s.default === 'Next')?.translation).toBe('');
  });

  it('refuses entities, malformed and oversized files and unknown texts, storing nothing', async () => {
    const before = JSON.stringify(await stored());
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><xliff version="2.0"/>`;
    await refused(
      importTranslationFile(t.deps, survey, 'fr', Buffer.from(bomb)),
      1002,
      /document type or entities/,
    );
    await refused(
      importTranslationFile(t.deps, survey, 'fr', Buffer.from('<xliff version="2.0"><file>')),
      1002,
      /not well-formed/,
    );
    await refused(
      importTranslationFile(t.deps, survey, 'fr', Buffer.alloc(3 * 1024 * 1024, 'a')),
      1002,
      /larger than 2 MB/,
    );
    await refused(
      importTranslationFile(t.deps, survey, 'fr', Buffer.from('a,b\r\n1,2\r\n')),
      1002,
      /first row must be/,
    );
    await refused(
      importTranslationFile(
        t.deps,
        survey,
        'fr',
        Buffer.from('context,resource_id,source,translation\r\nquestion_heading,999999,x,y\r\n'),
      ),
      1002,
      /does not have/,
    );
    const other = (await exportTranslationFile(t.deps, survey, 'fr', 'xliff')).body;
    await refused(
      importTranslationFile(t.deps, survey, 'de', Buffer.from(other)),
      1002,
      /translates into fr, not de/,
    );
    expect(JSON.stringify(await stored())).toBe(before);
  });

  it('gives a required answer left empty as a catalog message, an owner’s own words as text', async () => {
    const index = await designIndex(t.deps, survey);
    const q = [...index.questions.values()][0];
    expect(answerProblem(q, [])).toEqual({ key: 'required' });
    const own = { ...q, doc: { ...q.doc, required: { ...q.doc.required!, text: 'Pick one, please.' } } };
    expect(answerProblem(own, [])).toEqual({ text: 'Pick one, please.' });
  });
});
