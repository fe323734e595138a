// The serve process's node flags (bin/survey-service.js explains them) are written in three
// launchers: the command's first line (npx, a global install, the systemd units, the bench),
// `npm start`, and the container's entry point. They must not drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const flags = (words: string[]) => words.filter((w) => w.startsWith('--'));

it('npm start, the container and the command itself run node with the same flags', () => {
  const shebang = flags(read('bin/survey-service.js').split('\n')[0].split(' '));
  const start = flags(JSON.parse(read('package.json')).scripts.start.split(' '));
  const entrypoint = flags(JSON.parse(/^ENTRYPOINT (.*)$/m.exec(read('Dockerfile'))?.[1] ?? '[]'));
  expect(shebang).toContain('--max-semi-space-size=64');
  expect(start).toEqual(shebang);
  expect(entrypoint).toEqual(shebang);
});
