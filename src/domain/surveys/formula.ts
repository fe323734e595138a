// The formula language of calculated variables: a tokenizer and a recursive-descent parser that
// give a tree, and the evaluator of that tree. Pure: what a reference is worth comes from the
// caller, so the respondent pages, the API's replay and the exports evaluate alike.
//
//   formula  := sum
//   sum      := product (('+' | '-') product)*
//   product  := unary (('*' | '/') unary)*
//   unary    := '-' unary | primary
//   primary  := number | '(' sum ')' | name | name '(' args ')'
// Numbers are decimal (`12`, `0.5`); `×`, `÷` and `−` read as `*`, `/` and `-`. A bare name is
// another variable; `question("id")`, `score("id")`, `variable("name")` and `custom_variable("name")`
// refer; `min(a, …)`, `max(a, …)` and `round(x)` / `round(x, digits)` compute.
//
// A value is a number or empty (null). Empty is what a missing answer, a division by zero and any
// arithmetic or round() over an empty value give; min() and max() skip empty arguments (empty
// when all are). round() rounds half away from zero.

export type RefKind = 'question' | 'score' | 'variable' | 'custom_variable';
export interface Ref {
  kind: RefKind;
  key: string;
}

export type Formula =
  | { t: 'num'; v: number }
  | { t: 'ref'; ref: Ref }
  | { t: 'neg'; e: Formula }
  | { t: 'bin'; op: '+' | '-' | '*' | '/'; l: Formula; r: Formula }
  | { t: 'call'; fn: 'min' | 'max' | 'round'; args: Formula[] };

/** A formula that does not parse: the message says what and where (1-based character). */
export class FormulaError extends Error {}

const REFS: readonly RefKind[] = ['question', 'score', 'variable', 'custom_variable'];
const FUNCTIONS = ['min', 'max', 'round'] as const;
export const FORMULA_MAX_LENGTH = 1000;
const MAX_DEPTH = 60;

type Token =
  | { k: 'num'; v: number; at: number }
  | { k: 'name'; v: string; at: number }
  | { k: 'str'; v: string; at: number }
  | { k: 'op'; v: string; at: number }
  | { k: 'end'; at: number };

const SYMBOLS: Readonly<Record<string, string>> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '*': '*',
  '×': '*',
  '/': '/',
  '÷': '/',
  '(': '(',
  ')': ')',
  ',': ',',
};

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(?:\d+(?:\.\d+)?|\.\d+)/.exec(text.slice(i));
    if (num) {
      out.push({ k: 'num', v: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name) {
      out.push({ k: 'name', v: name[0], at: i });
      i += name[0].length;
      continue;
    }
    if (ch === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new FormulaError(`the quote at character ${i + 1} is not closed.`);
      out.push({ k: 'str', v: text.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    const op = SYMBOLS[ch];
    if (!op) throw new FormulaError(`"${ch}" at character ${i + 1} is not part of a formula.`);
    out.push({ k: 'op', v: op, at: i });
    i++;
  }
  out.push({ k: 'end', at: text.length });
  return out;
}

/** The formula's tree; FormulaError when it does not parse. */
export function parseFormula(text: string): Formula {
  if (text.length > FORMULA_MAX_LENGTH)
    throw new FormulaError(`a formula has at most ${FORMULA_MAX_LENGTH} characters.`);
  const tokens = tokenize(text);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos];
  const where = (t: Token) => (t.k === 'end' ? 'at the end' : `at character ${t.at + 1}`);
  const isOp = (v: string) => {
    const t = peek();
    return t.k === 'op' && t.v === v;
  };
  const expect = (v: string) => {
    if (!isOp(v)) throw new FormulaError(`"${v}" was expected ${where(peek())}.`);
    pos++;
  };

  function sum(): Formula {
    if (++depth > MAX_DEPTH) throw new FormulaError('the formula nests too deeply.');
    let l = product();
    while (isOp('+') || isOp('-')) {
      const op = isOp('+') ? '+' : '-';
      pos++;
      l = { t: 'bin', op, l, r: product() };
    }
    depth--;
    return l;
  }
  function product(): Formula {
    let l = unary();
    while (isOp('*') || isOp('/')) {
      const op = isOp('*') ? '*' : '/';
      pos++;
      l = { t: 'bin', op, l, r: unary() };
    }
    return l;
  }
  function unary(): Formula {
    if (isOp('-')) {
      pos++;
      if (++depth > MAX_DEPTH) throw new FormulaError('the formula nests too deeply.');
      const e = unary();
      depth--;
      return { t: 'neg', e };
    }
    if (isOp('+')) {
      pos++;
      return unary();
    }
    return primary();
  }
  function primary(): Formula {
    const t = peek();
    if (t.k === 'num') {
      pos++;
      return { t: 'num', v: t.v };
    }
    if (t.k === 'op' && t.v === '(') {
      pos++;
      const e = sum();
      expect(')');
      return e;
    }
    if (t.k === 'name') {
      pos++;
      if (!isOp('(')) return { t: 'ref', ref: { kind: 'variable', key: t.v } };
      pos++;
      const kind = REFS.find((r) => r === t.v);
      if (kind) {
        const arg = peek();
        if (arg.k !== 'str')
          throw new FormulaError(`${t.v}() takes a quoted name or id, as ${t.v}("…"), ${where(arg)}.`);
        pos++;
        expect(')');
        return { t: 'ref', ref: { kind, key: arg.v } };
      }
      const fn = FUNCTIONS.find((f) => f === t.v);
      if (!fn)
        throw new FormulaError(
          `${t.v}() at character ${t.at + 1} is not a function; use min, max, round, question, score, variable or custom_variable.`,
        );
      const args: Formula[] = [];
      if (!isOp(')'))
        for (;;) {
          args.push(sum());
          if (!isOp(',')) break;
          pos++;
        }
      expect(')');
      if (fn === 'round' && (args.length < 1 || args.length > 2))
        throw new FormulaError(`round() takes a value and optionally the digits to keep.`);
      if (fn !== 'round' && args.length === 0) throw new FormulaError(`${fn}() needs at least one value.`);
      return { t: 'call', fn, args };
    }
    if (t.k === 'end') throw new FormulaError('the formula is empty or ends too soon.');
    throw new FormulaError(`a value was expected ${where(t)}.`);
  }

  const tree = sum();
  if (peek().k !== 'end') throw new FormulaError(`the formula should end ${where(peek())}.`);
  return tree;
}

/** Every reference of a formula, in the order written. */
export function formulaRefs(f: Formula, out: Ref[] = []): Ref[] {
  switch (f.t) {
    case 'ref':
      out.push(f.ref);
      break;
    case 'neg':
      formulaRefs(f.e, out);
      break;
    case 'bin':
      formulaRefs(f.l, out);
      formulaRefs(f.r, out);
      break;
    case 'call':
      for (const a of f.args) formulaRefs(a, out);
      break;
  }
  return out;
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

function roundTo(v: number, digits: number): number {
  const d = Math.max(0, Math.min(10, Math.trunc(digits)));
  const f = 10 ** d;
  // toPrecision first, so 1.005 × 100 (100.49999…) rounds as the 100.5 it was written as.
  return (Math.sign(v) * Math.round(Number((Math.abs(v) * f).toPrecision(15)))) / f;
}

/** The formula's value, a number or empty (null), with each reference's value from `value`. */
export function evaluate(f: Formula, value: (ref: Ref) => number | null): number | null {
  switch (f.t) {
    case 'num':
      return f.v;
    case 'ref':
      return value(f.ref);
    case 'neg': {
      const e = evaluate(f.e, value);
      return e === null ? null : -e;
    }
    case 'bin': {
      const l = evaluate(f.l, value);
      const r = evaluate(f.r, value);
      if (l === null || r === null) return null;
      if (f.op === '+') return finite(l + r);
      if (f.op === '-') return finite(l - r);
      if (f.op === '*') return finite(l * r);
      return r === 0 ? null : finite(l / r);
    }
    case 'call': {
      const args = f.args.map((a) => evaluate(a, value));
      if (f.fn === 'round') {
        const digits = args[1] === undefined ? 0 : args[1];
        return args[0] === null || digits === null ? null : roundTo(args[0], digits);
      }
      const known = args.filter((a) => a !== null);
      if (known.length === 0) return null;
      return f.fn === 'min' ? Math.min(...known) : Math.max(...known);
    }
  }
}

/** A value as text: empty for empty, else the number without binary noise (0.1 + 0.2 is "0.3"). */
export function formatValue(v: number | null): string {
  if (v === null) return '';
  const n = Number(v.toPrecision(12));
  return String(Object.is(n, -0) ? 0 : n);
}

/**
 * The names of `deps` (each variable's name → the variables its formula names) in an order where
 * each comes after those it names, or `{ cycle }`: the first name (in the given order) that takes
 * part in a cycle. Names not in `deps` are ignored (the caller refuses them).
 */
export function evaluationOrder(
  deps: ReadonlyArray<{ name: string; uses: readonly string[] }>,
): { order: string[] } | { cycle: string } {
  const uses = new Map(deps.map((d) => [d.name, d.uses.filter((u) => u !== undefined)]));
  const state = new Map<string, 'open' | 'done'>();
  const order: string[] = [];
  const visit = (name: string): boolean => {
    const s = state.get(name);
    if (s === 'done') return true;
    if (s === 'open') return false;
    state.set(name, 'open');
    for (const u of uses.get(name) ?? []) if (uses.has(u) && !visit(u)) return false;
    state.set(name, 'done');
    order.push(name);
    return true;
  };
  for (const d of deps) {
    if (!visit(d.name)) {
      // The first variable, in the given order, that reaches itself.
      for (const c of deps) if (reaches(uses, c.name, c.name)) return { cycle: c.name };
      return { cycle: d.name };
    }
  }
  return { order };
}

function reaches(uses: ReadonlyMap<string, string[]>, from: string, target: string): boolean {
  const seen = new Set<string>();
  const stack = [...(uses.get(from) ?? [])];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === target) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...(uses.get(n) ?? []));
  }
  return false;
}
