// The builder's question forms. A question is edited as a *draft*: the fields of its form. A draft
// comes from the stored question (to show the form) or from a posted form (to save it, or to show
// it again with an error), and becomes the same body a client would send to PUT
// /v3/surveys/{id}/pages/{id}/questions/{id}; the domain then checks it as it checks the API's.
// Answer ids travel in hidden fields, so a renamed choice keeps its id (and its answers).
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';
import {
  type ChoiceInput,
  DEMOGRAPHIC_TYPES,
  QuestionInput,
  type RowInput,
  type SORTING_TYPES,
  type StoredQuestion,
} from '../../domain/surveys/question-schema.js';
import { ApiError } from '../../platform/errors.js';
import { type Html, html, raw } from '../html.js';
import { type PageChoice, ruleOf, ruleSelect, ruleValue } from './logic-ui.js';

/** What the form needs of a stored question. */
type QuestionRow = { family: string; subtype: string; doc: StoredQuestion };

type Shape =
  | 'choices'
  | 'matrix'
  | 'rating'
  | 'stars'
  | 'nps'
  | 'ranking'
  | 'menu'
  | 'text'
  | 'rows'
  | 'demographic'
  | 'presentation';

export interface QuestionKind {
  value: string;
  label: string;
  family: string;
  subtype: string;
  display?: 'image_choice' | 'emoji' | 'slider' | 'file_upload';
  shape: Shape;
}

const k = (
  value: string,
  label: string,
  family: string,
  subtype: string,
  shape: Shape,
  display?: QuestionKind['display'],
): QuestionKind => ({ value, label, family, subtype, shape, display });

/** Every question type the API takes, by the name a survey author knows it. */
export const QUESTION_KINDS: readonly QuestionKind[] = [
  k('single_choice', 'Single choice (one answer)', 'single_choice', 'vertical', 'choices'),
  k('dropdown', 'Dropdown', 'single_choice', 'menu', 'choices'),
  k('multiple_choice', 'Checkboxes (several answers)', 'multiple_choice', 'vertical', 'choices'),
  k('image_single', 'Image choice (one answer)', 'single_choice', 'vertical', 'choices', 'image_choice'),
  k(
    'image_multi',
    'Image choice (several answers)',
    'multiple_choice',
    'vertical',
    'choices',
    'image_choice',
  ),
  k('matrix_single', 'Matrix (one answer per row)', 'matrix', 'single', 'matrix'),
  k('matrix_multi', 'Matrix (several answers per row)', 'matrix', 'multi', 'matrix'),
  k('matrix_rating', 'Rating scale (weighted matrix)', 'matrix', 'rating', 'rating'),
  k('matrix_menu', 'Matrix of dropdown menus', 'matrix', 'menu', 'menu'),
  k('ranking', 'Ranking', 'matrix', 'ranking', 'ranking'),
  k('star_rating', 'Star rating', 'matrix', 'rating', 'stars', 'emoji'),
  k('nps', 'Net Promoter Score (0 to 10)', 'matrix', 'rating', 'nps'),
  k('single_textbox', 'Single textbox', 'open_ended', 'single', 'text'),
  k('comment_box', 'Comment box (long answer)', 'open_ended', 'essay', 'text'),
  k('multiple_textboxes', 'Multiple textboxes', 'open_ended', 'multi', 'rows'),
  k('numerical', 'Numerical textboxes', 'open_ended', 'numerical', 'rows'),
  k('slider', 'Slider', 'open_ended', 'single', 'text', 'slider'),
  k('file_upload', 'File upload', 'open_ended', 'single', 'text', 'file_upload'),
  k('date_time', 'Date and time', 'datetime', 'both', 'rows'),
  k('date', 'Date', 'datetime', 'date_only', 'rows'),
  k('time', 'Time', 'datetime', 'time_only', 'rows'),
  k('contact_intl', 'Contact information', 'demographic', 'international', 'demographic'),
  k('contact_us', 'Contact information (US address)', 'demographic', 'us', 'demographic'),
  k('text', 'Text (no answer)', 'presentation', 'descriptive_text', 'presentation'),
  k('image', 'Image (no answer)', 'presentation', 'image', 'presentation'),
];

export function findKind(value: string | undefined): QuestionKind | undefined {
  return QUESTION_KINDS.find((x) => x.value === value);
}

const isNps = (q: QuestionRow) => {
  const c = q.doc.answers?.choices ?? [];
  return c.length === 11 && c.every((x, i) => x.weight === i);
};

/** The kind a stored question is (API-made questions included; layouts are not kinds). */
export function kindOf(q: QuestionRow): QuestionKind {
  const display = q.doc.display_options?.display_type ?? undefined;
  if (q.family === 'matrix' && q.subtype === 'rating')
    return findKind(display === 'emoji' ? 'star_rating' : isNps(q) ? 'nps' : 'matrix_rating')!;
  const layout = q.family in LAYOUTS && q.subtype !== 'menu';
  const same = (x: QuestionKind) => (layout ? x.subtype !== 'menu' : x.subtype === q.subtype);
  return (
    QUESTION_KINDS.find((x) => x.family === q.family && same(x) && x.display === display) ??
    QUESTION_KINDS.find((x) => x.family === q.family && x.subtype === q.subtype) ??
    QUESTION_KINDS[0]
  );
}

/** Layouts a choice question can be shown in (its subtype). */
const LAYOUTS: Record<string, [string, string][]> = {
  single_choice: [
    ['vertical', 'One column'],
    ['horiz', 'In a row'],
    ['vertical_two_col', 'Two columns'],
    ['vertical_three_col', 'Three columns'],
  ],
  multiple_choice: [
    ['vertical', 'One column'],
    ['horiz', 'In a row'],
    ['vertical_two_col', 'Two columns'],
    ['vertical_three_col', 'Three columns'],
  ],
};

// ---- the draft ------------------------------------------------------------------------------

interface Item {
  id: string;
  text: string;
  order: string;
  weight: string;
  image: string;
  score: string;
  /** the choice's skip-logic rule as its select's value (logic-ui.ts ruleValue) */
  logic: string;
  remove: boolean;
}

interface Column {
  id: string;
  text: string;
  order: string;
  choices: string;
  remove: boolean;
}

export interface Draft {
  kind: string;
  layout: string;
  heading: string;
  description: string;
  image: string;
  choices: Item[];
  addChoices: string;
  rows: Item[];
  addRows: string;
  cols: Column[];
  addCols: string;
  other: boolean;
  otherText: string;
  na: boolean;
  naText: string;
  naId: string;
  naLogic: string;
  required: boolean;
  requiredText: string;
  validation: string;
  min: string;
  max: string;
  validationText: string;
  sorting: string;
  leftLabel: string;
  middleLabel: string;
  rightLabel: string;
  stars: string;
  demoShow: string[];
  demoRequired: string[];
}

const item = (x: Partial<Item> & { text: string }): Item => ({
  id: '',
  order: '',
  weight: '',
  image: '',
  score: '',
  logic: '',
  remove: false,
  ...x,
});

/** A new question's draft: the kind's starting answers, so a heading alone makes a valid question. */
export function newDraft(kindValue: string, heading: string, choices = '', image = ''): Draft {
  const kind = findKind(kindValue);
  if (!kind) throw new ApiError(1002, 'Choose the kind of question to add.');
  const d = emptyDraft(kind.value);
  d.heading = heading;
  d.image = image.trim();
  if (kind.display === 'image_choice' && !choices.trim())
    throw new ApiError(
      1002,
      'An image choice question needs its images: list them under "Choices", one per line (the image URL, a space, then its label).',
    );
  const texts = (list: string[]) => list.map((text) => item({ text }));
  switch (kind.shape) {
    case 'choices':
      d.addChoices = choices.trim() ? choices : 'Choice 1\nChoice 2';
      break;
    case 'matrix':
    case 'menu':
      d.addRows = 'Row 1\nRow 2';
      if (kind.shape === 'menu') d.addCols = 'Column 1';
      else d.addChoices = choices.trim() ? choices : 'Column 1\nColumn 2';
      break;
    case 'rating':
      d.addRows = 'Row 1';
      d.choices = texts(['Poor', 'Fair', 'Good', 'Very good', 'Excellent']).map((c, i) => ({
        ...c,
        weight: String(i + 1),
      }));
      break;
    case 'ranking':
      d.addRows = 'Item 1\nItem 2\nItem 3';
      break;
    case 'nps':
      d.leftLabel = 'Not at all likely';
      d.rightLabel = 'Extremely likely';
      break;
    case 'rows':
      if (kind.family !== 'datetime') d.addRows = 'Label 1\nLabel 2';
      break;
    case 'demographic':
      d.demoShow = ['name', 'email'];
      break;
  }
  if (kind.display === 'slider') {
    d.validation = 'integer';
    d.min = '0';
    d.max = '100';
  }
  return d;
}

function emptyDraft(kind: string): Draft {
  return {
    kind,
    layout: '',
    heading: '',
    description: '',
    image: '',
    choices: [],
    addChoices: '',
    rows: [],
    addRows: '',
    cols: [],
    addCols: '',
    other: false,
    otherText: '',
    na: false,
    naText: '',
    naId: '',
    naLogic: '',
    required: false,
    requiredText: '',
    validation: '',
    min: '',
    max: '',
    validationText: '',
    sorting: '',
    leftLabel: '',
    middleLabel: '',
    rightLabel: '',
    stars: '5',
    demoShow: [],
    demoRequired: [],
  };
}

/** The draft of a stored question (what its edit form shows). */
export function draftOf(q: QuestionRow): Draft {
  const kind = kindOf(q);
  const d = emptyDraft(kind.value);
  const doc = q.doc;
  const h = doc.headings[0];
  d.layout = q.subtype;
  d.heading = h?.heading ?? '';
  d.description = h?.description ?? '';
  d.image = h?.image?.url ?? '';
  const a = doc.answers;
  for (const c of a?.choices ?? []) {
    if (c.is_na) {
      d.na = true;
      d.naText = c.text;
      d.naId = c.id;
      d.naLogic = ruleValue(c.logic);
      continue;
    }
    d.choices.push(
      item({
        id: c.id,
        text: c.text,
        order: String(c.position),
        weight: c.weight === undefined ? '' : String(c.weight),
        image: c.image?.url ?? '',
        score: c.quiz_options ? String(c.quiz_options.score) : '',
        logic: ruleValue(c.logic),
      }),
    );
  }
  // A demographic row is named by its type (its label is the domain's default for that type).
  for (const r of a?.rows ?? [])
    d.rows.push(
      item({
        id: r.id,
        text: kind.shape === 'demographic' ? (r.type ?? '') : r.text,
        order: String(r.position),
      }),
    );
  for (const c of a?.cols ?? [])
    d.cols.push({
      id: c.id,
      text: c.text,
      order: String(c.position),
      choices: c.choices.map((x) => x.text).join('\n'),
      remove: false,
    });
  if (a?.other) {
    d.other = true;
    d.otherText = a.other.text;
  }
  if (kind.shape === 'demographic') {
    d.demoShow = (a?.rows ?? []).filter((r) => r.visible && r.type).map((r) => r.type!);
    d.demoRequired = (a?.rows ?? []).filter((r) => r.required && r.type).map((r) => r.type!);
  }
  if (doc.required) {
    d.required = true;
    d.requiredText = doc.required.text;
  }
  if (doc.validation) {
    d.validation = doc.validation.type;
    d.min = doc.validation.min ?? '';
    d.max = doc.validation.max ?? '';
    d.validationText = doc.validation.text;
  }
  d.sorting = doc.sorting?.type ?? '';
  const o = doc.display_options;
  d.leftLabel = o?.left_label ?? '';
  d.middleLabel = o?.middle_label ?? '';
  d.rightLabel = o?.right_label ?? '';
  if (kind.shape === 'stars') d.stars = String(a?.choices?.length ?? 5);
  return d;
}

// ---- the form body --------------------------------------------------------------------------

const Many = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 20_000 }),
    Type.Array(Type.String({ maxLength: 20_000 }), { maxItems: 1000 }),
  ]),
);
const One = (max = 20_000) => Type.Optional(Type.String({ maxLength: max }));

/** The fields of a question form (besides `_csrf`). */
export const QUESTION_FORM = {
  kind: One(50),
  layout: One(50),
  heading: One(),
  description: One(),
  image: One(),
  choice_id: Many,
  choice_text: Many,
  choice_order: Many,
  choice_weight: Many,
  choice_image: Many,
  choice_score: Many,
  choice_logic: Many,
  choice_remove: Many,
  add_choices: One(1_000_000),
  row_id: Many,
  row_text: Many,
  row_order: Many,
  row_remove: Many,
  add_rows: One(1_000_000),
  col_id: Many,
  col_text: Many,
  col_order: Many,
  col_choices: Many,
  col_remove: Many,
  add_cols: One(1_000_000),
  other: One(10),
  other_text: One(),
  na: One(10),
  na_text: One(),
  na_id: One(50),
  na_logic: One(40),
  required: One(10),
  required_text: One(),
  validation: One(50),
  min: One(200),
  max: One(200),
  validation_text: One(),
  sorting: One(50),
  left_label: One(),
  middle_label: One(),
  right_label: One(),
  stars: One(10),
  demo_show: Many,
  demo_required: Many,
};
const QuestionForm = Type.Object(QUESTION_FORM);
export type QuestionForm = Static<typeof QuestionForm>;

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** The draft a posted form describes (`kind` fixed for an edit: a question keeps its type). */
export function draftFromForm(form: QuestionForm, kind: string): Draft {
  const d = emptyDraft(kind);
  const s = (v: string | undefined) => v ?? '';
  d.layout = s(form.layout);
  d.heading = s(form.heading).trim();
  d.description = s(form.description).trim();
  d.image = s(form.image).trim();
  const removed = new Set(list(form.choice_remove));
  const ids = list(form.choice_id);
  const texts = list(form.choice_text);
  const orders = list(form.choice_order);
  const weights = list(form.choice_weight);
  const images = list(form.choice_image);
  const scores = list(form.choice_score);
  const rules = list(form.choice_logic);
  d.choices = ids.map((id, i) =>
    item({
      id,
      text: s(texts[i]).trim(),
      order: s(orders[i]).trim(),
      weight: s(weights[i]).trim(),
      image: s(images[i]).trim(),
      score: s(scores[i]).trim(),
      logic: s(rules[i]),
      remove: removed.has(id),
    }),
  );
  d.addChoices = s(form.add_choices);
  const rowsRemoved = new Set(list(form.row_remove));
  const rowTexts = list(form.row_text);
  const rowOrders = list(form.row_order);
  d.rows = list(form.row_id).map((id, i) =>
    item({ id, text: s(rowTexts[i]).trim(), order: s(rowOrders[i]).trim(), remove: rowsRemoved.has(id) }),
  );
  d.addRows = s(form.add_rows);
  const colsRemoved = new Set(list(form.col_remove));
  const colTexts = list(form.col_text);
  const colOrders = list(form.col_order);
  const colChoices = list(form.col_choices);
  d.cols = list(form.col_id).map((id, i) => ({
    id,
    text: s(colTexts[i]).trim(),
    order: s(colOrders[i]).trim(),
    choices: s(colChoices[i]),
    remove: colsRemoved.has(id),
  }));
  d.addCols = s(form.add_cols);
  d.other = form.other === 'yes';
  d.otherText = s(form.other_text).trim();
  d.na = form.na === 'yes';
  d.naText = s(form.na_text).trim();
  d.naId = s(form.na_id);
  d.naLogic = s(form.na_logic);
  d.required = form.required === 'yes';
  d.requiredText = s(form.required_text).trim();
  d.validation = s(form.validation);
  d.min = s(form.min).trim();
  d.max = s(form.max).trim();
  d.validationText = s(form.validation_text).trim();
  d.sorting = s(form.sorting);
  d.leftLabel = s(form.left_label).trim();
  d.middleLabel = s(form.middle_label).trim();
  d.rightLabel = s(form.right_label).trim();
  d.stars = s(form.stars) || '5';
  d.demoShow = list(form.demo_show);
  d.demoRequired = list(form.demo_required);
  return d;
}

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Kept items in their new order (the order numbers typed, ties by their place), then the added lines. */
function arrange<T extends { order: string; remove: boolean }>(items: T[]): T[] {
  return items
    .map((x, i) => ({ x, key: Number.parseFloat(x.order), i }))
    .filter(({ x }) => !x.remove)
    .sort(
      (a, b) =>
        (Number.isNaN(a.key) ? a.i + 1 : a.key) - (Number.isNaN(b.key) ? b.i + 1 : b.key) || a.i - b.i,
    )
    .map(({ x }) => x);
}

function number(text: string, what: string): number {
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw new ApiError(1002, `${what} must be a number.`);
  return n;
}

/** The question body a draft describes; ApiError 1002 (shown beside the form) when it cannot be one. */
export function inputOf(d: Draft, quiz: boolean): QuestionInput {
  const kind = findKind(d.kind);
  if (!kind) throw new ApiError(1002, 'Choose the kind of question.');
  if (!d.heading && kind.shape !== 'presentation') throw new ApiError(1002, 'Write the question text.');
  const subtype =
    LAYOUTS[kind.family]?.some(([v]) => v === d.layout) && kind.subtype !== 'menu' && !kind.display
      ? d.layout
      : kind.subtype;
  const heading: QuestionInput['headings'][number] = { heading: d.heading };
  if (d.description) heading.description = d.description;
  if (d.image) heading.image = { url: d.image };
  const body: QuestionInput = {
    family: kind.family as QuestionInput['family'],
    subtype,
    headings: [heading],
  };
  const choiceOf = (c: Item): ChoiceInput => {
    const out: ChoiceInput = { text: c.text };
    if (c.id) out.id = c.id;
    if (c.weight !== '') out.weight = number(c.weight, `The weight of "${c.text}"`);
    if (c.image) out.image = { url: c.image };
    if (quiz && c.score !== '') out.quiz_options = { score: number(c.score, `The score of "${c.text}"`) };
    const logic = kind.family === 'single_choice' ? ruleOf(c.logic) : null;
    if (logic) out.logic = logic;
    return out;
  };
  const added = (text: string) => lines(text).map((t) => item({ text: t }));
  // An image choice's added line is its image URL, then its label.
  const addedChoices =
    kind.display === 'image_choice'
      ? lines(d.addChoices).map((line) => {
          const [url, ...label] = line.split(/\s+/);
          return item({ image: url, text: label.join(' ') });
        })
      : added(d.addChoices);
  const choices = [...arrange(d.choices), ...addedChoices];
  const rows = [...arrange(d.rows), ...added(d.addRows)];
  const rowOf = (r: Item): RowInput => (r.id ? { id: r.id, text: r.text } : { text: r.text });
  const shape = kind.shape;
  switch (shape) {
    case 'choices': {
      const all = choices.map(choiceOf);
      const naLogic = kind.family === 'single_choice' ? ruleOf(d.naLogic) : null;
      if (d.na)
        all.push({
          ...(d.naId ? { id: d.naId } : {}),
          text: d.naText || 'N/A',
          is_na: true,
          ...(naLogic ? { logic: naLogic } : {}),
        });
      body.answers = { choices: all };
      if (d.other) body.answers.other = { text: d.otherText || 'Other (please specify)' };
      if (kind.display) body.display_options = { display_type: kind.display };
      break;
    }
    case 'matrix':
    case 'rating':
      body.answers = {
        rows: rows.map(rowOf),
        // A rating scale's new columns are weighted by their place.
        choices: choices.map((c, i) =>
          choiceOf(shape === 'rating' && c.weight === '' ? { ...c, weight: String(i + 1) } : c),
        ),
      };
      if (d.other) body.answers.other = { text: d.otherText || 'Other (please specify)' };
      break;
    case 'ranking':
      body.answers = { rows: rows.map(rowOf) };
      break;
    case 'menu': {
      const cols = [
        ...arrange(d.cols),
        ...lines(d.addCols).map((text) => ({
          id: '',
          text,
          order: '',
          choices: 'Option 1\nOption 2',
          remove: false,
        })),
      ];
      body.answers = {
        rows: rows.map(rowOf),
        cols: cols.map((c) => ({
          ...(c.id ? { id: c.id } : {}),
          text: c.text,
          choices: lines(c.choices).map((text) => ({ text })),
        })),
      };
      break;
    }
    case 'stars': {
      const n = Math.round(number(d.stars, 'The number of stars'));
      if (n < 2 || n > 10) throw new ApiError(1002, 'A star rating has 2 to 10 stars.');
      const kept = d.choices.filter((c) => c.id);
      body.answers = {
        rows: d.rows.length ? d.rows.map(rowOf) : [{ text: '' }],
        choices: Array.from({ length: n }, (_, i) => ({
          ...(kept[i] ? { id: kept[i].id } : {}),
          text: '',
          weight: i + 1,
        })),
      };
      body.display_options = { display_type: 'emoji', display_subtype: 'star' };
      break;
    }
    case 'nps': {
      const kept = d.choices.filter((c) => c.id);
      body.answers = {
        rows: d.rows.length ? d.rows.map(rowOf) : [{ text: '' }],
        choices: Array.from({ length: 11 }, (_, i) => ({
          ...(kept[i] ? { id: kept[i].id } : {}),
          text: String(i),
          weight: i,
        })),
      };
      break;
    }
    case 'rows':
      // A date/time question needs one row, which may be unlabelled.
      body.answers = { rows: rows.length || kind.family !== 'datetime' ? rows.map(rowOf) : [{ text: '' }] };
      break;
    case 'demographic': {
      const show = new Set(d.demoShow);
      const required = new Set(d.demoRequired);
      const existing = new Map(d.rows.map((r) => [r.text, r]));
      if (show.size === 0) throw new ApiError(1002, 'Choose at least one field to ask for.');
      body.answers = {
        rows: DEMOGRAPHIC_TYPES.map((type) => ({
          ...(existing.get(type)?.id ? { id: existing.get(type)!.id } : {}),
          type,
          visible: show.has(type),
          required: required.has(type),
        })),
      };
      break;
    }
    case 'text':
      if (kind.display) body.display_options = { display_type: kind.display };
      break;
  }
  if (['stars', 'nps', 'rating'].includes(shape))
    body.display_options = {
      ...body.display_options,
      left_label: d.leftLabel,
      middle_label: d.middleLabel,
      right_label: d.rightLabel,
    };
  // Unset options are sent as null, so saving a form clears what it unchecked.
  body.required =
    d.required && shape !== 'presentation'
      ? { type: 'all', ...(d.requiredText ? { text: d.requiredText } : {}) }
      : null;
  body.validation = null;
  body.sorting = null;
  if (d.validation && validationsFor(kind)) {
    const bound = (v: string) =>
      v === ''
        ? null
        : d.validation === 'text_length' || d.validation === 'integer' || d.validation === 'decimal'
          ? number(v, 'A limit')
          : v;
    body.validation = {
      type: d.validation as NonNullable<QuestionInput['validation']>['type'],
      min: bound(d.min),
      max: bound(d.max),
      ...(d.validationText ? { text: d.validationText } : {}),
    };
  }
  if (d.sorting && SORTABLE.includes(shape))
    body.sorting = { type: d.sorting as (typeof SORTING_TYPES)[number] };
  // The API validates bodies against this schema; the page checks the same before the domain runs.
  const [error] = [...Value.Errors(QuestionInput, body)];
  if (error)
    throw new ApiError(
      1002,
      `${error.instancePath.slice(1).replaceAll('/', '.') || 'The question'}: ${error.message}.`,
    );
  return body;
}

// ---- the form -------------------------------------------------------------------------------

const VALIDATIONS: Partial<Record<Shape, [string, string][]>> = {
  text: [
    ['text_length', 'Text length (characters)'],
    ['integer', 'A whole number'],
    ['decimal', 'A number'],
    ['email', 'An email address'],
    ['date_us', 'A date (MM/DD/YYYY)'],
    ['date_intl', 'A date (DD/MM/YYYY)'],
  ],
  rows: [
    ['date_us', 'Date range (MM/DD/YYYY)'],
    ['date_intl', 'Date range (DD/MM/YYYY)'],
    ['integer', 'Whole numbers'],
    ['decimal', 'Numbers'],
    ['text_length', 'Text length (characters)'],
  ],
};
const validationsFor = (kind: QuestionKind) =>
  kind.display === 'file_upload'
    ? undefined
    : kind.display === 'slider'
      ? VALIDATIONS.text!.filter(([v]) => v === 'integer')
      : VALIDATIONS[kind.shape];
const SORTABLE: Shape[] = ['choices', 'matrix', 'rating', 'menu', 'ranking'];

const sel = (on: boolean) => (on ? raw(' selected') : '');
const chk = (on: boolean) => (on ? raw(' checked') : '');

function itemList(
  f: string,
  name: 'choice' | 'row',
  legend: string,
  items: Item[],
  extra: { weight?: boolean; image?: boolean; score?: boolean; logic?: LogicContext },
): Html {
  return html`<fieldset class="items"><legend>${legend}</legend>
${items.length ? '' : html`<p class="hint">None yet.</p>`}
<ol class="items">${items.map((c, i) => {
    const id = `${f}-${name}-${i}`;
    return html`<li class="item-row">
<input type="hidden" name="${name}_id" value="${c.id}">
<span class="field"><label for="${id}-text">${name === 'choice' ? 'Choice' : 'Row'} ${i + 1}</label>
<input id="${id}-text" name="${name}_text" type="text" maxlength="20000" value="${c.text}"></span>
<span class="field small"><label for="${id}-order">Order</label>
<input id="${id}-order" name="${name}_order" type="number" inputmode="numeric" value="${c.order || String(i + 1)}"></span>
${extra.weight ? html`<span class="field small"><label for="${id}-weight">Weight</label><input id="${id}-weight" name="choice_weight" type="number" step="any" value="${c.weight}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_weight" value="${c.weight}">` : ''}
${extra.image ? html`<span class="field"><label for="${id}-image">Image URL</label><input id="${id}-image" name="choice_image" type="url" maxlength="20000" value="${c.image}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_image" value="${c.image}">` : ''}
${extra.score ? html`<span class="field small"><label for="${id}-score">Score</label><input id="${id}-score" name="choice_score" type="number" step="any" value="${c.score}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_score" value="${c.score}">` : ''}
${extra.logic ? html`<span class="field then"><label for="${id}-logic">Then</label>${ruleSelect(`${id}-logic`, 'choice_logic', c.logic, extra.logic.pages, extra.logic.pageIndex, 'Continue (no rule)')}</span>` : ''}
<label class="check"><input type="checkbox" name="${name}_remove" value="${c.id}"${chk(c.remove)}> Remove</label>
</li>`;
  })}</ol>
</fieldset>`;
}

function area(id: string, name: string, label: string, help: string, value: string, rows = 3): Html {
  return html`<label for="${id}">${label}</label>
<p class="hint" id="${id}-help">${help}</p>
<textarea id="${id}" name="${name}" rows="${rows}" aria-describedby="${id}-help">${value}</textarea>`;
}

function text(id: string, name: string, label: string, value: string, type = 'text'): Html {
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="${type}" maxlength="20000" value="${value}">`;
}

/** Where the question is, for its choices' skip-logic selects (single choice questions only). */
export interface LogicContext {
  pages: readonly PageChoice[];
  /** the index of the question's page in `pages` */
  pageIndex: number;
}

/** The fields of a question's edit form (`f` prefixes their ids; the form element is the caller's). */
export function questionFields(f: string, d: Draft, options: { quiz: boolean; logic?: LogicContext }): Html {
  const kind = findKind(d.kind) ?? QUESTION_KINDS[0];
  const shape = kind.shape;
  const logic = kind.family === 'single_choice' ? options.logic : undefined;
  const layouts = kind.subtype === 'menu' || kind.display ? undefined : LAYOUTS[kind.family];
  const validations = validationsFor(kind);
  const DEMO_LABELS: Record<string, string> = {
    name: 'Name',
    company: 'Company',
    address: 'Address',
    address2: 'Address 2',
    city: 'City/Town',
    state: 'State/Province',
    zip: 'ZIP/Postal code',
    country: 'Country',
    email: 'Email address',
    phone: 'Phone number',
  };
  return html`<input type="hidden" name="kind" value="${kind.value}"><p class="hint">Type: ${kind.label}</p>
<label for="${f}-heading">${shape === 'presentation' ? 'Text' : 'Question text'}</label>
<textarea id="${f}-heading" name="heading" rows="2" maxlength="20000">${d.heading}</textarea>
${area(`${f}-description`, 'description', 'Description (optional)', 'Shown under the question text.', d.description, 2)}
${text(`${f}-image`, 'image', kind.value === 'image' ? 'Image URL' : 'Image URL (optional)', d.image, 'url')}
${kind.value === 'image' ? html`<p class="hint">The text above is the image's description for people who cannot see it.</p>` : ''}
${
  layouts
    ? html`<label for="${f}-layout">Layout</label>
<select id="${f}-layout" name="layout">${layouts.map(([v, label]) => html`<option value="${v}"${sel(d.layout === v)}>${label}</option>`)}</select>`
    : ''
}
${
  shape === 'matrix' || shape === 'rating' || shape === 'ranking' || shape === 'menu' || shape === 'rows'
    ? html`${itemList(f, 'row', shape === 'ranking' ? 'Items to rank' : shape === 'rows' ? 'Boxes' : 'Rows', d.rows, {})}
${area(`${f}-add-rows`, 'add_rows', shape === 'ranking' ? 'Add items' : shape === 'rows' ? 'Add boxes' : 'Add rows', 'One per line; paste a list to add many.', d.addRows)}`
    : ''
}
${
  shape === 'choices' || shape === 'matrix' || shape === 'rating'
    ? html`${itemList(f, 'choice', shape === 'choices' ? 'Choices' : 'Columns', d.choices, {
        weight: shape === 'rating',
        image: kind.display === 'image_choice',
        score: options.quiz,
        logic,
      })}
${logic ? html`<p class="hint">"Then" is skip logic: where a respondent who picks the choice goes after this page. Rules only go to later pages; without one, the page's own rule (or the next page) applies.</p>` : ''}
${area(`${f}-add-choices`, 'add_choices', shape === 'choices' ? 'Add choices' : 'Add columns', kind.display === 'image_choice' ? 'One per line: the image URL, a space, then its label (also the image description).' : 'One per line; paste a list to add many.', d.addChoices)}`
    : ''
}
${
  shape === 'menu'
    ? html`<fieldset class="items"><legend>Columns (each a dropdown menu)</legend><ol class="items">${d.cols.map(
        (c, i) => html`<li class="item-row">
<input type="hidden" name="col_id" value="${c.id}">
<span class="field"><label for="${f}-col-${i}-text">Column ${i + 1}</label><input id="${f}-col-${i}-text" name="col_text" type="text" maxlength="20000" value="${c.text}"></span>
<span class="field small"><label for="${f}-col-${i}-order">Order</label><input id="${f}-col-${i}-order" name="col_order" type="number" value="${c.order || String(i + 1)}"></span>
<span class="field"><label for="${f}-col-${i}-choices">Its menu choices (one per line)</label><textarea id="${f}-col-${i}-choices" name="col_choices" rows="3">${c.choices}</textarea></span>
<label class="check"><input type="checkbox" name="col_remove" value="${c.id}"${chk(c.remove)}> Remove</label>
</li>`,
      )}</ol></fieldset>
${area(`${f}-add-cols`, 'add_cols', 'Add columns', 'One per line; each starts with two menu choices to edit.', d.addCols)}`
    : ''
}
${
  shape === 'stars' || shape === 'nps'
    ? html`${d.rows.map((r) => html`<input type="hidden" name="row_id" value="${r.id}"><input type="hidden" name="row_text" value="${r.text}"><input type="hidden" name="row_order" value="${r.order}">`)}
${d.choices.map((c) => html`<input type="hidden" name="choice_id" value="${c.id}">`)}`
    : ''
}
${
  shape === 'stars'
    ? html`<label for="${f}-stars">Number of stars</label>
<select id="${f}-stars" name="stars">${[3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option${sel(d.stars === String(n))}>${n}</option>`)}</select>`
    : ''
}
${
  shape === 'stars' || shape === 'nps' || shape === 'rating'
    ? html`<fieldset class="labels"><legend>Scale labels</legend>
${text(`${f}-left`, 'left_label', 'Low end', d.leftLabel)}
${text(`${f}-middle`, 'middle_label', 'Middle', d.middleLabel)}
${text(`${f}-right`, 'right_label', 'High end', d.rightLabel)}</fieldset>`
    : ''
}
${
  shape === 'demographic'
    ? html`<fieldset class="items"><legend>Fields to ask for</legend><ul class="demo">${DEMOGRAPHIC_TYPES.map(
        (
          t,
        ) => html`<li><label class="check"><input type="checkbox" name="demo_show" value="${t}"${chk(d.demoShow.includes(t))}> ${DEMO_LABELS[t]}</label>
<label class="check"><input type="checkbox" name="demo_required" value="${t}"${chk(d.demoRequired.includes(t))}> ${DEMO_LABELS[t]} is required</label></li>`,
      )}</ul>${d.rows.map((r) => html`<input type="hidden" name="row_id" value="${r.id}"><input type="hidden" name="row_text" value="${r.text}">`)}</fieldset>`
    : ''
}
${
  shape === 'choices'
    ? html`<fieldset class="options"><legend>Extra choices</legend>
<label class="check"><input type="checkbox" name="other" value="yes"${chk(d.other)}> Add an "Other" answer with a text box</label>
${text(`${f}-other-text`, 'other_text', '"Other" label', d.otherText || 'Other (please specify)')}
<label class="check"><input type="checkbox" name="na" value="yes"${chk(d.na)}> Add an "N/A" choice</label>
<input type="hidden" name="na_id" value="${d.naId}">
${text(`${f}-na-text`, 'na_text', '"N/A" label', d.naText || 'N/A')}
${logic ? html`<label for="${f}-na-logic">Then, after "N/A"</label>${ruleSelect(`${f}-na-logic`, 'na_logic', d.naLogic, logic.pages, logic.pageIndex, 'Continue (no rule)')}` : ''}</fieldset>`
    : shape === 'matrix' || shape === 'rating'
      ? html`<fieldset class="options"><legend>Comment box</legend>
<label class="check"><input type="checkbox" name="other" value="yes"${chk(d.other)}> Add a comment box</label>
${text(`${f}-other-text`, 'other_text', 'Comment box label', d.otherText || 'Other (please specify)')}</fieldset>`
      : ''
}
${
  SORTABLE.includes(shape)
    ? html`<label for="${f}-sorting">Order of choices for respondents</label>
<select id="${f}-sorting" name="sorting"><option value="">As listed</option>
<option value="random"${sel(d.sorting === 'random')}>Random for each respondent</option>
<option value="flip"${sel(d.sorting === 'flip')}>Flip (as listed or reversed)</option>
<option value="textasc"${sel(d.sorting === 'textasc')}>Alphabetical</option>
<option value="textdesc"${sel(d.sorting === 'textdesc')}>Reverse alphabetical</option></select>`
    : ''
}
${
  shape === 'presentation'
    ? ''
    : html`<fieldset class="options"><legend>Required</legend>
<label class="check"><input type="checkbox" name="required" value="yes"${chk(d.required)}> An answer is required</label>
${text(`${f}-required-text`, 'required_text', 'Message when it is missing', d.requiredText || 'This question requires an answer.')}</fieldset>`
}
${
  validations
    ? html`<fieldset class="options"><legend>${kind.display === 'slider' ? 'Slider range' : 'Validation'}</legend>
<label for="${f}-validation">Accept only</label>
<select id="${f}-validation" name="validation">${kind.display === 'slider' ? '' : html`<option value="">Anything</option>`}${validations.map(
        ([v, label]) => html`<option value="${v}"${sel(d.validation === v)}>${label}</option>`,
      )}</select>
<div class="row">
<span class="field">${text(`${f}-min`, 'min', 'Minimum (length, number or date)', d.min)}</span>
<span class="field">${text(`${f}-max`, 'max', 'Maximum', d.max)}</span></div>
${text(`${f}-validation-text`, 'validation_text', 'Message when it does not fit', d.validationText)}</fieldset>`
    : ''
}`;
}
