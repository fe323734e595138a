// Skip logic and branching: a rule on a choice of a single_choice question, or on a page, says where
// the respondent goes after the page. Rules only jump forward (to a later page of the same survey),
// so every path through a survey is finite and a respondent never sees a page twice.
import { ApiError } from '../../platform/errors.js';
import { calculatedOf } from './calculated.js';
import type { Logic, StoredQuestion } from './question-schema.js';

/** The shape rules beyond the schema: page_id with go_to_page and only there. */
export function checkLogicShape(logic: Logic, field: string): void {
  if (logic.action === 'go_to_page' && logic.page_id === undefined)
    throw new ApiError(1002, `'${field}.page_id' is required when the action is go_to_page.`);
  if (logic.action !== 'go_to_page' && logic.page_id !== undefined)
    throw new ApiError(1002, `'${field}.page_id' is only allowed when the action is go_to_page.`);
}

/**
 * 400/1002 naming the field when a rule's `when` names a calculated variable the survey does not
 * have (`survey` undefined: a new survey, which has none yet), or compares greater or less with
 * something that is not a number.
 */
export function checkRuleConditions(
  survey: { calculated_variables?: string | null } | undefined,
  rules: ReadonlyArray<{ field: string; logic: Logic }>,
): void {
  const names = new Set(survey ? calculatedOf(survey).map((v) => v.name) : []);
  for (const { field, logic } of rules) {
    const w = logic.when;
    if (!w) continue;
    if (!names.has(w.variable))
      throw new ApiError(
        1002,
        `'${field}.when.variable': the survey has no calculated variable "${w.variable}".`,
      );
    if (
      (w.operator === 'greater_than' || w.operator === 'less_than') &&
      !Number.isFinite(Number(w.value.trim() || 'x'))
    )
      throw new ApiError(
        1002,
        `'${field}.when.value': ${w.operator} compares numbers: "${w.value}" is not a number.`,
      );
  }
}

/** A rule found in a survey's design, with the field that holds it (for error messages). */
export interface PlacedRule {
  /** the page the rule sits on (whose answers fire it) */
  pageId: string;
  field: string;
  logic: Logic;
}

/** The choice rules of one question, with their fields below `prefix` (e.g. `pages[1].questions[0]`). */
export function questionRules(pageId: string, doc: StoredQuestion, prefix: string): PlacedRule[] {
  const out: PlacedRule[] = [];
  doc.answers?.choices?.forEach((c, i) => {
    if (c.logic)
      out.push({
        pageId,
        field: `${prefix ? `${prefix}.` : ''}answers.choices[${i}].logic`,
        logic: c.logic,
      });
  });
  return out;
}

/**
 * 400/1002 naming the field when a go_to_page rule points to a page not in the survey, to the page
 * it sits on or to an earlier one. `order` is the survey's page ids in order.
 */
export function checkTargets(order: readonly string[], rules: readonly PlacedRule[]): void {
  const at = new Map(order.map((id, i) => [id, i]));
  for (const r of rules) {
    checkLogicShape(r.logic, r.field);
    if (r.logic.action !== 'go_to_page') continue;
    const target = at.get(r.logic.page_id!);
    if (target === undefined)
      throw new ApiError(1002, `'${r.field}.page_id': page ${r.logic.page_id} is not in this survey.`);
    if (target <= (at.get(r.pageId) ?? -1))
      throw new ApiError(
        1002,
        `'${r.field}.page_id': page ${r.logic.page_id} is not after the rule's page; logic only jumps forward.`,
      );
  }
}

/** A choice's rule with its page ids mapped (copies); rules to pages that were not copied are dropped. */
export function remapLogic(logic: Logic | undefined, pages: ReadonlyMap<string, string>): Logic | undefined {
  if (logic?.action !== 'go_to_page') return logic;
  const to = pages.get(logic.page_id!);
  return to ? { ...logic, page_id: to } : undefined;
}

/** The question design with every choice rule's page id mapped by `pages`. */
export function remapQuestion(doc: StoredQuestion, pages: ReadonlyMap<string, string>): StoredQuestion {
  if (!doc.answers?.choices?.some((c) => c.logic)) return doc;
  return {
    ...doc,
    answers: {
      ...doc.answers,
      choices: doc.answers.choices.map((c) => {
        if (!c.logic) return c;
        const { logic, ...rest } = c;
        const mapped = remapLogic(logic, pages);
        return mapped ? { ...rest, logic: mapped } : rest;
      }),
    },
  };
}

export function parseLogic(text: string | null): Logic | null {
  return text ? (JSON.parse(text) as Logic) : null;
}
