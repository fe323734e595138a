// normalizeQuestion per family: what each family keeps, the defaults it fills in, what it refuses.
import { describe, expect, it } from 'vitest';
import { normalizeQuestion } from '../../src/domain/surveys/question-rules.js';
import type { QuestionInput } from '../../src/domain/surveys/question-schema.js';
import { ApiError } from '../../src/platform/errors.js';

/** Ids 1, 2, 3... as the database would mint them. */
function minter(start = 1) {
  let n = start;
  return () => String(n++);
}
const q = (body: Partial<QuestionInput> & Pick<QuestionInput, 'family' | 'subtype'>): QuestionInput => ({
  headings: [{ heading: 'Q?' }],
  ...body,
});
const norm = (body: QuestionInput, keep: string[] = []) => normalizeQuestion(body, minter(), new Set(keep));
/** The 1002 message normalising refuses the body with. */
function refusal(body: QuestionInput): string {
  try {
    norm(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(1002);
    return (e as ApiError).message;
  }
  throw new Error('normalizeQuestion accepted the body');
}

describe('choice families', () => {
  it('orders choices by their position, numbers them 1..n and gives each a fresh id', () => {
    const doc = norm(
      q({
        family: 'single_choice',
        subtype: 'vertical',
        answers: { choices: [{ text: 'B', position: 2 }, { text: 'A', position: 1 }, { text: 'C' }] },
      }),
    );
    expect(doc.answers?.choices?.map((c) => [c.text, c.position, c.visible])).toEqual([
      ['A', 1, true],
      ['B', 2, true],
      ['C', 3, true],
    ]);
    expect(new Set(doc.answers?.choices?.map((c) => c.id)).size).toBe(3);
  });

  it('fills an "other" answer with its defaults, an answer choice in a choice family', () => {
    const doc = norm(
      q({ family: 'multiple_choice', subtype: 'horiz', answers: { choices: [{ text: 'A' }], other: {} } }),
    );
    expect(doc.answers?.other).toMatchObject({
      text: 'Other (please specify)',
      is_answer_choice: true,
      num_chars: 50,
      num_lines: 1,
      error_text: 'Please enter a comment.',
    });
  });

  it('refuses rows, and a question without choices', () => {
    expect(
      refusal(
        q({
          family: 'single_choice',
          subtype: 'vertical',
          answers: { choices: [{ text: 'A' }], rows: [{ text: 'r' }] },
        }),
      ),
    ).toBe("'answers.rows' is not allowed for single_choice vertical questions (allowed: choices, other).");
    expect(refusal(q({ family: 'multiple_choice', subtype: 'vertical', answers: { choices: [] } }))).toBe(
      "'answers.choices' must hold at least one item for multiple_choice vertical questions.",
    );
  });

  it('needs an image on every choice of an image choice question, and no image choice menus', () => {
    const image = { display_options: { display_type: 'image_choice' as const } };
    expect(
      refusal(
        q({ family: 'single_choice', subtype: 'vertical', ...image, answers: { choices: [{ text: 'A' }] } }),
      ),
    ).toBe("'answers.choices.0.image.url' is required for image choice questions.");
    expect(
      refusal(
        q({
          family: 'single_choice',
          subtype: 'menu',
          ...image,
          answers: { choices: [{ text: 'A', image: { url: 'https://x/a.png' } }] },
        }),
      ),
    ).toMatch(/image_choice needs a single_choice or multiple_choice question that is not a menu/);
  });

  it('keeps skip logic on single choice questions only', () => {
    const logic = { action: 'end_survey' as const };
    const doc = norm(
      q({ family: 'single_choice', subtype: 'vertical', answers: { choices: [{ text: 'A', logic }] } }),
    );
    expect(doc.answers?.choices?.[0].logic).toEqual(logic);
    expect(
      refusal(
        q({ family: 'multiple_choice', subtype: 'vertical', answers: { choices: [{ text: 'A', logic }] } }),
      ),
    ).toBe("'answers.choices[0].logic' is only allowed on single_choice questions.");
  });
});

describe('matrix', () => {
  it('gives a ranking its ranks 1..n, weighted 1..n, when the client sends none', () => {
    const doc = norm(
      q({
        family: 'matrix',
        subtype: 'ranking',
        answers: { rows: [{ text: 'x' }, { text: 'y' }, { text: 'z' }] },
      }),
    );
    expect(doc.answers?.choices?.map((c) => [c.text, c.weight])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
  });

  it('needs a weight on every column of a rating scale', () => {
    expect(
      refusal(
        q({
          family: 'matrix',
          subtype: 'rating',
          answers: { rows: [{ text: 'r' }], choices: [{ text: 'Good', weight: 1 }, { text: 'Bad' }] },
        }),
      ),
    ).toBe("'answers.choices.1.weight' is required for matrix rating questions.");
  });

  it('stores a menu matrix with ids on columns and their choices, and refuses a column without choices', () => {
    const doc = norm(
      q({
        family: 'matrix',
        subtype: 'menu',
        answers: { rows: [{ text: 'r' }], cols: [{ text: 'c', choices: [{ text: 'a' }, { text: 'b' }] }] },
      }),
    );
    const col = doc.answers?.cols?.[0];
    expect(col?.choices.map((c) => [c.text, c.position])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    const ids = [doc.answers?.rows?.[0].id, col?.id, ...(col?.choices.map((c) => c.id) ?? [])];
    expect(new Set(ids).size).toBe(4);
    expect(
      refusal(
        q({ family: 'matrix', subtype: 'menu', answers: { rows: [{ text: 'r' }], cols: [{ text: 'c' }] } }),
      ),
    ).toBe("'answers.cols.0.choices' must hold at least one item for matrix menu questions.");
  });

  it('makes a matrix comment box not an answer choice, and wants required.type on a single matrix', () => {
    const doc = norm(
      q({
        family: 'matrix',
        subtype: 'multi',
        answers: { rows: [{ text: 'r' }], choices: [{ text: 'c' }], other: { text: 'Say more' } },
      }),
    );
    expect(doc.answers?.other).toMatchObject({ text: 'Say more', is_answer_choice: false });
    expect(
      refusal(
        q({
          family: 'matrix',
          subtype: 'single',
          required: {},
          answers: { rows: [{ text: 'r' }], choices: [{ text: 'c' }] },
        }),
      ),
    ).toBe("'required.type' is required for matrix single questions.");
  });
});

describe('open ended, datetime, demographic, presentation', () => {
  it('takes no answers on a single textbox but needs rows on multiple textboxes and dates', () => {
    expect(refusal(q({ family: 'open_ended', subtype: 'single', answers: { rows: [{ text: 'r' }] } }))).toBe(
      "'answers' is not allowed for open_ended single questions.",
    );
    expect(refusal(q({ family: 'open_ended', subtype: 'multi' }))).toBe(
      "'answers.rows' must hold at least one item for open_ended multi questions.",
    );
    expect(
      refusal(q({ family: 'datetime', subtype: 'date_only', answers: { choices: [{ text: 'c' }] } })),
    ).toBe("'answers.choices' is not allowed for datetime date_only questions (allowed: rows).");
    expect(
      norm(q({ family: 'datetime', subtype: 'both', answers: { rows: [{ text: '' }] } })).answers?.rows,
    ).toHaveLength(1);
  });

  it('makes a slider an integer from 0 to 100 unless it says otherwise', () => {
    const doc = norm(
      q({ family: 'open_ended', subtype: 'single', display_options: { display_type: 'slider' } }),
    );
    expect(doc.validation).toMatchObject({ type: 'integer', min: '0', max: '100' });
    expect(
      refusal(q({ family: 'open_ended', subtype: 'essay', display_options: { display_type: 'slider' } })),
    ).toBe("'display_options.display_type' slider needs an open_ended single question.");
  });

  it('gives a demographic question all ten rows, labelled for its subtype, hiding those not asked for', () => {
    const doc = norm(
      q({
        family: 'demographic',
        subtype: 'us',
        answers: { rows: [{ type: 'email', required: true }, { type: 'zip' }] },
      }),
    );
    const rows = doc.answers?.rows ?? [];
    expect(rows).toHaveLength(10);
    expect(rows.slice(0, 2).map((r) => [r.type, r.text, r.visible, r.required])).toEqual([
      ['email', 'Email Address:', true, true],
      ['zip', 'ZIP:', true, false],
    ]);
    expect(rows.slice(2).every((r) => r.visible === false)).toBe(true);
    const intl = norm(q({ family: 'demographic', subtype: 'international' }));
    expect(intl.answers?.rows?.find((r) => r.type === 'zip')?.text).toBe('ZIP/Postal Code:');
  });

  it('refuses a demographic row without a type or named twice', () => {
    expect(
      refusal(q({ family: 'demographic', subtype: 'us', answers: { rows: [{ text: 'Name' }] } })),
    ).toMatch(/^'answers.rows.0.type' is required for demographic questions/);
    expect(
      refusal(
        q({ family: 'demographic', subtype: 'us', answers: { rows: [{ type: 'name' }, { type: 'name' }] } }),
      ),
    ).toBe("'answers.rows.1.type' name appears twice.");
  });

  it('needs the image of an image presentation, and no validation or answers on presentations', () => {
    expect(refusal(q({ family: 'presentation', subtype: 'image' }))).toBe(
      "'headings.0.image.url' is required for presentation image questions.",
    );
    expect(
      refusal(q({ family: 'presentation', subtype: 'descriptive_text', validation: { type: 'integer' } })),
    ).toBe("'validation' is not allowed for presentation questions.");
    expect(norm(q({ family: 'presentation', subtype: 'descriptive_text' })).answers).toBeUndefined();
  });
});

describe('every family', () => {
  it('refuses a subtype the family does not have', () => {
    expect(refusal(q({ family: 'datetime', subtype: 'vertical' }))).toBe(
      '\'subtype\' "vertical" is not a subtype of datetime (one of both, date_only, time_only).',
    );
  });

  it('keeps an id the question already had, once, and mints the rest', () => {
    const doc = norm(
      q({
        family: 'single_choice',
        subtype: 'vertical',
        answers: {
          choices: [
            { id: '77', text: 'A' },
            { id: '77', text: 'B' },
            { id: '99', text: 'C' },
          ],
        },
      }),
      ['77'],
    );
    const ids = doc.answers?.choices?.map((c) => c.id) ?? [];
    expect(ids[0]).toBe('77');
    expect(ids[1]).not.toBe('77');
    expect(ids[2]).not.toBe('99');
  });

  it('fills required and validation messages with their defaults', () => {
    const doc = norm(
      q({ family: 'open_ended', subtype: 'single', required: {}, validation: { type: 'email' } }),
    );
    expect(doc.required).toEqual({ text: 'This question requires an answer.', type: 'all', amount: '0' });
    expect(doc.validation).toEqual({
      type: 'email',
      text: 'Please enter a valid email address.',
      min: null,
      max: null,
    });
  });
});
