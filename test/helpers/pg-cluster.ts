// A throwaway PostgreSQL cluster of its own (initdb in /tmp, its own port), for tests that stop
// and start the database under a running service. The server binaries must not run as root, so
// every command runs as the postgres user when the tests run as root.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports.js';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory, or null. */
export function postgresBinaries(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(PG_ROOT, versions[0], 'bin') : null;
}

export interface PgCluster {
  port: number;
  /** A URL for database `name` on this cluster. */
  url(name: string): string;
  createDatabase(name: string): Promise<void>;
  /** pg_ctl stop -m fast: open connections are terminated, new ones refused. */
  stop(): Promise<unknown>;
  start(): Promise<unknown>;
  destroy(): void;
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(`no PostgreSQL server binaries under ${PG_ROOT}`);
  const dir = mkdtempSync(join(tmpdir(), 'ss-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const run = (tool: string, args: string[]) => execFileSync(...command(tool, args), { stdio: 'pipe' });
  // Asynchronous, so the test's own load keeps running while the server stops or starts.
  const runAsync = (tool: string, args: string[]) => promisify(execFile)(...command(tool, args));
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctlArgs = (args: string[]) => ['-D', data, '-l', join(dir, 'log'), '-w', ...args];
  run('pg_ctl', ctlArgs(['-o', options, 'start']));
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const c = new pg.Client({ connectionString: url('postgres') });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
    },
    stop: () => runAsync('pg_ctl', ctlArgs(['-m', 'fast', 'stop'])),
    start: () => runAsync('pg_ctl', ctlArgs(['-o', options, 'start'])),
    destroy() {
      try {
        run('pg_ctl', ctlArgs(['-m', 'immediate', 'stop']));
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
