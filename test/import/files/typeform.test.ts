// Typeform's form and responses (test/import/files/typeform/README.md) converted and landed as the
// importer lands a survey: every field type, logic jumps, hidden fields and variables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadImportFile } from '../../../src/domain/import/files/converted.js';
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
  typeform.convert({
    file: fixture('typeform', 'form.json'),
    responses: fixture('typeform', 'responses.json'),
  });

describe('Typeform', () => {
  it('lands every field type and every answer but the one to a deleted field (reported)', async () => {
    const c = await convert();
    const { stored, design } = await land(t, owner, c);
    expect(answerCount(c.responses)).toBe(stored);
    // r1: 34 answers, of which two fruits and an "other" (3 here) and a ranking of three (3 here);
    // r2: 8; r3: 2 and one to a field deleted from the form.
    expect(stored).toBe(34 - 2 + 3 + 3 + 8 + 2);
    const lost = c.skipped.filter((s) => s.kind === 'answer');
    expect(lost).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('its question is not in the form') }),
    ]);
    const questions = [...design.questions.values()].flat();
    // every field but the group and inline group themselves, the matrix/contact/address parts folded in
    expect(questions).toHaveLength(26 + 3);
    expect(c.responses.map((r) => (r as { response_status: string }).response_status)).toEqual([
      'completed',
      'completed',
      'partial',
    ]);
  });

  it('turns jumps on a choice and "always" jumps into skip logic and reports the rest', async () => {
    const c = await convert();
    const { design } = await land(t, owner, c);
    const questions = [...design.questions.values()].flat();
    const byHeading = (h: string) => questions.find((q) => q.doc.headings[0].heading === h)!;
    const yes = byHeading('Do you drive?');
    const email = byHeading('Email');
    const num = byHeading('How many pets?');
    expect(yes.doc.answers!.choices![0].logic).toEqual({ action: 'go_to_page', page_id: email.page_id });
    const yesPage = design.pages.find((p) => p.id === yes.page_id)!;
    expect(yesPage.logic).toEqual({ action: 'go_to_page', page_id: num.page_id });
    expect(byHeading('Country').doc.answers!.choices![2].logic).toEqual({ action: 'end_survey' });
    const logic = c.skipped.filter((s) => s.kind === 'logic').map((s) => s.reason);
    expect(logic).toEqual([
      expect.stringContaining('add calculation'),
      expect.stringContaining('"and"'),
      expect.stringContaining('hidden logic'),
    ]);
  });

  it('keeps hidden fields and variables as custom variables, per response', async () => {
    const c = await convert();
    expect((c.details as { custom_variables: object }).custom_variables).toEqual({
      utm_source: '',
      user_id: '',
      score: '',
    });
    expect((c.responses[0] as { custom_variables: object }).custom_variables).toEqual({
      utm_source: 'newsletter',
      user_id: '42',
      score: '2',
    });
  });

  it('refuses what is not a Typeform export', async () => {
    const cut = fixture('typeform', 'form.json').subarray(0, 300);
    await expect(typeform.convert({ file: cut })).rejects.toThrow(BadImportFile);
    await expect(typeform.convert({ file: cut })).rejects.toThrow(/not JSON.*complete/);
    const google = Buffer.from(JSON.stringify({ formId: 'x', info: { title: 'A' }, items: [] }));
    await expect(typeform.convert({ file: google })).rejects.toThrow(
      /not what the tool exports: 'id'|fields|title/,
    );
    const form = fixture('typeform', 'form.json');
    await expect(
      typeform.convert({ file: form, responses: Buffer.from('{"items": [{"answers": 3}]}') }),
    ).rejects.toThrow(BadImportFile);
  });
});
