// The Node.js floor package.json declares (engines) is one every runtime dependency accepts: the
// lock's production packages, as `npm ci --omit=dev` installs them, each admit that version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

type Version = [number, number, number];

function version(text: string): Version {
  const [major, minor = 0, patch = 0] = text.split('.').map((p) => (p === 'x' || p === '*' ? 0 : Number(p)));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `v` satisfies an engines range of the forms the lock holds (>=, ^, N, N.x or N.*, *, ||, and). */
function satisfies(v: Version, range: string): boolean {
  return range
    .replace(/(>=|\^)\s+/g, '$1')
    .split('||')
    .some((alternative) =>
      alternative
        .trim()
        .split(/\s+/)
        .every((c) => {
          if (c === '*') return true;
          if (c.startsWith('>=')) return compare(v, version(c.slice(2))) >= 0;
          if (c.startsWith('^'))
            return v[0] === version(c.slice(1))[0] && compare(v, version(c.slice(1))) >= 0;
          if (/^\d+(\.[x*])?$/.test(c)) return v[0] === Number(c.split('.')[0]);
          throw new Error(`an engines range this test does not read: ${range}`);
        }),
    );
}

it('every production dependency runs on the declared Node.js floor', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const floor = /^>=\s*(\d+(\.\d+)*)$/.exec(pkg.engines.node)?.[1];
  expect(floor, pkg.engines.node).toBeDefined();
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } }>;
  };
  const refused = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && !p.dev && p.engines?.node)
    .filter(([, p]) => !satisfies(version(floor!), p.engines!.node!))
    .map(([path, p]) => `${path}@${p.version}: ${p.engines!.node}`);
  expect(refused).toEqual([]);
});
