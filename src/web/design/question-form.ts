// The "add a question" form of the edit page: the question kinds it offers and how its fields
// become a question body (the same body a client would POST to /v3/.../questions). The builders
// are the template library's, so a question added here is shaped like a template's.
import Value from 'typebox/value';
import { QuestionInput } from '../../domain/surveys/question-schema.js';
import { essay, grid, multi, nps, single, stars, text } from '../../domain/surveys/templates/build.js';
import { ApiError } from '../../platform/errors.js';

export interface QuestionKind {
  value: string;
  label: string;
  /** Which list fields the kind uses. */
  needs: { choices?: boolean; rows?: boolean };
  build(heading: string, choices: string[], rows: string[]): QuestionInput;
}

export const QUESTION_KINDS: readonly QuestionKind[] = [
  { value: 'single_choice', label: 'Single choice', needs: { choices: true }, build: (h, c) => single(h, c) },
  {
    value: 'multiple_choice',
    label: 'Multiple choice',
    needs: { choices: true },
    build: (h, c) => multi(h, c),
  },
  { value: 'comment_box', label: 'Comment box (long answer)', needs: {}, build: (h) => essay(h) },
  { value: 'single_textbox', label: 'Single textbox (short answer)', needs: {}, build: (h) => text(h) },
  {
    value: 'matrix_single',
    label: 'Matrix of choices (one per row)',
    needs: { choices: true, rows: true },
    build: (h, c, r) => grid(h, r, c),
  },
  { value: 'star_rating', label: 'Star rating (1 to 5)', needs: {}, build: (h) => stars(h) },
  { value: 'nps', label: 'Net Promoter Score (0 to 10)', needs: {}, build: (h) => nps(h) },
];

export function findKind(value: string | undefined): QuestionKind | undefined {
  return QUESTION_KINDS.find((k) => k.value === value);
}

const lines = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

export interface QuestionFields {
  kind?: string;
  heading?: string;
  choices?: string;
  rows?: string;
}

/** The question body the form describes; ApiError 1002 (shown on the page) when it is incomplete. */
export function questionFromForm(form: QuestionFields): QuestionInput {
  const kind = findKind(form.kind);
  if (!kind) throw new ApiError(1002, 'Choose the kind of question to add.');
  const heading = (form.heading ?? '').trim();
  if (!heading) throw new ApiError(1002, 'Write the question text.');
  const choices = lines(form.choices);
  const rows = lines(form.rows);
  if (kind.needs.choices && choices.length === 0)
    throw new ApiError(
      1002,
      `A ${kind.label.toLowerCase()} question needs at least one answer choice (one per line).`,
    );
  if (kind.needs.rows && rows.length === 0)
    throw new ApiError(1002, 'A matrix question needs at least one row (one per line).');
  const body = kind.build(heading, choices, rows);
  // The API validates bodies against this schema; the page checks the same before the domain runs.
  const [error] = [...Value.Errors(QuestionInput, body)];
  if (error) {
    const where = error.instancePath.includes('choices')
      ? 'An answer choice'
      : error.instancePath.includes('rows')
        ? 'A row'
        : 'The question text';
    throw new ApiError(1002, `${where} is not valid: ${error.message}.`);
  }
  return body;
}
