// LimeSurvey relevance equations (Expression Manager) that are simple conditions on an earlier
// answer, as this service's display logic (a question shown only when the condition holds):
//   Q1 == "A1", ((Q1.NAOK == "A1")), Q1 != 'A1', Q1 eq "A1", Q1 == "A1" or Q1 == "A2"
//   Q2_SQ001 == "Y" (a multiple choice option checked), Q2_SQ001 != "Y", !is_empty(Q3), is_empty(Q3)
//   Q4 > 10, Q4 < 10, Q4 gt 10 (numbers and texts)
// Anything else (and, functions, several questions, tokens…) is answered as unconverted.

export interface Target {
  /** The question's id in the converted design. */
  id: string;
  /** The page (group order) the question is on: a condition must be on an earlier page. */
  page: number;
  kind: 'single' | 'multi' | 'value' | 'none';
  choiceOf: Map<string, string>;
  subChoiceOf: Map<string, string>;
}

export interface DisplayLogic {
  question_id: string;
  operator: string;
  choice_ids?: string[];
  value?: string;
}

export type Converted = { logic: DisplayLogic } | { always: true } | { reason: string };

const OPS: Record<string, string> = {
  '==': '==',
  eq: '==',
  '!=': '!=',
  ne: '!=',
  '>': '>',
  gt: '>',
  '<': '<',
  lt: '<',
};

interface Clause {
  name: string;
  op: string;
  value: string;
}

/** The relevance without its outer parentheses and spaces. */
function strip(expr: string): string {
  let e = expr.trim();
  for (;;) {
    if (!(e.startsWith('(') && e.endsWith(')'))) return e;
    // only when the first parenthesis closes at the end
    let depth = 0;
    let closesAtEnd = true;
    for (let i = 0; i < e.length; i++) {
      if (e[i] === '(') depth++;
      else if (e[i] === ')') depth--;
      if (depth === 0 && i < e.length - 1) {
        closesAtEnd = false;
        break;
      }
    }
    if (!closesAtEnd) return e;
    e = e.slice(1, -1).trim();
  }
}

const NAME = String.raw`([A-Za-z_][A-Za-z0-9_]*|\d+X\d+X\d+[A-Za-z0-9_#]*)(?:\.NAOK|\.value|\.code)?`;
const VALUE = String.raw`(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))`;
const CLAUSE = new RegExp(String.raw`^${NAME}\s*(==|!=|>|<|\beq\b|\bne\b|\bgt\b|\blt\b)\s*${VALUE}$`);
const EMPTY = new RegExp(String.raw`^(!)?\s*is_empty\(\s*${NAME}\s*\)$`);

function clause(text: string): Clause | 'empty' | 'not_empty' | null {
  const e = strip(text);
  const m = CLAUSE.exec(e);
  if (m) return { name: m[1], op: OPS[m[2]], value: m[3] ?? m[4] ?? m[5] ?? '' };
  const n = EMPTY.exec(e);
  if (n) return { name: n[2], op: n[1] ? 'answered' : 'not_answered', value: '' } as Clause;
  return null;
}

/**
 * The display logic of a relevance equation. `resolve` finds a question by the name the equation
 * uses (its code, its SGQA, or code_SUBCODE: then `sub` is the subquestion's code); `page` is the
 * page of the question the equation belongs to.
 */
export function convertRelevance(
  equation: string,
  page: number,
  resolve: (name: string) => { target: Target; sub?: string } | undefined,
): Converted {
  const e = strip(equation.replace(/\s+/g, ' '));
  if (e === '' || e === '1' || e === 'true') return { always: true };
  const parts = e.split(/\s+(?:or|\|\|)\s+/i);
  const clauses = parts.map(clause);
  if (clauses.some((c) => c === null || typeof c === 'string') || / and |&&/i.test(e))
    return {
      reason: `the condition "${equation}" is more than one simple comparison with an earlier answer`,
    };
  const cs = clauses.filter((c): c is Clause => c !== null && typeof c !== 'string');
  const found = cs.map((c) => ({ c, r: resolve(c.name) }));
  const miss = found.find((f) => !f.r);
  if (miss)
    return {
      reason: `the condition "${equation}" names ${miss.c.name}, which is not a question carried over`,
    };
  const first = found[0].r!;
  if (found.some((f) => f.r!.target.id !== first.target.id))
    return { reason: `the condition "${equation}" compares more than one question` };
  const t = first.target;
  if (t.page >= page)
    return { reason: `the condition "${equation}" depends on an answer on the same page or a later one` };
  const [one] = cs;
  if (cs.length === 1 && (one.op === 'answered' || one.op === 'not_answered') && !first.sub)
    return { logic: { question_id: t.id, operator: one.op } };
  // A single choice: == code (or several, joined by or) -> selected; != code -> not selected.
  if (t.kind === 'single' && !first.sub) {
    const ids = cs.map((c) => t.choiceOf.get(c.value));
    if (ids.some((x) => !x))
      return { reason: `the condition "${equation}" compares with a code that is not an option` };
    if (cs.every((c) => c.op === '=='))
      return { logic: { question_id: t.id, operator: 'selected', choice_ids: ids.map(String) } };
    if (cs.length === 1 && one.op === '!=')
      return { logic: { question_id: t.id, operator: 'not_selected', choice_ids: ids.map(String) } };
  }
  // A multiple choice option: Q_SQ == "Y" -> selected, != "Y" or == "" -> not selected.
  if (t.kind === 'multi' && first.sub !== undefined && found.every((f) => f.r!.sub !== undefined)) {
    const ids = found.map((f) => t.subChoiceOf.get(f.r!.sub!));
    if (ids.some((x) => !x))
      return { reason: `the condition "${equation}" names an option that is not there` };
    const checked = cs.every((c) => (c.op === '==' && c.value === 'Y') || (c.op === '!=' && c.value === ''));
    if (checked) return { logic: { question_id: t.id, operator: 'selected', choice_ids: ids.map(String) } };
    if (cs.length === 1 && ((one.op === '!=' && one.value === 'Y') || (one.op === '==' && one.value === '')))
      return { logic: { question_id: t.id, operator: 'not_selected', choice_ids: ids.map(String) } };
  }
  if (t.kind === 'value' && cs.length === 1 && !first.sub) {
    const operator = { '==': 'equals', '!=': 'not_equals', '>': 'greater_than', '<': 'less_than' }[one.op];
    if (operator) return { logic: { question_id: t.id, operator, value: one.value } };
  }
  return { reason: `the condition "${equation}" is not one this service can show a question on` };
}
