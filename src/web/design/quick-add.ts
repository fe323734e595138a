// The quick-add box's lines, read as a kind's parts: a choice line may end with its skip-logic rule
// ("Yes -> page 3", "No -> end"), a dropdown matrix line is a column and its menu choices ("Size:
// S, M, L"). Pure: question-form.ts builds the new question's draft from what these return.
import { ApiError } from '../../platform/errors.js';
import type { PageChoice } from './logic-ui.js';

export const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);

/** What the quick-add box says it takes, by kind's shape: its hint and the label of its rows box. */
export const QUICK_ADD_HINT =
  'One per line. Choice questions: their choices; a single choice or dropdown line may end with where it leads, e.g. "Yes -> page 3", "No -> end" or "-> disqualify". Matrix and rating scale: their columns (a rating scale is weighted 1, 2, 3… in order). Dropdown matrix: a column, a colon, then its menu choices, e.g. "Size: S, M, L". Image choice: the image URL, a space, then its label.';
export const QUICK_ADD_ROWS_HINT =
  'One per line: the rows of a matrix, rating scale or dropdown matrix, the items of a ranking, or the boxes of multiple or numerical textboxes.';

/** The select value of a rule typed after "->" (a page by its number, "end", "disqualify"). */
function ruleTyped(line: string, target: string, pages: readonly PageChoice[], pageIndex: number): string {
  const t = target.trim().toLowerCase();
  if (/^end( (the )?survey)?$/.test(t)) return 'end_survey';
  if (/^disqualif(y|ied)$/.test(t)) return 'disqualify';
  const n = /^(?:page\s*)?(\d{1,4})$/.exec(t)?.[1];
  if (n === undefined)
    throw new ApiError(
      1002,
      `The choice "${line}" does not say where it leads: after "->" write a later page's number (e.g. "-> page 3"), "end" or "disqualify".`,
    );
  const page = pages[Number(n) - 1];
  if (!page)
    throw new ApiError(
      1002,
      `The choice "${line}" leads to page ${n}, but the survey has ${pages.length} pages.`,
    );
  if (Number(n) - 1 <= pageIndex)
    throw new ApiError(
      1002,
      `The choice "${line}" leads to page ${n}: skip logic only goes to a later page than this one (page ${pageIndex + 1}).`,
    );
  return `page:${page.id}`;
}

/** A choice line as its text and its rule's select value ('' without "->"). */
export function choiceLine(
  line: string,
  where: { pages: readonly PageChoice[]; pageIndex: number; logic: boolean },
): { text: string; logic: string } {
  const m = /^(.*?)\s*(?:->|→|=>)\s*(.*)$/.exec(line);
  if (!m) return { text: line, logic: '' };
  if (!where.logic)
    throw new ApiError(
      1002,
      `The choice "${line}" has a rule ("->"), but only single choice and dropdown questions have skip logic.`,
    );
  return { text: m[1], logic: ruleTyped(line, m[2], where.pages, where.pageIndex) };
}

/** A dropdown matrix line as a column and its menu choices (two placeholders without a colon). */
export function menuColumn(line: string): { text: string; choices: string } {
  const at = line.indexOf(':');
  if (at < 0) return { text: line, choices: 'Option 1\nOption 2' };
  const choices = line
    .slice(at + 1)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (choices.length === 0)
    throw new ApiError(
      1002,
      `The column "${line}" has no menu choices after its colon: list them separated by commas.`,
    );
  return { text: line.slice(0, at).trim(), choices: choices.join('\n') };
}
