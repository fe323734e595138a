// The house rules of docs/architecture.md, read from the code's own imports: every arrow points
// down (or stays in its room), no import circles (type-only imports count: they couple too), none
// between the areas of src/domain/ either, no source file over 700 lines, no `as never` and at most
// 257 casts in all.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** Floors, bottom first: a file may import its own floor (rooms side by side) or any lower floor. */
const FLOORS: ReadonlyArray<readonly string[]> = [
  ['config.ts', 'platform'], // the kernel: configuration, errors, dates, plans, secrets, escaping, outbound HTTP
  ['db'], // Kysely, migrations, stores of the hot tables, the outbox's enqueue side
  ['telemetry'], // the logger and the metrics registry
  ['context.ts', 'caches.ts', 'domain'], // Deps (type-only) and the cache registry beside every rule
  ['outbox'], // the worker: deliveries, emails, fan-out, scheduled jobs
  ['http'], // HTTP machinery: the request pipeline, auth, rate limits, lenient parsing, headers
  ['api'], // routes: schemas and thin handlers
  ['web', 'oauth'], // pages
  ['ops'], // health and readiness, the metrics listener, backup, shutdown
  ['app.ts', 'compose.ts'], // the composition root
  ['cli'], // the command line
  ['main.ts'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const files = sourceFiles(SRC);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** The room a file belongs to: its top folder under src/, or the file itself at the top. */
function roomOf(file: string): string {
  return relative(SRC, file).split('/')[0];
}

function floorOf(room: string): number {
  const floor = FLOORS.findIndex((rooms) => rooms.includes(room));
  if (floor < 0) throw new Error(`src/${room} is on no floor: add it to FLOORS and docs/architecture.md`);
  return floor;
}

/** Relative imports (static, type-only, re-exports and dynamic), resolved to files. */
function importsOf(file: string): string[] {
  const specs = [...text.get(file)!.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1],
  );
  return specs.map((s) => normalize(join(dirname(file), s)).replace(/\.js$/, '.ts'));
}

// ---- Process-wide state: parsed, so a rule sees bindings and scopes, not lines. ----

const REGISTRY = join(SRC, 'caches.ts');

type FunctionNode = ts.FunctionLikeDeclaration;

const isFunction = (n: ts.Node): n is FunctionNode =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessor(n) ||
  ts.isSetAccessor(n);

/** A parsed file: every node with the function it runs in (none: while the module loads). */
interface Parsed {
  source: ts.SourceFile;
  nodes: ts.Node[];
  fn: Map<ts.Node, FunctionNode | ts.ClassLikeDeclaration | undefined>;
}

const parsedFiles = new Map<string, Parsed>();
function parse(file: string): Parsed {
  let p = parsedFiles.get(file);
  if (!p) {
    const source = ts.createSourceFile(file, text.get(file)!, ts.ScriptTarget.Latest, true);
    const nodes: ts.Node[] = [];
    const fn: Parsed['fn'] = new Map();
    const walk = (n: ts.Node, within: FunctionNode | ts.ClassLikeDeclaration | undefined): void => {
      nodes.push(n);
      fn.set(n, within);
      const inner = isFunction(n) || ts.isClassLike(n) ? n : within;
      n.forEachChild((c) => walk(c, inner));
    };
    source.forEachChild((c) => walk(c, undefined));
    p = { source, nodes, fn };
    parsedFiles.set(file, p);
  }
  return p;
}

/** Every node under `node`. */
function nodesOf(node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  const walk = (n: ts.Node): void => {
    out.push(n);
    n.forEachChild(walk);
  };
  node.forEachChild(walk);
  return out;
}

/** `new X(…)` (with X's name), or a literal array or object: something that can be filled. */
function containerKind(init: ts.Expression | undefined): string | null {
  let e = init;
  while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)))
    e = e.expression;
  if (!e) return null;
  if (ts.isNewExpression(e)) return `new ${e.expression.getText()}`;
  if (ts.isArrayLiteralExpression(e)) return 'array';
  if (ts.isObjectLiteralExpression(e)) return 'object';
  return null;
}

const MUTATORS = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'addAddress',
  'addRange',
  'addSubnet',
]);

/** The name `node` writes through, if it does: a mutating call on it, an assignment to it or one
 * of its members, `++`/`--` of it, `delete` of a member, or Object.assign into it. */
function writtenName(node: ts.Node): string | undefined {
  const named = (e: ts.Expression | undefined) => (e && ts.isIdentifier(e) ? e.text : undefined);
  const owner = (e: ts.Expression) =>
    ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? named(e.expression) : named(e);
  if (ts.isCallExpression(node)) {
    const callee = node.expression;
    if (ts.isPropertyAccessExpression(callee) && MUTATORS.has(callee.name.text))
      return named(callee.expression);
    if (callee.getText() === 'Object.assign') return named(node.arguments[0]);
  }
  if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  )
    return owner(node.left);
  if (
    (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
    (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
  )
    return owner(node.operand);
  if (ts.isDeleteExpression(node)) return owner(node.expression);
  return undefined;
}

/** Module-level bindings that hold state changed at run time: every `let`/`var`, and every `const`
 * container (`new …`, `[…]`, `{…}`) that a function or class of its file writes through. */
function moduleState(file: string): string[] {
  const { source, nodes, fn } = parse(file);
  const written = new Set(nodes.filter((n) => fn.get(n) !== undefined).map(writtenName));
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of statement.declarationList.declarations) {
      const name = d.name.getText();
      if (!constant) found.push(`${relative(SRC, file)}: let ${name}`);
      else if (written.has(name) && containerKind(d.initializer))
        found.push(`${relative(SRC, file)}: ${name} (${containerKind(d.initializer)}, written at run time)`);
    }
  }
  return found;
}

/** Whether `node` is the work of a registry entry: inside the argument of `….caches.<name>.get(…)`
 * or `.set(…)`. */
function inRegistryEntry(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent)
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ['get', 'set'].includes(n.expression.name.text) &&
      /\bcaches\.\w+$/.test(n.expression.expression.getText())
    )
      return true;
  return false;
}

/** What a function hands out that outlives its call: a function it returns, or the methods of an
 * object it returns. */
function handedOut(f: FunctionNode, fn: Parsed['fn']): ts.Node[] {
  if (!f.body) return [];
  const results = ts.isBlock(f.body)
    ? nodesOf(f.body)
        .filter((r): r is ts.ReturnStatement => ts.isReturnStatement(r) && fn.get(r) === f)
        .map((r) => r.expression)
    : [f.body];
  return results.flatMap((r): ts.Node[] => {
    const e = r && ts.isParenthesizedExpression(r) ? r.expression : r;
    if (!e) return [];
    if (isFunction(e)) return [e];
    if (ts.isObjectLiteralExpression(e))
      return e.properties.filter(
        (p) => ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && isFunction(p.initializer)),
      );
    return [];
  });
}

/** Caches kept outside the registry: the registry's kinds made elsewhere; a prepared statement
 * (db/prepared.ts: a compiled query, kept to save compiling) held by a module, an object or a
 * closure instead of a registry entry; a Map or Set a function's returned function fills (a
 * factory's hidden memo). */
function cachesOutside(file: string): string[] {
  const { source, nodes, fn } = parse(file);
  const where = (n: ts.Node) =>
    `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const found: string[] = [];
  for (const n of nodes) {
    if (
      ts.isNewExpression(n) &&
      ['CacheMap', 'StampedCache', 'Slot', 'Every'].includes(n.expression.getText())
    )
      found.push(`${where(n)}: new ${n.expression.getText()} outside the registry`);
    if (ts.isCallExpression(n) && /^prepared?Query$/.test(n.expression.getText()) && !inRegistryEntry(n)) {
      const holder = n.parent;
      const scope = fn.get(n);
      let kept: string | undefined;
      if (ts.isVariableDeclaration(holder) && holder.initializer === n) {
        const name = holder.name.getText();
        // At module level, or read by a function nested in the one that made it (a closure).
        const closure =
          scope && nodesOf(scope).some((x) => ts.isIdentifier(x) && x.text === name && fn.get(x) !== scope);
        if (!scope || closure) kept = name;
      } else if (
        ts.isBinaryExpression(holder) &&
        holder.right === n &&
        ts.isPropertyAccessExpression(holder.left)
      )
        kept = holder.left.getText();
      else if (ts.isPropertyDeclaration(holder)) kept = holder.name.getText();
      if (kept) found.push(`${where(n)}: prepared statement ${kept} kept outside the registry`);
    }
    if (
      ts.isVariableDeclaration(n) &&
      /^new (Weak)?(Map|Set)\b/.test(n.initializer?.getText() ?? '') &&
      fn.get(n) &&
      isFunction(fn.get(n)!)
    ) {
      const f = fn.get(n) as FunctionNode;
      const name = n.name.getText();
      if (handedOut(f, fn).some((k) => nodesOf(k).some((x) => writtenName(x) === name)))
        found.push(`${where(n)}: ${name} filled by the function ${f.name?.getText() ?? 'it'} returns`);
    }
  }
  return found;
}

describe('the house', () => {
  it('has every arrow pointing down or within a room', () => {
    const upward: string[] = [];
    for (const f of files) {
      const from = roomOf(f);
      for (const t of importsOf(f)) {
        const to = roomOf(t);
        if (to === from) continue;
        if (floorOf(to) > floorOf(from)) upward.push(`${relative(SRC, f)} -> ${relative(SRC, t)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps db/ on its own: it imports db/ and config.ts only', () => {
    const outside = files
      .filter((f) => roomOf(f) === 'db')
      .flatMap((f) => importsOf(f).map((t) => [f, t] as const))
      .filter(([, t]) => !['db', 'config.ts'].includes(roomOf(t)))
      .map(([f, t]) => `${relative(SRC, f)} -> ${relative(SRC, t)}`);
    expect(outside).toEqual([]);
  });

  it('has no import circles', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => text.has(t))]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 'open');
      stack.push(f);
      for (const t of graph.get(f)!) {
        if (state.get(t) === 'open')
          circles.push(
            stack
              .slice(stack.indexOf(t))
              .map((x) => relative(SRC, x))
              .join(' -> '),
          );
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('has no loops between domain areas', () => {
    // An area is a folder of src/domain/ (or a file at its top). Areas are layered like the floors
    // (docs/architecture.md, "Domain areas"): no chain of imports leads from an area back to itself.
    const DOMAIN = join(SRC, 'domain');
    const areaOf = (f: string) => relative(DOMAIN, f).split('/')[0].replace(/\.ts$/, '');
    const arrows = new Map<string, Map<string, string>>();
    for (const f of files.filter((f) => f.startsWith(`${DOMAIN}/`)))
      for (const t of importsOf(f).filter((t) => t.startsWith(`${DOMAIN}/`))) {
        const [from, to] = [areaOf(f), areaOf(t)];
        if (from === to) continue;
        const out = arrows.get(from) ?? arrows.set(from, new Map()).get(from)!;
        if (!out.has(to)) out.set(to, `${relative(SRC, f)} -> ${relative(SRC, t)}`);
      }
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (a: string): void => {
      state.set(a, 'open');
      stack.push(a);
      for (const b of arrows.get(a)?.keys() ?? []) {
        if (state.get(b) === 'open') {
          const loop = [...stack.slice(stack.indexOf(b)), b];
          const via = loop.slice(1).map((to, i) => arrows.get(loop[i])!.get(to)!);
          loops.push(`${loop.join(' -> ')} (${via.join('; ')})`);
        } else if (!state.has(b)) visit(b);
      }
      stack.pop();
      state.set(a, 'done');
    };
    for (const a of [...arrows.keys()].sort()) if (!state.has(a)) visit(a);
    expect(loops).toEqual([]);
  });

  it('has no source file over 700 lines', () => {
    const big = files.filter((f) => text.get(f)!.split('\n').length > 700).map((f) => relative(SRC, f));
    expect(big).toEqual([]);
  });

  it('types its shapes without `as never`', () => {
    const casts = files.filter((f) => text.get(f)!.includes('as never')).map((f) => relative(SRC, f));
    expect(casts).toEqual([]);
  });

  it('types values from their schemas: at most 257 `as` casts in src/ (half of 514)', () => {
    // A cast tells the compiler to stop checking. Types come from the schemas (Static<…>), from
    // narrowing and from checked parses; `as const` is not a cast.
    const casts = files.flatMap((f) =>
      parse(f)
        .nodes.filter(
          (n) => (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && n.type.getText() !== 'const',
        )
        .map(
          (n) =>
            `${relative(SRC, f)}:${parse(f).source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`,
        ),
    );
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(257);
  });

  it('keeps process-wide state in Deps, not in module-level maps', () => {
    // Constant lookup tables built once from literals are fine; anything filled at run time is a
    // cache. A WeakMap keyed by the request lives as long as the request: not process-wide.
    const maps = files.flatMap((f) =>
      [...text.get(f)!.matchAll(/^(?:export )?(?:const|let) (\w+)[^=\n]*= new (?:Weak)?Map(<.*>)?\(\);/gm)]
        .filter((m) => !m[2]?.startsWith('<FastifyRequest,'))
        .map((m) => `${relative(SRC, f)}: ${m[1]}`),
    );
    expect(maps).toEqual([]);
  });
  it('keeps no process-wide state in modules: every `let` and filled container is in Deps', () => {
    // Bindings of module scope that change after loading: state one process shares across every
    // Deps (so across databases, and across tests), cleared by nothing. Constant tables filled
    // while the module loads (literals, `new Set([…])`, BlockLists built from a list) are fine.
    const allowed: Record<string, string> = {
      // Keyed by the request, so an entry lives as long as its request: not process-wide.
      'web/session.ts: cache (new WeakMap, written at run time)': 'per request',
    };
    const state = files.filter((f) => f !== REGISTRY).flatMap(moduleState);
    expect(state.filter((s) => !(s in allowed))).toEqual([]);
    expect(Object.keys(allowed).filter((s) => !state.includes(s))).toEqual([]); // none stale
  });

  it('keeps every cache in the registry (src/caches.ts), not in closures or modules', () => {
    const allowed: Record<string, string> = {
      // The SQLite connection's own statement cache (bounded), part of deps.db and closed with it;
      // db/ sits below the registry and cannot name it.
      'db/database.ts: cache filled by the function withStatementCache returns': 'part of deps.db',
    };
    const outside = files
      .filter((f) => f !== REGISTRY)
      .flatMap(cachesOutside)
      .map((s) => s.replace(/:\d+:/, ':'));
    expect(outside.filter((s) => !(s in allowed))).toEqual([]);
    expect(Object.keys(allowed).filter((s) => !outside.includes(s))).toEqual([]); // none stale
  });

  it('types requests from their schemas: no `request.params/query/body as`', () => {
    // Routes (pages and API alike) declare params, querystring and body with TypeBox schemas, and
    // the TypeBox type provider types the request from them; a cast would type what no schema
    // validates.
    const casts = files.flatMap((f) =>
      text
        .get(f)!
        .split('\n')
        .flatMap((line, i) =>
          /\b(?:request|req)\.(?:params|query|body)\b(?:\s*\?\?\s*\{\s*\})?\)?\s+as\s+(?!const\b)/.test(line)
            ? [`${relative(SRC, f)}:${i + 1}`]
            : [],
        ),
    );
    expect(casts).toEqual([]);
  });
});
