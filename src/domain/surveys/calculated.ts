// Calculated variables: named values a survey computes from a respondent's answers (a score, a
// total), kept with the survey's settings (surveys.calculated_variables, JSON [{name, formula}]).
// Here are the rules of their definitions; the formula language is formula.ts, and the values are
// computed from answers where the respondent flow knows them (domain/responses/recall.ts).
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { parseAs } from '../../platform/json.js';
import { evaluationOrder, type Formula, FormulaError, formulaRefs, parseFormula } from './formula.js';

export const CALCULATED_MAX = 50;
export const CALCULATED_NAME = '^[A-Za-z][A-Za-z0-9_]{0,39}$';

export const CalculatedVariableInput = Type.Object(
  {
    name: Type.String({
      pattern: CALCULATED_NAME,
      description: 'A letter, then letters, digits or _ (at most 40); unique in the survey',
    }),
    formula: Type.String({ maxLength: 1000, description: 'docs/owners.md "Calculated variables"' }),
  },
  { additionalProperties: false },
);

export interface CalculatedVariable {
  name: string;
  formula: string;
}
/** A definition with its parsed formula (the design index keeps these). */
export interface ParsedVariable extends CalculatedVariable {
  tree: Formula | null;
}

const StoredList = Type.Array(Type.Object({ name: Type.String(), formula: Type.String() }));

/** The stored definitions, in the order the owner gave them. */
export function calculatedOf(survey: { calculated_variables?: string | null }): CalculatedVariable[] {
  const text = survey.calculated_variables;
  if (!text) return [];
  return parseAs(StoredList, text).map(({ name, formula }) => ({ name, formula }));
}

/** The definitions parsed in an order where each variable comes after those it uses. A formula
 * that no longer parses (never stored so) evaluates as empty. */
export function parsedCalculated(list: readonly CalculatedVariable[]): ParsedVariable[] {
  const parsed = list.map((v) => {
    try {
      return { ...v, tree: parseFormula(v.formula) };
    } catch {
      return { ...v, tree: null };
    }
  });
  const order = evaluationOrder(
    parsed.map((v) => ({
      name: v.name,
      uses: v.tree
        ? formulaRefs(v.tree)
            .filter((r) => r.kind === 'variable')
            .map((r) => r.key)
        : [],
    })),
  );
  if (!('order' in order)) return parsed;
  const at = new Map(order.order.map((n, i) => [n, i]));
  return [...parsed].sort((a, b) => (at.get(a.name) ?? 0) - (at.get(b.name) ?? 0));
}

/** What a formula may name: the survey's questions that take answers and its custom variables. */
export interface FormulaScope {
  questionIds: ReadonlySet<string>;
  customVariables: ReadonlySet<string>;
}

const bad = (field: string, text: string) => new ApiError(1002, `'${field}': ${text}`);

/**
 * The definitions as they are stored, or 400/1002 naming the field (`calculated_variables[1].formula`)
 * of the first that does not parse, names an unknown question, variable or custom variable, or
 * makes a cycle; or a name used twice. `prefix` is the field's name in the request.
 */
export function checkCalculated(
  list: readonly CalculatedVariable[],
  scope: FormulaScope,
  prefix = 'calculated_variables',
): CalculatedVariable[] {
  if (list.length > CALCULATED_MAX)
    throw bad(prefix, `a survey has at most ${CALCULATED_MAX} calculated variables.`);
  const names = new Map<string, number>();
  list.forEach((v, i) => {
    if (!new RegExp(CALCULATED_NAME).test(v.name))
      throw bad(
        `${prefix}[${i}].name`,
        `"${v.name.slice(0, 50)}" is not a variable name: a letter, then letters, digits or _ (at most 40).`,
      );
    const lower = v.name.toLowerCase();
    if (names.has(lower)) throw bad(`${prefix}[${i}].name`, `the name "${v.name}" is already used.`);
    names.set(lower, i);
  });
  const trees = list.map((v, i) => {
    const field = `${prefix}[${i}].formula`;
    let tree: Formula;
    try {
      tree = parseFormula(v.formula);
    } catch (err) {
      if (err instanceof FormulaError) throw bad(field, err.message);
      throw err;
    }
    for (const ref of formulaRefs(tree)) {
      if ((ref.kind === 'question' || ref.kind === 'score') && !scope.questionIds.has(ref.key))
        throw bad(field, `${ref.kind}("${ref.key}") names no question of this survey that takes answers.`);
      if (ref.kind === 'custom_variable' && !scope.customVariables.has(ref.key))
        throw bad(field, `the survey has no custom variable "${ref.key}".`);
      if (ref.kind === 'variable' && !list.some((x) => x.name === ref.key))
        throw bad(field, `"${ref.key}" is no calculated variable of this survey.`);
    }
    return tree;
  });
  const order = evaluationOrder(
    list.map((v, i) => ({
      name: v.name,
      uses: formulaRefs(trees[i])
        .filter((r) => r.kind === 'variable')
        .map((r) => r.key),
    })),
  );
  if ('cycle' in order) {
    const i = list.findIndex((v) => v.name === order.cycle);
    throw bad(
      `${prefix}[${i}].formula`,
      `"${order.cycle}" depends on itself (through the variables it uses); a variable cannot be part of a cycle.`,
    );
  }
  return list.map(({ name, formula }) => ({ name, formula: formula.trim() }));
}

/** The formula with each question it names replaced by its new id in `ids` (a copy's questions). */
export function remapFormula(formula: string, ids: ReadonlyMap<string, string>): string {
  return formula.replace(
    /\b(question|score)\(\s*"([0-9]{1,20})"\s*\)/g,
    (whole: string, kind: string, id: string) => {
      const to = ids.get(id);
      return to ? `${kind}("${to}")` : whole;
    },
  );
}
