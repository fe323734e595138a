// An earlier release of this repository, built as a real program: the commit's files (git archive)
// under .tmp/releases/<commit>/ (gitignored), the checkout's node_modules linked in, compiled
// once and kept, so a run after the first starts it at once. Upgrade tests run its `serve` and
// `migrate` beside this release's on one database.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { ROOT } from './cli.js';

export interface Release {
  commit: string;
  /** The built release's folder (its dist/main.js is the command). */
  dir: string;
}

const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });

/** Why `commit` cannot be read from this checkout's history, or null when it can. A shallow clone
 * (CI's default depth) lacks it: one fetch of that commit is tried first. */
export function releaseUnavailable(commit: string): string | null {
  const has = () => git(['cat-file', '-e', `${commit}^{commit}`]).status === 0;
  if (has()) return null;
  const shallow = git(['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true';
  git(['fetch', '--quiet', '--depth=1', 'origin', commit]);
  if (has()) return null;
  return shallow
    ? `commit ${commit} is not in this shallow clone and could not be fetched: clone with history (fetch-depth: 0)`
    : `commit ${commit} is not in this repository's history`;
}

/** The release at `commit`, built on first use (several test processes may ask at once: each
 * builds into its own folder and the first rename wins). */
export function buildRelease(commit: string): Release {
  const dir = join(ROOT, '.tmp', 'releases', commit);
  if (existsSync(join(dir, 'dist', 'main.js'))) return { commit, dir };
  const work = `${dir}.building-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git archive ${commit} | tar -x -C "${work}"`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  // Transpiled as tsc would emit it, file by file (the release's types were checked when it was
  // made; esbuild takes a second where tsc takes half a minute of CPU).
  const sources = readdirSync(join(work, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(work, 'src', f));
  buildSync({
    entryPoints: sources,
    outbase: join(work, 'src'),
    outdir: join(work, 'dist'),
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    logLevel: 'error',
  });
  try {
    renameSync(work, dir);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another process built it first
  }
  return { commit, dir };
}

/** Runs a verb of the release to its end. */
export function runRelease(release: Release, args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['dist/main.js', ...args], {
    cwd: release.dir,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `serve` of the release; `ready` resolves once it listens. */
export function startReleaseServe(release: Release, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js', 'serve'], {
    cwd: release.dir,
    env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      output += c;
      if (c.toString().includes('listening')) resolve();
    });
    child.stderr!.on('data', (c: Buffer) => {
      output += c;
    });
    child.once('exit', (code) =>
      reject(new Error(`serve of ${release.commit} exited with ${code}: ${output}`)),
    );
  });
  return {
    child,
    ready,
    /** Everything the process printed (its log lines). */
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
