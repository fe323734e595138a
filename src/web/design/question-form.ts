// The builder's question forms, as data. A question is edited as a *draft*: the fields of its form.
// A draft comes from the stored question (to show the form) or from a posted form (to save it, or
// to show it again with an error), and becomes the same body a client would send to PUT
// /v3/surveys/{id}/pages/{id}/questions/{id}; the domain then checks it as it checks the API's.
// Answer ids travel in hidden fields, so a renamed choice keeps its id (and its answers).
// Pure: no HTML (question-view.ts renders a draft) and no requests (edit.ts posts them).
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';
import {
  type ChoiceInput,
  DEMOGRAPHIC_TYPES,
  QuestionInput,
  type RowInput,
  type SORTING_TYPES,
} from '../../domain/surveys/question-schema.js';
import { ApiError } from '../../platform/errors.js';
import { type PageChoice, ruleOf, ruleValue } from './logic-ui.js';
import {
  fieldWords,
  findKind,
  kindOf,
  LAYOUTS,
  type QuestionKind,
  type QuestionRow,
  type Shape,
  SORTABLE,
  validationsFor,
} from './question-kinds.js';
import { choiceLine, lines, menuColumn } from './quick-add.js';

// The kinds are part of the model's vocabulary: its users name a question's kind through it.
export { findKind, kindOf, QUESTION_KINDS, type QuestionKind } from './question-kinds.js';

// ---- the draft ------------------------------------------------------------------------------

export interface Item {
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

/** What the quick-add box sets besides the kind, text, choices and image (all optional). */
export interface AddOptions {
  /** rows, items or boxes, one per line */
  rows?: string;
  required?: boolean;
  validation?: string;
  min?: string;
  max?: string;
  /** the survey's pages and the new question's page, for the rules typed after choices */
  pages?: readonly PageChoice[];
  pageIndex?: number;
}

/** A new question's draft: the kind's starting answers, so a heading alone makes a valid question. */
export function newDraft(
  kindValue: string,
  heading: string,
  choices = '',
  image = '',
  more: AddOptions = {},
): Draft {
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
  const typed = lines(choices);
  const rows = lines(more.rows ?? '');
  const takesChoices = ['choices', 'matrix', 'rating', 'menu', 'ranking', 'rows'].includes(kind.shape);
  const takesRows = ['matrix', 'rating', 'menu', 'ranking', 'rows'].includes(kind.shape);
  if (typed.length && !takesChoices)
    throw new ApiError(1002, `A "${kind.label}" question has no choices: leave "Choices" empty.`);
  if (rows.length && !takesRows)
    throw new ApiError(1002, `A "${kind.label}" question has no rows: leave "Rows" empty.`);
  const texts = (list: string[]) => list.map((text) => item({ text }));
  const rowsOr = (fallback: string) => (rows.length ? rows.join('\n') : fallback);
  switch (kind.shape) {
    case 'choices': {
      if (kind.display === 'image_choice') {
        d.addChoices = choices;
        break;
      }
      const where = {
        pages: more.pages ?? [],
        pageIndex: more.pageIndex ?? 0,
        logic: kind.family === 'single_choice',
      };
      d.choices = (typed.length ? typed : ['Choice 1', 'Choice 2']).map((line) =>
        item(choiceLine(line, where)),
      );
      break;
    }
    case 'matrix':
      d.addRows = rowsOr('Row 1\nRow 2');
      d.addChoices = typed.length ? typed.join('\n') : 'Column 1\nColumn 2';
      break;
    case 'menu':
      d.addRows = rowsOr('Row 1\nRow 2');
      d.cols = (typed.length ? typed : ['Column 1']).map((line) => ({
        id: '',
        order: '',
        remove: false,
        ...menuColumn(line),
      }));
      break;
    case 'rating':
      d.addRows = rowsOr('Row 1');
      d.choices = texts(typed.length ? typed : ['Poor', 'Fair', 'Good', 'Very good', 'Excellent']).map(
        (c, i) => ({ ...c, weight: String(i + 1) }),
      );
      break;
    case 'ranking':
      // A ranking's items are its rows; typed under "Choices" they are taken as well.
      d.addRows = rows.length ? rows.join('\n') : typed.length ? typed.join('\n') : 'Item 1\nItem 2\nItem 3';
      break;
    case 'nps':
      d.leftLabel = 'Not at all likely';
      d.rightLabel = 'Extremely likely';
      break;
    case 'rows':
      if (rows.length || typed.length) d.addRows = (rows.length ? rows : typed).join('\n');
      else if (kind.family !== 'datetime') d.addRows = 'Label 1\nLabel 2';
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
  d.required = more.required === true && kind.shape !== 'presentation';
  if (more.validation) {
    const offered = validationsFor(kind);
    if (!offered?.some(([v]) => v === more.validation))
      throw new ApiError(
        1002,
        `A "${kind.label}" question cannot check its answers that way: choose "Anything" under "Accept only", or a textbox, number or date question.`,
      );
    d.validation = more.validation;
  }
  if (more.min?.trim()) d.min = more.min.trim();
  if (more.max?.trim()) d.max = more.max.trim();
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
  /** "Insert answer from…": the recall chosen, and the button that inserts it (not a save) */
  recall: One(300),
  insert: One(20),
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

/** What a kind's adapter works from: the draft, its kept and added choices and rows, in order. */
interface Parts {
  kind: QuestionKind;
  d: Draft;
  choices: Item[];
  rows: Item[];
  choiceOf: (c: Item) => ChoiceInput;
}

/** Turns a draft into the answers and display options of its kind's question body. */
type Adapter = (p: Parts) => Pick<QuestionInput, 'answers' | 'display_options'>;

const rowOf = (r: Item): RowInput => (r.id ? { id: r.id, text: r.text } : { text: r.text });
const OTHER = 'Other (please specify)';
const scaleLabels = (d: Draft) => ({
  left_label: d.leftLabel,
  middle_label: d.middleLabel,
  right_label: d.rightLabel,
});
/** A star rating's or NPS's single (unlabelled) row, and its fixed choices' kept ids in order. */
const scaleRows = (d: Draft) => (d.rows.length ? d.rows.map(rowOf) : [{ text: '' }]);
const keptId = (d: Draft, i: number) => {
  const kept = d.choices.filter((c) => c.id);
  return kept[i] ? { id: kept[i].id } : {};
};

/** A matrix of weighted columns: rating scale columns added without a weight are weighted by place. */
const grid =
  (rating: boolean): Adapter =>
  ({ d, rows, choices, choiceOf }) => ({
    answers: {
      rows: rows.map(rowOf),
      choices: choices.map((c, i) =>
        choiceOf(rating && c.weight === '' ? { ...c, weight: String(i + 1) } : c),
      ),
      ...(d.other ? { other: { text: d.otherText || OTHER } } : {}),
    },
  });

/** One adapter per shape of form; a kind's shape names its adapter (kinds of a shape differ by display). */
const ADAPTERS: Record<Shape, Adapter> = {
  choices: ({ kind, d, choices, choiceOf }) => {
    const all = choices.map(choiceOf);
    const naLogic = kind.family === 'single_choice' ? ruleOf(d.naLogic) : null;
    if (d.na)
      all.push({
        ...(d.naId ? { id: d.naId } : {}),
        text: d.naText || 'N/A',
        is_na: true,
        ...(naLogic ? { logic: naLogic } : {}),
      });
    return {
      answers: { choices: all, ...(d.other ? { other: { text: d.otherText || OTHER } } : {}) },
      ...(kind.display ? { display_options: { display_type: kind.display } } : {}),
    };
  },
  matrix: grid(false),
  rating: (p) => ({ ...grid(true)(p), display_options: scaleLabels(p.d) }),
  ranking: ({ rows }) => ({ answers: { rows: rows.map(rowOf) } }),
  menu: ({ d, rows }) => {
    const added = lines(d.addCols).map((text) => ({
      id: '',
      text,
      order: '',
      choices: 'Option 1\nOption 2',
      remove: false,
    }));
    return {
      answers: {
        rows: rows.map(rowOf),
        cols: [...arrange(d.cols), ...added].map((c) => ({
          ...(c.id ? { id: c.id } : {}),
          text: c.text,
          choices: lines(c.choices).map((text) => ({ text })),
        })),
      },
    };
  },
  stars: ({ d }) => {
    const n = Math.round(number(d.stars, 'The number of stars'));
    if (n < 2 || n > 10) throw new ApiError(1002, 'A star rating has 2 to 10 stars.');
    return {
      answers: {
        rows: scaleRows(d),
        choices: Array.from({ length: n }, (_, i) => ({ ...keptId(d, i), text: '', weight: i + 1 })),
      },
      display_options: { display_type: 'emoji', display_subtype: 'star', ...scaleLabels(d) },
    };
  },
  nps: ({ d }) => ({
    answers: {
      rows: scaleRows(d),
      choices: Array.from({ length: 11 }, (_, i) => ({ ...keptId(d, i), text: String(i), weight: i })),
    },
    display_options: scaleLabels(d),
  }),
  // A date/time question needs one row, which may be unlabelled.
  rows: ({ kind, rows }) => ({
    answers: { rows: rows.length || kind.family !== 'datetime' ? rows.map(rowOf) : [{ text: '' }] },
  }),
  demographic: ({ d }) => {
    const show = new Set(d.demoShow);
    const required = new Set(d.demoRequired);
    const existing = new Map(d.rows.map((r) => [r.text, r]));
    if (show.size === 0) throw new ApiError(1002, 'Choose at least one field to ask for.');
    return {
      answers: {
        rows: DEMOGRAPHIC_TYPES.map((type) => ({
          ...(existing.get(type)?.id ? { id: existing.get(type)!.id } : {}),
          type,
          visible: show.has(type),
          required: required.has(type),
        })),
      },
    };
  },
  text: ({ kind }) => (kind.display ? { display_options: { display_type: kind.display } } : {}),
  presentation: () => ({}),
};

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
  const body: QuestionInput = {
    family: kind.family as QuestionInput['family'],
    subtype,
    headings: [heading],
    ...ADAPTERS[kind.shape]({ kind, d, choices, rows, choiceOf }),
  };
  // Unset options are sent as null, so saving a form clears what it unchecked.
  body.required =
    d.required && kind.shape !== 'presentation'
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
  if (d.sorting && SORTABLE.includes(kind.shape))
    body.sorting = { type: d.sorting as (typeof SORTING_TYPES)[number] };
  // The API validates bodies against this schema; the page checks the same before the domain runs.
  const [error] = [...Value.Errors(QuestionInput, body)];
  if (error) throw new ApiError(1002, `${fieldWords(error.instancePath, kind.family)} ${error.message}.`);
  return body;
}
