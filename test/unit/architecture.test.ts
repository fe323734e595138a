// The house rules of docs/architecture.md, read from the code's own imports: every arrow points
// down (or stays in its room), no import circles (type-only imports count: they couple too), no
// source file over 700 lines, no `as never`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
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

  it('has no source file over 700 lines', () => {
    const big = files.filter((f) => text.get(f)!.split('\n').length > 700).map((f) => relative(SRC, f));
    expect(big).toEqual([]);
  });

  it('types its shapes without `as never`', () => {
    const casts = files.filter((f) => text.get(f)!.includes('as never')).map((f) => relative(SRC, f));
    expect(casts).toEqual([]);
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

  it('types page requests from their schemas: no `request.params/query/body as`', () => {
    // Page routes declare params, querystring and body with TypeBox schemas (the page areas' type
    // provider types the request from them); a cast would type what no schema validates.
    const pages = files.filter((f) => ['web', 'oauth'].includes(roomOf(f)));
    const casts = pages.flatMap((f) =>
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
