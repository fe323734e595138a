// The builder's edits of calculated variables, one at a time (the API's PATCH replaces the list):
// each becomes the whole list written by updateSurvey, so both check alike.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import type { SurveyRow } from './access.js';
import { type CalculatedVariable, calculatedOf } from './calculated.js';
import { questionNumbers, readableRecalls } from './piping.js';
import { type Actor, loadDesign, updateSurvey } from './surveys.js';

/** A refusal of the list, with where it points: the variable's place in the list and its field. */
export interface CalculatedProblem {
  index: number;
  field: 'name' | 'formula';
  message: string;
}

/** Which variable and field a refusal of the list names (`'calculated_variables[1].formula': …`). */
export function calculatedProblem(err: ApiError): CalculatedProblem | undefined {
  const m = /^'calculated_variables\[(\d+)\]\.(name|formula)': ([\s\S]*)$/.exec(err.detail ?? '');
  return m ? { index: Number(m[1]), field: m[2] === 'name' ? 'name' : 'formula', message: m[3] } : undefined;
}

/**
 * Adds a variable (`original` undefined) at the end, or replaces the one named `original` in its
 * place (renaming it). 400/1002 as updateSurvey refuses the list; 404/1020 when `original` is gone.
 */
export async function saveCalculatedVariable(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  original: string | undefined,
  variable: CalculatedVariable,
): Promise<SurveyRow> {
  const list = calculatedOf(survey);
  const at = original === undefined ? list.length : list.findIndex((v) => v.name === original);
  if (at < 0) throw new ApiError(1020, `The survey has no calculated variable "${original}".`);
  const next = [...list];
  next[at] = { name: variable.name.trim(), formula: variable.formula };
  return updateSurvey(deps, actor, survey.id, { calculated_variables: next }, 'patch');
}

/** Removes the variable named `name` (refused, 400/1002, while another formula uses it). */
export async function removeCalculatedVariable(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  name: string,
): Promise<SurveyRow> {
  const list = calculatedOf(survey);
  if (!list.some((v) => v.name === name))
    throw new ApiError(1020, `The survey has no calculated variable "${name}".`);
  return updateSurvey(
    deps,
    actor,
    survey.id,
    { calculated_variables: list.filter((v) => v.name !== name) },
    'patch',
  );
}

/** A question a formula may name, as the builder lists it: its number and words, and what to write. */
export interface FormulaReference {
  label: string;
  /** `question("id")`: its number (typed, or the picked choices' weights) */
  value: string;
  /** `score("id")` for a choice question (the picked choices' quiz scores), else null */
  score: string | null;
}

/** The survey's questions that take answers, in order, with the reference syntax of each. */
export async function formulaReferences(deps: Deps, surveyId: string): Promise<FormulaReference[]> {
  const { pages, questions } = await loadDesign(deps, surveyId);
  const ordered = pages.map((p) => ({
    questions: (questions.get(p.id) ?? []).map((q) => ({
      id: q.id,
      family: q.family,
      heading: q.doc.headings[0]?.heading ?? '',
      choices: (q.doc.answers?.choices?.length ?? 0) > 0,
    })),
  }));
  const numbers = questionNumbers(ordered);
  return ordered.flatMap((p) =>
    p.questions.flatMap((q) => {
      const n = numbers.get(q.id);
      if (n === undefined) return [];
      const words = readableRecalls(q.heading, numbers)
        .replace(/<[^>]*>/g, '')
        .trim();
      return [
        {
          label: `Q${n}${words ? `: ${words.length > 60 ? `${words.slice(0, 60)}…` : words}` : ''}`,
          value: `question("${q.id}")`,
          score: q.choices ? `score("${q.id}")` : null,
        },
      ];
    }),
  );
}
