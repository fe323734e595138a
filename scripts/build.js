// `npm run build`: compiles src/ to dist/ (what bin/survey-service.js and the packed package run).
// esbuild strips the types file by file, in about a second; tsc's own emit took half a minute of CPU
// on every install. The types are checked by `npm run typecheck` (tsc --noEmit, CI's first step),
// whose `isolatedModules` refuses what a file-by-file compile could get wrong (a re-exported type).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join('src', f));

await build({
  entryPoints: sources,
  outdir: 'dist',
  outbase: 'src',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
