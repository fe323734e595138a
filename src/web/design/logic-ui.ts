// The builder's skip-logic controls: a rule (domain/surveys/logic.ts) as the value of a "then"
// select and back, the select itself, and the short marker the question and page lists show. The
// select offers only later pages, but the domain decides what is valid (a stale form that jumps
// backward is refused there, 400/1002, and the message is shown beside the form).

import { readableRecalls } from '../../domain/surveys/piping.js';
import type {
  DisplayLogic,
  Logic,
  PageSorting,
  StoredQuestion,
} from '../../domain/surveys/question-schema.js';
import { ApiError } from '../../platform/errors.js';
import { type Html, html, raw } from '../html.js';

/** What the controls need of a page: its id and how the builder names it. */
export interface PageChoice {
  id: string;
  title: string;
}

/** "Page 3" or `Page 3 "Arrival"`. */
export function pageName(pages: readonly PageChoice[], pageId: string): string {
  const i = pages.findIndex((p) => p.id === pageId);
  if (i < 0) return `page ${pageId}`;
  return `Page ${i + 1}${pages[i].title ? ` "${pages[i].title}"` : ''}`;
}

/** A rule as a select's value: '' (no rule), `page:<id>`, `end_survey` or `disqualify`. */
export function ruleValue(logic: Logic | null | undefined): string {
  if (!logic) return '';
  return logic.action === 'go_to_page' ? `page:${logic.page_id}` : logic.action;
}

/** The rule a select's value names; null for no rule. */
export function ruleOf(value: string | undefined): Logic | null {
  if (!value) return null;
  if (value === 'end_survey' || value === 'disqualify') return { action: value };
  const page = /^page:([0-9]{1,20})$/.exec(value)?.[1];
  if (!page) throw new ApiError(1002, 'Choose where the rule goes: a later page, the end, or disqualify.');
  return { action: 'go_to_page', page_id: page };
}

/**
 * A select of what happens next, offering the pages after `pageIndex`. `none` is the label of "no
 * rule" (what happens without one differs for a choice and for a page).
 */
export function ruleSelect(
  id: string,
  name: string,
  value: string,
  pages: readonly PageChoice[],
  pageIndex: number,
  none: string,
  describedBy?: string,
): Html {
  const later = pages.slice(pageIndex + 1);
  // A rule the list would not offer (a form older than a page move) stays shown, for the domain to judge.
  const target = value.startsWith('page:') ? value.slice(5) : undefined;
  const extra = target && !later.some((p) => p.id === target) ? [{ id: target, title: '' }] : [];
  const opt = (v: string, label: string) =>
    html`<option value="${v}"${value === v ? raw(' selected') : ''}>${label}</option>`;
  return html`<select id="${id}" name="${name}"${describedBy ? html` aria-describedby="${describedBy}"` : ''}>${opt('', none)}${[
    ...later,
    ...extra,
  ].map((p) =>
    opt(`page:${p.id}`, `Go to ${pageName(pages, p.id)}`),
  )}${opt('end_survey', 'End the survey')}${opt('disqualify', 'Disqualify the respondent')}</select>`;
}

/** The marker of a rule: "→ Page 3", "Ends survey", "Disqualifies" (the arrow read as "goes to"). */
export function ruleMarker(logic: Logic, pages: readonly PageChoice[]): Html {
  if (logic.action === 'end_survey') return html`Ends survey`;
  if (logic.action === 'disqualify') return html`Disqualifies`;
  return html`<span aria-hidden="true">→</span><span class="visually-hidden">goes to</span> ${pageName(pages, logic.page_id!)}`;
}

/**
 * The domain's refusal of a rule in the builder's words: the page it names by number and title
 * rather than by id, without the API's field path. Other errors are answered unchanged.
 */
export function explainRuleError(error: ApiError, pages: readonly PageChoice[]): ApiError {
  const where = (field: string) => {
    const choice = /^answers\.choices\[(\d+)\]\.logic$/.exec(field)?.[1];
    return choice === undefined ? '' : ` on choice ${Number(choice) + 1}`;
  };
  const text = error.message
    .replace(
      /'([^']*)\.page_id': page (\d+) is not after the rule's page; logic only jumps forward\./,
      (_, field: string, page: string) =>
        `a skip-logic rule${where(field)} goes to ${pageName(pages, page)}, which would no longer come after the page the rule is on (rules only go to later pages). Change or remove that rule first.`,
    )
    .replace(
      /'([^']*)\.page_id': page (\d+) is not in this survey\./,
      (_, field: string) =>
        `a skip-logic rule${where(field)} goes to a page that is no longer in this survey. Choose another.`,
    );
  if (text === error.message) return error;
  return new ApiError(1002, text.charAt(0).toUpperCase() + text.slice(1));
}

// ---- display logic: "show this question only if…" beside the skip logic ----------------------

/** A condition the builder offers: a select's value and how it reads. */
export interface ConditionChoice {
  value: string;
  label: string;
}

const plainText = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .trim()
    .slice(0, 60);

/**
 * The conditions a question on page `pageIndex` may have: a choice picked in a choice question on
 * an earlier page (`q:<question>:<choice>`), or a custom variable of the link (`var:<name>`, with
 * the value typed beside it).
 */
export function conditionChoices(
  earlier: ReadonlyArray<{ id: string; doc: StoredQuestion }>,
  variables: readonly string[],
  numbers: ReadonlyMap<string, number>,
  calculated: readonly string[] = [],
): ConditionChoice[] {
  const out: ConditionChoice[] = [];
  const readable = (text: string) => plainText(readableRecalls(text, numbers));
  for (const q of earlier)
    for (const c of q.doc.answers?.choices ?? [])
      out.push({
        value: `q:${q.id}:${c.id}`,
        label: `"${readable(q.doc.headings[0]?.heading ?? '')}" is answered "${readable(c.text)}"`,
      });
  for (const v of variables)
    out.push({ value: `var:${v}`, label: `Custom variable "${v}" equals the value below` });
  // A calculated variable (`calc-gt:<name>`…): its value compared with the number typed beside it.
  for (const v of calculated)
    for (const [op, words] of Object.entries(CALC_OPERATORS))
      out.push({ value: `calc-${op}:${v}`, label: `Calculated variable "${v}" ${words} the value below` });
  return out;
}

const CALC_OPERATORS = { gt: 'is greater than', lt: 'is less than', eq: 'equals' } as const;

/** A page rule's "Only if" fields: a calculated variable compared with a typed value (`when`). */
export function ruleWhenFields(id: string, names: readonly string[], logic: Logic | null | undefined): Html {
  if (names.length === 0) return html``;
  const w = logic?.when;
  const current = w
    ? `calc-${Object.entries(CALC_STORED).find(([, o]) => o === w.operator)?.[0] ?? 'eq'}:${w.variable}`
    : '';
  const opt = (v: string, text: string) =>
    html`<option value="${v}"${current === v ? raw(' selected') : ''}>${text}</option>`;
  const options = names.flatMap((n) =>
    Object.entries(CALC_OPERATORS).map(([op, words]) => opt(`calc-${op}:${n}`, `"${n}" ${words} the value`)),
  );
  return html`<span class="field"><label for="${id}-when">Only if</label>
<select id="${id}-when" name="when">${opt('', 'Always')}${options}</select></span>
<span class="field"><label for="${id}-when-value">Value</label>
<input id="${id}-when-value" name="when_value" type="text" maxlength="100" value="${w?.value ?? ''}"></span>`;
}

/** The `when` of a page rule's form, or undefined for "Always". */
export function whenOf(when: string | undefined, value: string | undefined): Logic['when'] {
  const calc = /^calc-(gt|lt|eq):(.{1,100})$/.exec(when ?? '');
  if (!calc) return undefined;
  if (!value?.trim()) throw new ApiError(1002, `Type the value "${calc[2]}" is compared with.`);
  return {
    variable: calc[2],
    operator: CALC_STORED[calc[1] as keyof typeof CALC_STORED],
    value: value.trim(),
  };
}
const CALC_STORED = { gt: 'greater_than', lt: 'less_than', eq: 'equals' } as const;

/** A stored condition as the select's value ('' for always shown). */
export function conditionValue(d: DisplayLogic | undefined): string {
  if (!d) return '';
  if (d.custom_variable !== undefined) return `var:${d.custom_variable}`;
  if (d.variable !== undefined) {
    const op = Object.entries(CALC_STORED).find(([, o]) => o === d.operator)?.[0] ?? 'eq';
    return `calc-${op}:${d.variable}`;
  }
  return `q:${d.question_id}:${d.choice_ids?.[0] ?? ''}`;
}

/** The condition a form names; null for "always show". The domain judges whether it may look there. */
export function conditionOf(show: string | undefined, value: string | undefined): DisplayLogic | null {
  if (!show) return null;
  const q = /^q:([0-9]{1,20}):([0-9]{1,20})$/.exec(show);
  if (q) return { question_id: q[1], choice_ids: [q[2]] };
  const calc = /^calc-(gt|lt|eq):(.{1,100})$/.exec(show);
  if (calc) {
    if (!value?.trim())
      throw new ApiError(1002, `Type the number the calculated variable "${calc[2]}" is compared with.`);
    const op = calc[1] as keyof typeof CALC_STORED;
    return { variable: calc[2], operator: CALC_STORED[op], value: value.trim() };
  }
  const v = /^var:(.{1,100})$/.exec(show)?.[1];
  if (v === undefined) throw new ApiError(1002, 'Choose when the question is shown.');
  if (!value?.trim()) throw new ApiError(1002, `Type the value the custom variable "${v}" must have.`);
  return { custom_variable: v, value: value.trim() };
}

/** The marker of a condition in the question list. */
export function conditionMarker(d: DisplayLogic | undefined, choices: readonly ConditionChoice[]): Html {
  if (!d) return html``;
  const known = choices.find((c) => c.value === conditionValue(d));
  const text =
    d.variable !== undefined
      ? `calculated variable "${d.variable}" ${(d.operator ?? 'equals').replace('_', ' ')} ${d.value ?? ''}`
      : d.custom_variable !== undefined
        ? `custom variable "${d.custom_variable}" ${d.operator === 'equals' ? 'equals' : (d.operator ?? 'equals').replace('_', ' ')} "${d.value ?? ''}"`
        : (known?.label ?? `question ${d.question_id} meets a condition`);
  return html`<p class="logic-note"><span class="badge accent">Shown if</span> ${text}</p>`;
}

// ---- the order of a page's questions (its `sorting`, randomise.ts) ------------------------------

const PAGE_ORDERS: Record<string, PageSorting | null> = {
  '': null,
  random: { type: 'random', ignore_last: false },
  random_last: { type: 'random', ignore_last: true },
  flip: { type: 'flip', ignore_last: false },
};

/** The page settings' select value as the page's `sorting` (an unknown value: as listed). */
export function pageOrderOf(value: string | undefined): PageSorting | null {
  return PAGE_ORDERS[value ?? ''] ?? null;
}

/** The "Order of questions" select of a page's settings form. */
export function pageOrderField(pageId: string, s: PageSorting | null): Html {
  const current = !s ? '' : s.type === 'flip' ? 'flip' : s.ignore_last ? 'random_last' : 'random';
  const option = (value: string, text: string) =>
    html`<option value="${value}"${current === value ? raw(' selected') : ''}>${text}</option>`;
  return html`<label for="page-${pageId}-order">Order of questions for respondents</label>
<select id="page-${pageId}-order" name="question_order">${option('', 'As listed')}${option('random', 'Random for each respondent')}${option('random_last', 'Random, last question kept last')}${option('flip', 'Flip (as listed or reversed)')}</select>`;
}
