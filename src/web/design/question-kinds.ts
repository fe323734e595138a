// The question types the builder offers, by the name a survey author knows them (a "kind"), and
// what each kind's form has: its shape (which fields), its layouts, its validations, its sorting.
// A kind is a family, a subtype and a display type of the API's question; kindOf reads it back.
import type { StoredQuestion } from '../../domain/surveys/question-schema.js';

export type QuestionRow = { family: string; subtype: string; doc: StoredQuestion };

export type Shape =
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
export const LAYOUTS: Record<string, [string, string][]> = {
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
/** The validations a kind offers (undefined: none; a slider is always a whole number). */
export const validationsFor = (kind: QuestionKind) =>
  kind.display === 'file_upload'
    ? undefined
    : kind.display === 'slider'
      ? VALIDATIONS.text!.filter(([v]) => v === 'integer')
      : VALIDATIONS[kind.shape];
/** Shapes whose choices a respondent may see reordered. */
export const SORTABLE: Shape[] = ['choices', 'matrix', 'rating', 'menu', 'ranking'];

/** A question body's field (a schema error's path, e.g. `/answers/choices/1/text`) in the form's words. */
export function fieldWords(path: string, family: string): string {
  const p = path.split('/').filter(Boolean);
  const n = (i: number) => Number(p[i]) + 1;
  const at = p.join('.');
  const fixed: Record<string, string> = {
    'headings.0.heading': 'The question text',
    'headings.0.description': 'The description',
    'headings.0.image.url': 'The image URL',
    'answers.other.text': 'The "Other" label',
    'required.text': 'The message when an answer is missing',
    'validation.min': 'The minimum',
    'validation.max': 'The maximum',
    'validation.text': 'The message when an answer does not fit',
    'display_options.left_label': 'The low end label',
    'display_options.middle_label': 'The middle label',
    'display_options.right_label': 'The high end label',
  };
  if (fixed[at]) return fixed[at];
  if (p[0] === 'answers' && p[2] !== undefined) {
    const choice = family === 'matrix' ? 'Column' : 'Choice';
    if (p[1] === 'choices') return p[3] === 'image' ? `The image URL of choice ${n(2)}` : `${choice} ${n(2)}`;
    if (p[1] === 'rows') return `Row ${n(2)}`;
    if (p[1] === 'cols')
      return p[3] === 'choices' && p[4] !== undefined
        ? `Menu choice ${n(4)} of column ${n(2)}`
        : `Column ${n(2)}`;
  }
  return 'The question';
}
