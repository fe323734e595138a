// Formbricks' survey and responses (test/import/files/formbricks/README.md) converted and landed as
// the importer lands a survey: every question type, logic, i18n labels, hidden fields, variables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formbricks } from '../../../src/domain/import/files/formbricks.js';
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
  formbricks.convert({
    file: fixture('formbricks', 'survey.json'),
    responses: fixture('formbricks', 'responses.json'),
  });

describe('Formbricks', () => {
  it('lands every question type and every answer (a German one too) but the payment (reported)', async () => {
    const c = await convert();
    const { stored, design } = await land(t, owner, c);
    expect(answerCount(c.responses)).toBe(stored);
    // r1: 16 answers, of which 3 tools (one "other"), 2 pictures, 2 matrix rows, 4 address parts,
    // 3 ranks, 4 contact parts; the call to action's click is reported. r2: name, role ("other"),
    // tools, nps, one matrix row (the click and the payment reported). r3: name, role, rating.
    expect(stored).toBe(16 - 7 + 3 + 2 + 2 + 4 + 3 + 4 + 5 + 3);
    expect(c.skipped.filter((s) => s.kind === 'answer').map((s) => s.reason)).toEqual([
      expect.stringContaining('(payment) was not carried over'),
      '2 clicks and dismissals of its calls to action are not carried over',
    ]);
    // every question but the payment
    expect([...design.questions.values()].flat()).toHaveLength(16);
    expect(c.responses.map((r) => (r as { response_status: string }).response_status)).toEqual([
      'completed',
      'partial',
      'completed',
    ]);
  });

  it('turns jumps on a choice and the fallback into skip logic and reports the rest', async () => {
    const c = await convert();
    const { design } = await land(t, owner, c);
    const qs = [...design.questions.values()].flat();
    const q = (h: string) => qs.find((x) => x.doc.headings[0].heading === h)!;
    const role = q('Your role?');
    expect(role.doc.answers!.choices!.map((ch) => ch.logic)).toEqual([
      undefined,
      { action: 'go_to_page', page_id: q('Rate our product').page_id },
      { action: 'end_survey' },
    ]);
    expect(design.pages.find((p) => p.id === role.page_id)!.logic).toEqual({
      action: 'go_to_page',
      page_id: q('Tools you use').page_id,
    });
    expect(c.skipped.filter((s) => s.kind === 'logic').map((s) => s.reason)).toEqual([
      expect.stringContaining('calculate action'),
      expect.stringContaining('"isLessThan"'),
    ]);
  });

  it('takes the default language, reports the others, keeps hidden fields and variables', async () => {
    const c = await convert();
    expect(c.skipped).toContainEqual(
      expect.objectContaining({
        name: expect.stringContaining('translations'),
        reason: expect.stringContaining('de'),
      }),
    );
    expect((c.details as { custom_variables: object }).custom_variables).toEqual({
      source: '',
      user_id: '',
      score: '',
    });
    expect((c.responses[0] as { custom_variables: object }).custom_variables).toEqual({
      source: 'newsletter',
      user_id: 'u1',
      score: '3',
    });
  });

  it('refuses what is not a Formbricks export', async () => {
    const s = fixture('formbricks', 'survey.json');
    await expect(formbricks.convert({ file: s.subarray(0, 500) })).rejects.toThrow(/not JSON/);
    await expect(formbricks.convert({ file: fixture('typeform', 'form.json') })).rejects.toThrow(
      /not what the tool exports/,
    );
    await expect(
      formbricks.convert({ file: s, responses: Buffer.from('{"data": [{"id": 1}]}') }),
    ).rejects.toThrow(/response 1 is not what the tool exports/);
  });
});
