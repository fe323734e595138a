// The order Vitest starts test files in: the longest first, so the run does not end with one slow
// file alone on a fork while the other fork idles. Durations come from test/durations.json
// (seconds per file in each pass, measured: `node scripts/test-durations.js sqlite=<vitest json
// report> postgres=… scale=…` rewrites it), then from Vitest's own cache of the last run on this
// checkout; a file in neither (a new one) counts as the median known file.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** This run's pass: a file's time differs by database (and more when scaled out). */
const PASS =
  process.env.TEST_SCALE_OUT === '1'
    ? 'scale'
    : process.env.TEST_DATABASE_URL?.startsWith('postgres')
      ? 'postgres'
      : 'sqlite';

const KNOWN: Record<string, number> = (() => {
  try {
    const all: Record<string, Record<string, number>> = JSON.parse(
      readFileSync(new URL('../durations.json', import.meta.url), 'utf8'),
    );
    // A file not yet timed in this pass takes its SQLite time.
    return { ...all.sqlite, ...all[PASS] };
  } catch {
    return {};
  }
})();

const MEDIAN = (() => {
  const all = Object.values(KNOWN).sort((a, b) => a - b);
  return all.length ? all[Math.floor(all.length / 2)] : 0;
})();

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId).split('\\').join('/');
      if (file in KNOWN) return KNOWN[file];
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return cached ? cached.duration / 1000 : MEDIAN;
    };
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
