#!/usr/bin/env node
// Keeps better-sqlite3's compiled binary where its installer looks before downloading one, so the
// next install on this machine unpacks it instead of compiling SQLite again. Its installer
// (prebuild-install) first tries a prebuilt binary from GitHub; a machine that reaches only the npm
// registry compiles SQLite from source instead, about 80 s of CPU on every fresh clone. The binary
// is filed as that download would have been, in npm's cache (~/.npm/_prebuilds), under a name made
// of the package's version, Node's ABI, the platform and the architecture, so a new version or a
// new Node compiles (and is filed) anew. CI runs this after `npm install`; nothing else needs it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('better-sqlite3/package.json'));
const binary = join(root, 'build', 'Release', 'better_sqlite3.node');
const pkg = require('better-sqlite3/package.json');
const util = require('prebuild-install/util');
const cached = util.cachedPrebuild(util.getDownloadUrl({ ...require('prebuild-install/rc')(pkg), pkg }));

if (existsSync(cached)) {
  console.log(`better-sqlite3: the compiled binary is kept at ${cached}`);
} else if (!existsSync(binary)) {
  console.log(`better-sqlite3: no compiled binary at ${binary}; nothing kept`);
} else {
  mkdirSync(dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  const tar = spawnSync('tar', ['-czf', partial, '-C', root, 'build/Release/better_sqlite3.node'], {
    stdio: 'inherit',
  });
  if (tar.status !== 0) process.exit(1);
  renameSync(partial, cached);
  console.log(`better-sqlite3: kept the compiled binary at ${cached} for the next install`);
}
