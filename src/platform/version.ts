// The program's version: package.json's, read once at start-up (from src/ under tsx and from
// dist/ when installed, package.json is two folders up). The one place the version is read.
import { readFileSync } from 'node:fs';

function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  if (pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string')
    return pkg.version;
  throw new Error('package.json has no version');
}

export const VERSION: string = readVersion();
