// The memory of concurrent sign-ins: starts `survey-service serve` on a new SQLite file with the
// default scrypt cost (SCRYPT_LOG_N=17, 128 MiB a hash), signs N accounts in at once
// through the login form, and prints the serve process's resident memory before and its peak
// (Linux's VmHWM) after. Run from a checkout:
//   node scripts/signin-footprint.mjs [--concurrent 8] [--rounds 3] [-- extra VAR=value ...]
// e.g. PASSWORD_HASH_CONCURRENCY=4 node scripts/signin-footprint.mjs
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { concurrent: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } },
});
const CONCURRENT = Number(args.concurrent);
const ROUNDS = Number(args.rounds);
const root = new URL('..', import.meta.url).pathname;
const entry = existsSync(join(root, 'dist/main.js')) ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
const dir = mkdtempSync(join(tmpdir(), 'ss-footprint-'));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
  MAIL_DIR: join(dir, 'mail'),
  LOG_LEVEL: 'silent',
  SCRYPT_LOG_N: process.env.SCRYPT_LOG_N ?? '17',
};

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
// One account per concurrent sign-in (the throttle slows many at once on one account) and one to warm.
for (let i = 0; i <= CONCURRENT; i++) {
  const made = spawnSync(
    process.execPath,
    [
      ...entry,
      'user',
      'create',
      '--username',
      `footprint${i}`,
      '--email',
      `f${i}@example.org`,
      '--password',
      'footprint pw',
    ],
    { cwd: root, env, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(made.stderr);
}

const serve = spawn(process.execPath, ['--max-semi-space-size=64', ...entry, 'serve'], {
  cwd: root,
  env: { ...env, PORT: String(port), HOST: '127.0.0.1', OUTBOX_IN_SERVE: 'false' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve, reject) => {
  serve.stdout.on('data', (c) => String(c).includes('listening') && resolve());
  serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
const status = () => readFileSync(`/proc/${serve.pid}/status`, 'utf8');
const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status())[1]);
const mb = (k) => `${Math.round(k / 1024)} MB`;

async function signIn(i) {
  const page = await fetch(`${base}/login`);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())[1];
  const r = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      username: `footprint${i}`,
      password: 'footprint pw',
    }).toString(),
    redirect: 'manual',
  });
  await r.text();
  return r.headers.getSetCookie().some((c) => c.startsWith('ss_session='));
}

try {
  await signIn(CONCURRENT); // warm: modules loaded, one hash done
  const before = kb('VmRSS');
  const peakBefore = kb('VmHWM');
  let ok = 0;
  for (let round = 0; round < ROUNDS; round++)
    ok += (await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => signIn(i)))).filter(Boolean).length;
  console.log(
    JSON.stringify({
      concurrent: CONCURRENT,
      rounds: ROUNDS,
      signed_in: ok,
      scrypt_log_n: Number(env.SCRYPT_LOG_N),
      password_hash_concurrency: process.env.PASSWORD_HASH_CONCURRENCY ?? 'default',
      rss_before: mb(before),
      peak_rss_before: mb(peakBefore),
      peak_rss_after: mb(kb('VmHWM')),
      entry: entry.join(' '),
    }),
  );
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
