// Runs the survey-service command, as operators run it, in a child process: the build in dist/
// when it is newer than every source file (CI's `npm install` builds it just before the tests),
// else from source through tsx, which compiles every module it loads in each process (about twice
// the CPU time per verb). TEST_CLI_FROM_SOURCE=1 always runs from source.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Whether dist/main.js (the bundle `npm run build` writes) is at least as new as every source file. */
export function distIsFresh(root = ROOT): boolean {
  let built: number;
  try {
    built = statSync(join(root, 'dist', 'main.js')).mtimeMs;
  } catch {
    return false;
  }
  const src = join(root, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .every((f) => statSync(join(src, f)).mtimeMs <= built);
}

/** Node's arguments that run the command (before the verb's). */
export const CLI_ARGS =
  process.env.TEST_CLI_FROM_SOURCE !== '1' && distIsFresh()
    ? ['dist/main.js']
    : ['--import', 'tsx', 'src/main.ts'];

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): CliResult {
  const r = spawnSync(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runCli without blocking this process, so a test server in it keeps answering meanwhile. */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs a verb with --json and parses its one JSON object. */
export function runCliJson(args: string[], env: Record<string, string>): any {
  const r = runCli([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`survey-service ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** runCliJson without blocking the test's event loop (servers and proxies in the test process
 * keep answering while the verb runs). */
export async function runCliJsonAsync(args: string[], env: Record<string, string>): Promise<any> {
  const r = await runCliAsync([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`survey-service ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Starts `survey-service serve [args]` as its own process; resolves once it listens. */
export function startServeProcess(env: Record<string, string>, args: string[] = []) {
  return startProcess(['serve', ...args], env, 'listening');
}

/** Starts `survey-service worker` (the outbox alone) as its own process; resolves once it runs. */
export function startWorkerProcess(env: Record<string, string>) {
  return startProcess(['worker'], env, 'worker running');
}

function startProcess(args: string[], env: Record<string, string>, readyText: string) {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes(readyText)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    ready,
    /** What the process wrote to stderr so far. */
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
