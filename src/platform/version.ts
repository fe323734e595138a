// The program's package: the folder it is installed in and its version (package.json's, read once
// at start-up). The one place either is found. The module may run from src/ (tests, tsx) or from a
// file of the bundle in dist/ (the build), so the root is the nearest folder above it holding
// package.json, not a fixed number of folders up.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('no package.json above the program');
  }
}

/** The folder holding package.json, public/ and node_modules/. */
export const PACKAGE_ROOT: string = packageRoot();

function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  if (pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string')
    return pkg.version;
  throw new Error('package.json has no version');
}

export const VERSION: string = readVersion();
