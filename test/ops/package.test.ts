// Installing without the source tree: `npm pack` builds the package, `npm install -g` puts a
// working `survey-service` in a temporary prefix, and it serves and provisions from there. Run on
// SQLite only: what is packed does not depend on the database.
// Two steps are not repeated when the checkout has already done them (they dominated the file's
// time on CI): the TypeScript build, when dist/ is fresh (npm pack runs it as prepack otherwise),
// and the compile of better-sqlite3's native module, copied from the checkout's own install when
// the installed package resolved the same version (else npm rebuilds it as an install would).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distIsFresh, ROOT } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

/** A command run without blocking this process (a minutes-long spawnSync starves vitest's RPC). */
function runAsync(cmd: string, args: string[], cwd: string) {
  return new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.stdout.resume();
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

describe.skipIf(usingPostgres)('the packed package (run on SQLite)', () => {
  let dir: string;
  let db: TestDatabase;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ss-pack-'));
    db = await createTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  it('npm pack + npm install -g gives a survey-service that serves, creates users and apps', async () => {
    const pack = await runAsync(
      'npm',
      ['pack', '--pack-destination', dir, ...(distIsFresh() ? ['--ignore-scripts'] : [])],
      ROOT,
    );
    expect(pack.status, pack.stderr).toBe(0);
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    const prefix = join(dir, 'prefix');
    const install = spawnSync(
      'npm',
      ['install', '-g', '--prefer-offline', '--ignore-scripts', '--prefix', prefix, join(dir, tgz)],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    expect(install.status, install.stderr).toBe(0);
    const installed = join(prefix, 'lib', 'node_modules', 'survey-service');
    const sqlite = (root: string) => join(root, 'node_modules', 'better-sqlite3');
    const version = (root: string) =>
      JSON.parse(readFileSync(join(sqlite(root), 'package.json'), 'utf8')).version as string;
    const native = join('build', 'Release', 'better_sqlite3.node');
    if (version(installed) === version(ROOT)) {
      mkdirSync(join(sqlite(installed), 'build', 'Release'), { recursive: true });
      copyFileSync(join(sqlite(ROOT), native), join(sqlite(installed), native));
    } else {
      const rebuild = await runAsync('npm', ['rebuild', 'better-sqlite3'], installed);
      expect(rebuild.status, rebuild.stderr).toBe(0);
    }
    const bin = join(prefix, 'bin', 'survey-service');
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'pack-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    };
    const run = (args: string[]) => {
      const r = spawnSync(bin, [...args, '--json'], { cwd: dir, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect(
      run(['user', 'create', '--username', 'pk', '--email', 'pk@example.com', '--password', 'pw pw pw pw']),
    ).toMatchObject({
      username: 'pk',
    });
    const app = run(['app', 'create', '--owner', 'pk', '--name', 'Packed']);
    const port = await freePort();
    const serve = spawn(bin, ['serve'], { cwd: dir, env: { ...env, PORT: String(port) } });
    try {
      await new Promise<void>((resolve, reject) => {
        serve.stdout.on('data', (c) => String(c).includes('listening') && resolve());
        serve.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const me = await fetch(`http://127.0.0.1:${port}/v3/users/me`, {
        headers: { authorization: `bearer ${app.access_token}` },
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { username: string }).username).toBe('pk');
      expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
    } finally {
      serve.kill('SIGTERM');
    }
  }, 600_000);
});
