// The rules of a question the schema language cannot state: which subtypes a family has, which
// `answers` keys each family/subtype takes, display options per type, defaults, and the minting
// of answer ids. Turns a validated QuestionInput into the StoredQuestion kept in the database.
import { ApiError } from '../../platform/errors.js';
import type { QuestionTypeFlag } from '../../platform/plans.js';
import { displayLogicShape } from './display-logic.js';
import { checkLogicShape } from './logic.js';
import {
  type Answers,
  type AnswersInput,
  type Choice,
  type ChoiceInput,
  type Col,
  type ColInput,
  DEMOGRAPHIC_TYPES,
  EMOJI_SUBTYPES,
  FAMILIES,
  type Family,
  type Other,
  type QuestionInput,
  type Row,
  type RowInput,
  type StoredQuestion,
  SUBTYPES,
} from './question-schema.js';

const bad = (detail: string) => new ApiError(1002, detail);

export const REQUIRED_TEXT = 'This question requires an answer.';
const VALIDATION_TEXT: Record<string, string> = {
  any: 'The comment you entered is in an invalid format.',
  integer: 'Please enter a whole number.',
  decimal: 'Please enter a number.',
  date_us: 'Please enter a valid date.',
  date_intl: 'Please enter a valid date.',
  regex: 'The comment you entered is in an invalid format.',
  email: 'Please enter a valid email address.',
  text_length: 'The comment you entered is in an invalid format.',
};

const US_LABELS = [
  'Name:',
  'Company:',
  'Address:',
  'Address 2:',
  'City/Town:',
  'State:',
  'ZIP:',
  'Country:',
  'Email Address:',
  'Phone Number:',
];
const INTL_LABELS = [
  'Name:',
  'Company:',
  'Address 1:',
  'Address 2:',
  'City/Town:',
  'State/Province:',
  'ZIP/Postal Code:',
  'Country:',
  'Email Address:',
  'Phone Number:',
];

/** The users/me question_types flag a question needs, or null when every plan has it. */
export function questionTypeFlag(q: {
  family: string;
  subtype: string;
  display_options?: { display_type?: string | null };
}): QuestionTypeFlag | null {
  const display = q.display_options?.display_type ?? null;
  if (q.family === 'open_ended') {
    if (display === 'file_upload') return 'file_upload_question_type';
    if (display === 'slider') return 'slider_question_type';
    if (q.subtype === 'essay') return 'comment_box_question_type';
    if (q.subtype === 'multi') return 'textbox_multiple_question_type';
    return null;
  }
  if (q.family === 'matrix') {
    if (q.subtype === 'ranking') return 'ranking_question_type';
    if (q.subtype === 'rating')
      return display === 'emoji' ? 'star_rating_question_type' : 'rating_question_type';
    return 'matrix_question_type';
  }
  return null;
}

/** Upper bound of the ids normalising this input can take (question id included). */
export function idsNeeded(q: { answers?: AnswersInput }): number {
  const a = q.answers;
  if (!a) return 12; // the question itself, plus generated demographic rows
  let n = 1 + (a.choices?.length ?? 0) + 2 * (a.rows?.length ?? 0) + (a.other ? 1 : 0) + 10;
  for (const c of a.cols ?? []) n += 1 + (c.choices?.length ?? 0);
  return n;
}

type OtherIn = NonNullable<AnswersInput['other']>;
type ChoiceIn = ChoiceInput;
type RowIn = RowInput;
type ColIn = ColInput;

interface Minting {
  next: () => string;
  /** Answer ids of the question being replaced: a client may keep them. */
  keep: ReadonlySet<string>;
  used: Set<string>;
}

function idFor(given: string | undefined, m: Minting): string {
  if (given !== undefined && m.keep.has(given) && !m.used.has(given)) {
    m.used.add(given);
    return given;
  }
  return m.next();
}

function ordered<T extends { position?: number }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, key: item.position ?? i + 1, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map((x) => x.item);
}

function choice(c: ChoiceIn, i: number, m: Minting): Choice {
  const out: Choice = { id: idFor(c.id, m), position: i + 1, text: c.text ?? '', visible: c.visible ?? true };
  if (c.weight !== undefined) out.weight = c.weight;
  if (c.is_na !== undefined) out.is_na = c.is_na;
  if (c.description !== undefined) out.description = c.description;
  if (c.quiz_options !== undefined) out.quiz_options = c.quiz_options;
  if (c.image !== undefined) out.image = c.image;
  if (c.logic !== undefined) out.logic = c.logic;
  return out;
}

function row(r: RowIn, i: number, m: Minting): Row {
  const out: Row = { id: idFor(r.id, m), position: i + 1, text: r.text ?? '', visible: r.visible ?? true };
  if (r.type !== undefined) out.type = r.type;
  if (r.required !== undefined) out.required = r.required;
  return out;
}

function col(c: ColIn, i: number, m: Minting): Col {
  return {
    ...row({ ...c, choices: undefined } as RowIn, i, m),
    choices: ordered(c.choices ?? []).map((x, j) => choice(x, j, m)),
  };
}

function other(o: OtherIn, family: Family, m: Minting): Other {
  const x = Array.isArray(o) ? o[0] : o;
  const isChoice = family === 'single_choice' || family === 'multiple_choice';
  return {
    id: idFor(x.id, m),
    position: 0,
    text: x.text ?? 'Other (please specify)',
    visible: x.visible ?? true,
    is_answer_choice: x.is_answer_choice ?? isChoice,
    apply_all_rows: x.apply_all_rows ?? false,
    num_chars: x.num_chars ?? 50,
    num_lines: x.num_lines ?? 1,
    error_text: x.error_text ?? 'Please enter a comment.',
  };
}

type Key = 'choices' | 'rows' | 'cols' | 'other';

function allowOnly(a: AnswersInput | undefined, allowed: Key[], what: string): void {
  if (!a) return;
  for (const key of ['choices', 'rows', 'cols', 'other'] as Key[])
    if (a[key] !== undefined && !allowed.includes(key))
      throw bad(
        allowed.length === 0
          ? `'answers' is not allowed for ${what} questions.`
          : `'answers.${key}' is not allowed for ${what} questions (allowed: ${allowed.join(', ')}).`,
      );
}

function need(a: AnswersInput | undefined, key: 'choices' | 'rows' | 'cols', what: string): void {
  if (!a?.[key] || a[key]!.length === 0)
    throw bad(`'answers.${key}' must hold at least one item for ${what} questions.`);
}

function strBound(v: number | string | null | undefined): string | null {
  return v === undefined || v === null ? null : String(v);
}

const choicesOf = (items: readonly ChoiceIn[], m: Minting) => ordered(items).map((c, i) => choice(c, i, m));
const rowsOf = (items: readonly RowIn[], m: Minting) => ordered(items).map((r, i) => row(r, i, m));

/** What a family's normaliser is given: the body, its display type, its name in errors, its ids. */
interface FamilyInput {
  q: QuestionInput;
  a: AnswersInput | undefined;
  display: string | null;
  what: string;
  m: Minting;
}

/** Checks the answers a family takes and needs, and stores them with their ids (undefined: none). */
type FamilyRule = (x: FamilyInput) => Answers | undefined;

const choiceAnswers: FamilyRule = ({ q, a, display, what, m }) => {
  allowOnly(a, ['choices', 'other'], what);
  need(a, 'choices', what);
  if (display === 'image_choice')
    a!.choices!.forEach((c, i) => {
      if (!c.image?.url)
        throw bad(`'answers.choices.${i}.image.url' is required for image choice questions.`);
    });
  const answers: Answers = { choices: choicesOf(a!.choices!, m) };
  if (a!.other) answers.other = other(a!.other, q.family, m);
  return answers;
};

/** Rows answered in the same columns (matrix single, multi and rating). */
const gridAnswers: FamilyRule = ({ q, a, what, m }) => {
  allowOnly(a, ['rows', 'choices', 'other'], what);
  need(a, 'rows', what);
  need(a, 'choices', what);
  if (q.subtype === 'rating')
    a!.choices!.forEach((c, i) => {
      if (c.weight === undefined)
        throw bad(`'answers.choices.${i}.weight' is required for matrix rating questions.`);
    });
  return { rows: rowsOf(a!.rows!, m), choices: choicesOf(a!.choices!, m) };
};

/** A matrix's answers by subtype (its "other" comment box is added by `matrixAnswers`). */
const MATRIX_SUBTYPES: Record<string, FamilyRule> = {
  menu: ({ a, what, m }) => {
    allowOnly(a, ['rows', 'cols', 'other'], what);
    need(a, 'rows', what);
    need(a, 'cols', what);
    a!.cols!.forEach((c, i) => {
      if (!c.choices || c.choices.length === 0)
        throw bad(`'answers.cols.${i}.choices' must hold at least one item for matrix menu questions.`);
    });
    return { rows: rowsOf(a!.rows!, m), cols: ordered(a!.cols!).map((c, i) => col(c, i, m)) };
  },
  ranking: ({ a, what, m }) => {
    allowOnly(a, ['rows', 'choices', 'other'], what);
    need(a, 'rows', what);
    const rows = rowsOf(a!.rows!, m);
    // The ranks 1..n, weighted 1..n, unless the client gives them (e.g. a copied question).
    const ranks =
      a!.choices && a!.choices.length > 0
        ? choicesOf(a!.choices, m)
        : rows.map((_, i) => choice({ text: String(i + 1), weight: i + 1 }, i, m));
    return { rows, choices: ranks };
  },
  single: gridAnswers,
  multi: gridAnswers,
  rating: gridAnswers,
};

const matrixAnswers: FamilyRule = (x) => {
  const answers = MATRIX_SUBTYPES[x.q.subtype](x)!;
  if (x.a!.other) answers.other = other(x.a!.other, 'matrix', x.m);
  return answers;
};

/** Answers that are only labelled rows (multiple textboxes, numerical, date/time). */
const rowAnswers: FamilyRule = ({ a, what, m }) => {
  allowOnly(a, ['rows'], what);
  need(a, 'rows', what);
  return { rows: rowsOf(a!.rows!, m) };
};

const noAnswers: FamilyRule = ({ a, what }) => {
  allowOnly(a, [], what);
  return undefined;
};

const FAMILY_RULES: Record<Family, FamilyRule> = {
  single_choice: choiceAnswers,
  multiple_choice: choiceAnswers,
  matrix: matrixAnswers,
  open_ended: (x) => (x.q.subtype === 'multi' || x.q.subtype === 'numerical' ? rowAnswers(x) : noAnswers(x)),
  demographic: ({ q, a, what, m }) => {
    allowOnly(a, ['rows'], what);
    const labels = q.subtype === 'us' ? US_LABELS : INTL_LABELS;
    const given = a?.rows ?? DEMOGRAPHIC_TYPES.map((type) => ({ type }) as RowIn);
    const seen = new Set<string>();
    given.forEach((r, i) => {
      if (!r.type)
        throw bad(
          `'answers.rows.${i}.type' is required for demographic questions (one of ${DEMOGRAPHIC_TYPES.join(', ')}).`,
        );
      if (seen.has(r.type)) throw bad(`'answers.rows.${i}.type' ${r.type} appears twice.`);
      seen.add(r.type);
    });
    // Every demographic question has all ten rows; those not given are hidden.
    const all = [
      ...given,
      ...DEMOGRAPHIC_TYPES.filter((t) => !seen.has(t)).map((type) => ({ type, visible: false }) as RowIn),
    ];
    const text = (r: RowIn) => r.text ?? labels[DEMOGRAPHIC_TYPES.indexOf(r.type!)];
    return {
      rows: all.map((r, i) =>
        row({ ...r, text: text(r), required: r.required ?? false, position: undefined }, i, m),
      ),
    };
  },
  datetime: rowAnswers,
  presentation: (x) => {
    if (x.q.subtype === 'image' && !x.q.headings[0]?.image?.url)
      throw bad(`'headings.0.image.url' is required for presentation image questions.`);
    return noAnswers(x);
  },
};

/** The family and subtype must exist; A/B headings (random_assignment) split 100 percent. */
function checkType(q: QuestionInput, family: Family): void {
  if (!FAMILIES.includes(family)) throw bad(`'family' must be one of ${FAMILIES.join(', ')}.`);
  if (!SUBTYPES[family].includes(q.subtype))
    throw bad(
      `'subtype' ${JSON.stringify(q.subtype)} is not a subtype of ${family} (one of ${SUBTYPES[family].join(', ')}).`,
    );
  const assigned = q.headings.filter((h) => h.random_assignment);
  if (assigned.length > 0) {
    if (assigned.length !== q.headings.length || assigned.length < 2)
      throw bad(
        `'headings' with random_assignment need at least two headings, each with a random_assignment.`,
      );
    const total = assigned.reduce((n, h) => n + (h.random_assignment?.percent ?? 0), 0);
    if (Math.abs(total - 100) > 1e-9)
      throw bad(`'headings.random_assignment.percent' must total 100 (got ${total}).`);
  }
}

/** display_options.display_type per family. */
function checkDisplay(q: QuestionInput, family: Family, display: string | null): void {
  const displaySub = q.display_options?.display_subtype ?? null;
  if (
    display === 'image_choice' &&
    !((family === 'single_choice' || family === 'multiple_choice') && q.subtype !== 'menu')
  )
    throw bad(
      `'display_options.display_type' image_choice needs a single_choice or multiple_choice question that is not a menu.`,
    );
  if (display === 'emoji') {
    if (!(family === 'matrix' && q.subtype === 'rating'))
      throw bad(`'display_options.display_type' emoji needs a matrix rating question.`);
    if (!displaySub || !(EMOJI_SUBTYPES as readonly string[]).includes(displaySub))
      throw bad(
        `'display_options.display_subtype' must be one of ${EMOJI_SUBTYPES.join(', ')} for emoji questions.`,
      );
  }
  if (
    (display === 'slider' || display === 'file_upload') &&
    !(family === 'open_ended' && q.subtype === 'single')
  )
    throw bad(`'display_options.display_type' ${display} needs an open_ended single question.`);
}

/**
 * Skip logic: on the choices of single_choice questions only (their targets are checked against
 * the survey's pages by the caller: logic.ts checkTargets).
 */
function checkLogic(a: AnswersInput | undefined, family: Family): void {
  const ruled = [...(a?.choices ?? []), ...(a?.cols ?? []).flatMap((c) => c.choices ?? [])];
  ruled.forEach((c, i) => {
    if (!c.logic) return;
    if (family !== 'single_choice')
      throw bad(`'answers.choices[${i}].logic' is only allowed on single_choice questions.`);
    checkLogicShape(c.logic, `answers.choices[${i}].logic`);
  });
}

function requiredOf(q: QuestionInput, family: Family, what: string): StoredQuestion['required'] {
  if (!q.required) return null;
  const needsType = family === 'matrix' && ['single', 'ranking', 'menu'].includes(q.subtype);
  if (needsType && !q.required.type) throw bad(`'required.type' is required for ${what} questions.`);
  const type = q.required.type ?? 'all';
  const amount = q.required.amount ?? '0';
  if (type === 'range' && !amount.includes(','))
    throw bad(`'required.amount' must be "min,max" when 'required.type' is range.`);
  return { text: q.required.text ?? REQUIRED_TEXT, type, amount };
}

/** The validation kept (a slider is always an integer between its bounds, 0 to 100 unless given). */
function validationOf(
  q: QuestionInput,
  family: Family,
  display: string | null,
): StoredQuestion['validation'] {
  const v = q.validation ?? (display === 'slider' ? { type: 'integer' as const, min: 0, max: 100 } : null);
  if (!v) return null;
  if (
    (v.sum !== undefined || v.sum_text !== undefined) &&
    !(family === 'open_ended' && q.subtype === 'numerical')
  )
    throw bad(`'validation.sum' is only allowed for open_ended numerical questions.`);
  if (!['open_ended', 'datetime', 'single_choice', 'multiple_choice', 'matrix'].includes(family))
    throw bad(`'validation' is not allowed for ${family} questions.`);
  if (v.type === 'regex' && typeof v.max === 'string') {
    try {
      new RegExp(v.max);
    } catch {
      throw bad(`'validation.max' is not a valid regular expression.`);
    }
  }
  const validation: NonNullable<StoredQuestion['validation']> = {
    type: v.type,
    text: v.text ?? VALIDATION_TEXT[v.type],
    min: strBound(v.min),
    max: strBound(v.max),
  };
  if (v.sum !== undefined) validation.sum = v.sum;
  if (v.sum_text !== undefined) validation.sum_text = v.sum_text;
  return validation;
}

/**
 * Checks a question body against its family's rules and returns the stored design with fresh ids
 * on every choice, row, column and "other" (ids in `keep` that the client sent back are kept).
 */
export function normalizeQuestion(
  q: QuestionInput,
  next: () => string,
  keep: ReadonlySet<string> = new Set(),
): StoredQuestion {
  const family = q.family as Family;
  checkType(q, family);
  const what = `${family} ${q.subtype}`;
  const display = q.display_options?.display_type ?? null;
  checkDisplay(q, family, display);
  const a = q.answers;
  const answers = FAMILY_RULES[family]({ q, a, display, what, m: { next, keep, used: new Set() } });
  checkLogic(a, family);
  const required = requiredOf(q, family, what);
  const validation = validationOf(q, family, display);
  if (q.forced_ranking && !(family === 'matrix' && (q.subtype === 'rating' || q.subtype === 'single')))
    throw bad(`'forced_ranking' is only allowed for matrix rating or single questions.`);
  if (q.sorting && !['single_choice', 'multiple_choice', 'matrix'].includes(family))
    throw bad(`'sorting' is only allowed for choice and matrix questions.`);

  const out: StoredQuestion = {
    visible: true,
    headings: q.headings,
    sorting: q.sorting ? { type: q.sorting.type, ignore_last: q.sorting.ignore_last ?? false } : null,
    required,
    validation,
    forced_ranking: q.forced_ranking ?? false,
    nickname: q.nickname ?? null,
    layout: q.layout ?? null,
  };
  if (answers) out.answers = answers;
  if (q.display_options) out.display_options = q.display_options;
  if (q.quiz_options) out.quiz_options = q.quiz_options;
  if (q.display_logic) out.display_logic = displayLogicShape(q.display_logic);
  return out;
}

/** Every id inside a stored question's answers (kept when the question is replaced). */
export function answerIds(doc: StoredQuestion): Set<string> {
  const ids = new Set<string>();
  const a = doc.answers;
  if (!a) return ids;
  for (const c of a.choices ?? []) ids.add(c.id);
  for (const r of a.rows ?? []) ids.add(r.id);
  for (const c of a.cols ?? []) {
    ids.add(c.id);
    for (const x of c.choices) ids.add(x.id);
  }
  if (a.other) ids.add(a.other.id);
  return ids;
}

/** The stored design as a body again (for PATCH merges and copies). */
export function storedAsInput(family: string, subtype: string, doc: StoredQuestion): QuestionInput {
  const input: QuestionInput = {
    headings: doc.headings,
    family: family as Family,
    subtype,
    sorting: doc.sorting,
    required: doc.required as QuestionInput['required'],
    validation: doc.validation as QuestionInput['validation'],
    forced_ranking: doc.forced_ranking,
    nickname: doc.nickname,
    layout: doc.layout,
  };
  if (doc.answers) input.answers = doc.answers as AnswersInput;
  if (doc.display_options) input.display_options = doc.display_options;
  if (doc.quiz_options) input.quiz_options = doc.quiz_options;
  if (doc.display_logic) input.display_logic = doc.display_logic;
  return input;
}
