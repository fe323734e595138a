// The program's version: package.json's, read once at start-up (from src/ under tsx and from
// dist/ when installed, package.json is two folders up). The one place the version is read.
import { readFileSync } from 'node:fs';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
