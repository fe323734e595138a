// Google Forms' form and responses (test/import/files/google-forms/README.md) converted and landed
// as the importer lands a survey: every item kind, sections as pages, "go to section" as skip
// logic, quiz points.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadImportFile } from '../../../src/domain/import/files/converted.js';
import { googleForms } from '../../../src/domain/import/files/google-forms.js';
import { typeform } from '../../../src/domain/import/files/typeform.js';
import { type DomainAccount, type DomainTest, openDomain } from '../../domain/setup.js';
import { answerCount, fixture, land } from './land.js';

let t: DomainTest;
let owner: DomainAccount;
beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
});
afterAll(() => t?.close());

const convert = () =>
  googleForms.convert({
    file: fixture('google-forms', 'form.json'),
    responses: fixture('google-forms', 'responses.json'),
  });

describe('Google Forms', () => {
  it('lands every item kind and every answer but the one to a deleted question (reported)', async () => {
    const c = await convert();
    const { stored, design } = await land(t, owner, c);
    expect(answerCount(c.responses)).toBe(stored);
    // r1: 18 answers (a grid row each), of which three sports (one "other") and two checkbox-grid
    // cells; r2: 4 and one to a removed question; r3: 3.
    expect(stored).toBe(18 + 2 + 1 + 4 + 3);
    expect(c.skipped.filter((s) => s.kind === 'answer')).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('its question is not in the form') }),
    ]);
    expect([...design.questions.values()].flat()).toHaveLength(19);
    // the sections with questions are pages; the empty one is left out
    expect(design.pages.map((p) => p.title)).toEqual(['', 'Your pets', 'Last words', 'Final section']);
  });

  it('turns "go to section" and "submit form" into skip logic and reports a restart', async () => {
    const c = await convert();
    const { design } = await land(t, owner, c);
    const radio = [...design.questions.values()]
      .flat()
      .find((q) => q.doc.headings[0].heading === 'Do you have a pet?')!;
    const logic = radio.doc.answers!.choices!.map((ch) => ch.logic);
    expect(logic).toEqual([
      { action: 'go_to_page', page_id: design.pages[1].id },
      // to the empty section: on to the next section with questions
      { action: 'go_to_page', page_id: design.pages[3].id },
      { action: 'end_survey' },
      undefined,
    ]);
    expect(c.skipped.filter((s) => s.kind === 'logic')).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('restart') }),
    ]);
  });

  it("keeps a quiz's choice points and reports the text question's", async () => {
    const c = await convert();
    const { design } = await land(t, owner, c);
    const drop = [...design.questions.values()]
      .flat()
      .find((q) => q.doc.headings[0].heading === 'Capital of France')!;
    expect(drop.doc.quiz_options).toEqual({ scoring_enabled: true });
    expect(drop.doc.answers!.choices!.map((ch) => ch.quiz_options?.score)).toEqual([0, 2]);
    expect(c.skipped.map((s) => s.name)).toContain(
      'Google Forms sample: every item / Capital of Spain (text)',
    );
  });

  it('refuses what is not a Google Forms export, and a Google form given as Typeform', async () => {
    const form = fixture('google-forms', 'form.json');
    await expect(googleForms.convert({ file: form.subarray(0, form.length - 10) })).rejects.toThrow(
      /not JSON/,
    );
    await expect(typeform.convert({ file: form })).rejects.toThrow(BadImportFile);
    await expect(googleForms.convert({ file: fixture('typeform', 'form.json') })).rejects.toThrow(
      /not what the tool exports/,
    );
  });
});
