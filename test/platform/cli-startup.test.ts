// Start-up cost of the command line: help, the version and a wrong variable are answered before the
// application's modules load (each verb imports what it runs when it runs). Node's debug logs
// (NODE_DEBUG=module,esm) name every module a run loads: CommonJS packages in the first, ES modules
// in the second.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startServeProcess } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';

/** Every package a line of Node's module logs names. */
const packagesIn = (log: string) =>
  new Set([...log.matchAll(/node_modules\/((?:@[^/]+\/)?[^/'"\s]+)\//g)].map((m) => m[1]));

function modulesLoaded(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', NODE_DEBUG: 'module,esm', ...env },
    encoding: 'utf8',
    maxBuffer: 1024 ** 3, // the logs of a verb that runs run to tens of megabytes
  });
  const modules = [...r.stderr.matchAll(/Storing (file:\/\/\S+)/g)].map((m) =>
    m[1].slice(`file://${ROOT}`.length),
  );
  const packages = packagesIn(r.stderr);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('survey-service:'));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, errors, modules, packages };
}

// What a cheap answer must not load: the services, the database, the web stack and TypeBox.
const HEAVY =
  /^(src\/(app|compose)\.ts|src\/(db|http|api|web|oauth|outbox|ops)\/|node_modules\/(typebox|fastify|kysely|better-sqlite3|pg|exceljs)\/)/;

describe('survey-service start-up', () => {
  it('prints help without loading the application', () => {
    for (const args of [['--help'], ['user', 'create', '--help'], ['export', '--help']]) {
      const r = modulesLoaded(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: survey-service');
      expect(r.modules.filter((m) => HEAVY.test(m))).toEqual([]);
    }
  });

  it('reports a wrong variable before the application loads', () => {
    for (const args of [['serve'], ['migrate'], ['user', 'invite', '--email', 'a@example.com']]) {
      const r = modulesLoaded(args, { TRUST_PROXY: 'bogus' });
      expect(r.status).toBe(1);
      expect(r.errors).toEqual([
        'survey-service: TRUST_PROXY="bogus" is not allowed: TRUST_PROXY must be true or false',
      ]);
      expect(r.modules).toContain('src/config.ts');
      expect(r.modules.filter((m) => HEAVY.test(m))).toEqual([]);
    }
  });

  it('loads only what a verb uses: on SQLite, neither PostgreSQL’s client, ajv nor prom-client', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ss-startup-'));
    try {
      const r = modulesLoaded(
        ['user', 'create', '--username', 'ada', '--email', 'ada@example.com', '--password', 'password1'],
        { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` },
      );
      expect(r.status, r.stderr.slice(-2000)).toBe(0);
      expect(r.packages).toContain('better-sqlite3');
      expect([...r.packages].filter((p) => ['pg', 'ajv', 'prom-client'].includes(p))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves without loading the libraries of sign-in providers, passkeys, mail or QR codes', async () => {
    // each loads at its first use: together they were 0.8 of the 2.7 s of CPU serve took to its
    // first answer
    const dir = mkdtempSync(join(tmpdir(), 'ss-startup-'));
    const serve = startServeProcess({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      PORT: String(await freePort()),
      PUBLIC_URL: 'http://localhost',
      SECRET_KEY: 'startup-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
      NODE_DEBUG: 'module,esm',
    });
    try {
      await serve.ready;
      const packages = packagesIn(serve.stderr());
      expect(packages).toContain('fastify');
      const lazy = [
        '@simplewebauthn/server',
        '@node-saml/node-saml',
        'openid-client',
        'nodemailer',
        'qrcode',
      ];
      expect([...packages].filter((p) => lazy.includes(p))).toEqual([]);
    } finally {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
