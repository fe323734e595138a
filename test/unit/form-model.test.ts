// The builder's form model without a server: a question's kind, its draft (the fields of its form)
// and the question body a draft becomes, round trips per kind and the drafts it refuses.
import { describe, expect, it } from 'vitest';
import { normalizeQuestion } from '../../src/domain/surveys/question-rules.js';
import type { StoredQuestion } from '../../src/domain/surveys/question-schema.js';
import { ApiError } from '../../src/platform/errors.js';
import {
  type Draft,
  draftFromForm,
  draftOf,
  inputOf,
  kindOf,
  newDraft,
  QUESTION_KINDS,
} from '../../src/web/design/question-form.js';

let next = 1;
const mint = () => String(next++);

/** What the builder stores for a draft (the domain's normalising, as PUT does). */
function store(d: Draft, keep: Set<string> = new Set()) {
  const input = inputOf(d, true);
  return { family: input.family, subtype: input.subtype, doc: normalizeQuestion(input, mint, keep) };
}
function answerIdsOf(doc: StoredQuestion): Set<string> {
  const a = doc.answers;
  return new Set([
    ...(a?.choices ?? []).map((c) => c.id),
    ...(a?.rows ?? []).map((r) => r.id),
    ...(a?.cols ?? []).flatMap((c) => [c.id, ...c.choices.map((x) => x.id)]),
    ...(a?.other ? [a.other.id] : []),
  ]);
}
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(1002);
    return (e as ApiError).message;
  }
  throw new Error('the draft was accepted');
}
const IMAGES = 'https://img.example/a.png Apple\nhttps://img.example/b.png Pear';

/**
 * The question without the ids the form does not carry: a ranking's ranks and a menu matrix's menu
 * choices are re-made on each save (the form edits a menu's choices as lines of text).
 */
function withoutRemadeIds(q: ReturnType<typeof store>) {
  const a = q.doc.answers;
  const strip = <T extends { id: string }>(x: T) => ({ ...x, id: '' });
  if (q.subtype === 'ranking')
    return { ...q, doc: { ...q.doc, answers: { ...a, choices: a?.choices?.map(strip) } } };
  if (q.subtype === 'menu' && q.family === 'matrix')
    return {
      ...q,
      doc: {
        ...q.doc,
        answers: { ...a, cols: a?.cols?.map((c) => ({ ...c, choices: c.choices.map(strip) })) },
      },
    };
  return q;
}

describe('every kind', () => {
  it.each(QUESTION_KINDS.map((k) => [k.value]))(
    '%s: a new question is stored as its kind, and saving its form unchanged keeps it as it was',
    (kind) => {
      const first = store(
        newDraft(
          kind,
          'How was it?',
          kind.startsWith('image_') ? IMAGES : '',
          kind === 'image' ? 'https://img.example/i.png' : '',
        ),
      );
      expect(kindOf(first).value).toBe(kind);
      const again = store(draftOf(first), answerIdsOf(first.doc));
      expect(withoutRemadeIds(again)).toEqual(withoutRemadeIds(first));
    },
  );
});

describe('new questions', () => {
  it('start with the answers their kind needs', () => {
    const choice = inputOf(newDraft('single_choice', 'Pick'), false);
    expect(choice).toMatchObject({
      family: 'single_choice',
      subtype: 'vertical',
      headings: [{ heading: 'Pick' }],
    });
    expect(choice.answers?.choices?.map((c) => c.text)).toEqual(['Choice 1', 'Choice 2']);
    const nps = inputOf(newDraft('nps', 'Recommend?'), false);
    expect(nps.answers?.choices?.map((c) => c.weight)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(nps.display_options).toMatchObject({
      left_label: 'Not at all likely',
      right_label: 'Extremely likely',
    });
    const contact = inputOf(newDraft('contact_us', 'Who?'), false);
    expect(contact.answers?.rows?.filter((r) => r.visible).map((r) => r.type)).toEqual(['name', 'email']);
  });

  it('read an image choice line as its image URL, then its label', () => {
    const input = inputOf(newDraft('image_multi', 'Fruit', IMAGES), false);
    expect(input.answers?.choices).toEqual([
      { text: 'Apple', image: { url: 'https://img.example/a.png' } },
      { text: 'Pear', image: { url: 'https://img.example/b.png' } },
    ]);
    expect(input.display_options).toEqual({ display_type: 'image_choice' });
  });

  it('refuse an unknown kind and an image choice without its images', () => {
    expect(refusal(() => newDraft('poll', 'Q'))).toBe('Choose the kind of question to add.');
    expect(refusal(() => newDraft('image_single', 'Q'))).toMatch(
      /^An image choice question needs its images/,
    );
  });
});

describe('posted forms', () => {
  const posted = {
    heading: '  Favourite?  ',
    layout: 'horiz',
    choice_id: ['11', '12', '13'],
    choice_text: ['Red', ' Green ', 'Blue'],
    choice_order: ['2', '1', '3'],
    choice_remove: '13',
    add_choices: 'Yellow\n\n  Purple  \n',
    required: 'yes',
    other: 'yes',
  };

  it('reorder by the numbers typed, drop removed choices, add pasted lines and keep ids', () => {
    const input = inputOf(draftFromForm(posted, 'single_choice'), false);
    expect(input.headings).toEqual([{ heading: 'Favourite?' }]);
    expect(input.subtype).toBe('horiz');
    expect(input.answers?.choices).toEqual([
      { id: '12', text: 'Green' },
      { id: '11', text: 'Red' },
      { text: 'Yellow' },
      { text: 'Purple' },
    ]);
    expect(input.answers?.other).toEqual({ text: 'Other (please specify)' });
    expect(input.required).toEqual({ type: 'all' });
  });

  it("add an N/A choice with its label, and weigh a rating scale's added columns by their place", () => {
    const na = inputOf(
      draftFromForm({ ...posted, na: 'yes', na_text: 'Does not apply' }, 'single_choice'),
      false,
    );
    expect(na.answers?.choices?.at(-1)).toEqual({ text: 'Does not apply', is_na: true });
    const form = {
      heading: 'Q',
      row_id: ['1'],
      row_text: ['Service'],
      choice_id: ['2'],
      choice_text: ['Bad'],
      choice_weight: ['-1'],
    };
    const rating = inputOf(draftFromForm({ ...form, add_choices: 'Good\nGreat' }, 'matrix_rating'), false);
    expect(rating.answers?.choices?.map((c) => [c.text, c.weight])).toEqual([
      ['Bad', -1],
      ['Good', 2],
      ['Great', 3],
    ]);
  });

  it('clear what was unchecked, and take a layout only where the kind has layouts', () => {
    const input = inputOf(draftFromForm({ heading: 'Q', layout: 'horiz' }, 'dropdown'), false);
    expect(input.subtype).toBe('menu');
    expect(input).toMatchObject({ required: null, validation: null, sorting: null });
    expect(input.answers?.other).toBeUndefined();
  });

  it('keep quiz scores only on a quiz', () => {
    const form = { heading: 'Q', choice_id: ['1'], choice_text: ['A'], choice_score: ['5'] };
    expect(inputOf(draftFromForm(form, 'single_choice'), true).answers?.choices?.[0].quiz_options).toEqual({
      score: 5,
    });
    expect(
      inputOf(draftFromForm(form, 'single_choice'), false).answers?.choices?.[0].quiz_options,
    ).toBeUndefined();
  });

  it('give a date question one unlabelled box and a slider its range as numbers', () => {
    expect(inputOf(draftFromForm({ heading: 'When?' }, 'date'), false).answers).toEqual({
      rows: [{ text: '' }],
    });
    const slider = inputOf(
      draftFromForm({ heading: 'How much?', validation: 'integer', min: '1', max: '10' }, 'slider'),
      false,
    );
    expect(slider.validation).toEqual({ type: 'integer', min: 1, max: 10 });
    expect(slider.display_options).toEqual({ display_type: 'slider' });
  });
});

describe('bad drafts', () => {
  it('need question text, except on a presentation', () => {
    expect(refusal(() => inputOf(draftFromForm({ heading: '  ' }, 'single_choice'), false))).toBe(
      'Write the question text.',
    );
    expect(inputOf(draftFromForm({ heading: '' }, 'text'), false).family).toBe('presentation');
  });

  it('need numbers where numbers go', () => {
    const weight = {
      heading: 'Q',
      choice_id: ['1'],
      choice_text: ['Good'],
      choice_weight: ['lots'],
      row_id: ['2'],
      row_text: ['r'],
    };
    expect(refusal(() => inputOf(draftFromForm(weight, 'matrix_rating'), false))).toBe(
      'The weight of "Good" must be a number.',
    );
    expect(
      refusal(() =>
        inputOf(draftFromForm({ heading: 'Q', validation: 'integer', min: 'one' }, 'single_textbox'), false),
      ),
    ).toBe('A limit must be a number.');
  });

  it('refuse a star rating outside 2 to 10 stars and contact details with no field', () => {
    expect(refusal(() => inputOf(draftFromForm({ heading: 'Q', stars: '12' }, 'star_rating'), false))).toBe(
      'A star rating has 2 to 10 stars.',
    );
    expect(refusal(() => inputOf(draftFromForm({ heading: 'Q' }, 'contact_intl'), false))).toBe(
      'Choose at least one field to ask for.',
    );
  });

  it("refuse what the API schema refuses, naming the field in the form's words", () => {
    const form = { heading: 'Q', choice_id: ['1'], choice_text: ['A'], choice_image: ['x'.repeat(20_001)] };
    expect(refusal(() => inputOf(draftFromForm(form, 'image_single'), false))).toMatch(
      /^The image URL of choice 1 must not have more than/,
    );
    const rows = { heading: 'Q', row_id: ['', ''], row_text: ['A', 'x'.repeat(20_001)] };
    expect(refusal(() => inputOf(draftFromForm(rows, 'matrix_single'), false))).toMatch(
      /^Row 2 must not have more than/,
    );
  });
});
