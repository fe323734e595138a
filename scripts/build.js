// `npm run build`: dist/main.js, what bin/survey-service.js and the packed package run, bundled by
// esbuild from src/main.ts. Our modules, and the two libraries made of hundreds of small ES modules
// (typebox, kysely), go into a few files, split where a verb loads its area on demand; every other
// dependency is imported from node_modules as installed. Loading some 1,300 separate modules was
// most of a command's start (1.4 → 0.8 s of CPU for `user create`, 3.4 → 2.4 s for `serve` to its
// first answer, measured side by side). Types are checked by `npm run typecheck` (tsc --noEmit),
// whose isolatedModules refuses what esbuild's file-by-file view could get wrong.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const INLINED = new Set(['typebox', 'kysely']);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]
  .filter((name) => !INLINED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  splitting: true,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
