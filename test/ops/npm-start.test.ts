// `npm start` as an operator runs it from a checkout: it serves the build that `npm install` made
// (no compile on every start), and SIGTERM to npm reaches the server, which exits: nothing is left
// running and the port closes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, runCliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  runCliJson(['migrate'], { DATABASE_URL: db.url });
  // A checkout's `npm install` builds dist/ (the prepare script); make sure this one has it.
  if (!existsSync(join(ROOT, 'dist/main.js')))
    await new Promise((resolve) =>
      spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' }).on('exit', resolve),
    );
}, 240_000);
afterAll(async () => {
  await db.drop();
});

/** Every process below `pid`, deepest last. */
function descendants(pid: number): number[] {
  const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  const children = r.stdout.split('\n').map(Number).filter(Boolean);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    return false;
  }
}

it('npm start serves without building, and SIGTERM to npm stops the server', async () => {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SECRET_KEY: 'npm-start-key-0123456789abcdefghijklmnopqrstuvwxyz',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (c) => {
    output += c;
  });
  npm.stderr.on('data', (c) => {
    output += c;
  });
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  let below: number[] = [];
  try {
    for (let i = 0; i < 300 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(port), output).toBe(true);
    // No compiler ran: the start script only starts the server.
    expect(output).not.toMatch(/\btsc\b/);
    below = descendants(npm.pid!);
    expect(below.length).toBeGreaterThan(0);

    npm.kill('SIGTERM');
    await exited;
    for (let i = 0; i < 100 && below.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(below.filter(alive)).toEqual([]);
    expect(await answers(port)).toBe(false);
  } finally {
    // A failing run must not leave the server behind.
    for (const pid of below) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (npm.exitCode === null) npm.kill('SIGKILL');
  }
}, 60_000);
