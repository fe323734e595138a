// The container and unit files, checked as far as a machine without Docker or systemd allows (they
// are not built or started here): the compose file parses, runs only real verbs, sets only
// variables the service reads, and health-checks what it starts; the image holds exactly what
// `npm pack` ships (it installs the packed package) plus production dependencies, runs as `node`
// and health-checks /healthz without curl; the worker's unit runs the `worker` verb.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENV_SCHEMA } from '../../src/config.js';
import { ROOT, runCliAsync } from '../helpers/cli.js';
import { createTestDatabase, usingPostgres } from '../helpers/database.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const VARIABLES = new Set(Object.keys(ENV_SCHEMA.properties));

/** The verbs the CLI lists in its help, and the files `npm pack` ships: each asked once, without
 * blocking this process. */
let verbs: string[] = [];
let packed: string[] = [];
beforeAll(async () => {
  const help = await runCliAsync(['--help'], {});
  expect(help.status, help.stderr).toBe(0);
  verbs = [...help.stdout.slice(help.stdout.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+)/gm)].map(
    (m) => m[1],
  );
  const pack = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']);
  packed = (JSON.parse(pack) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}, 120_000);

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}`))));
  });
}

function expectVerb(verb: string) {
  expect(verbs, verb).toContain(verb);
}

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
}

describe('deploy/compose.yaml', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { services } = compose;
  const ours = Object.entries(services).filter(([, s]) => s.image?.startsWith('survey-service'));

  it('runs PostgreSQL with a volume and a health check, and serve and a separate worker', () => {
    expect(services.postgres.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(Object.keys(compose.volumes)).toContain(services.postgres.volumes![0].split(':')[0]);
    expect(services.postgres.healthcheck?.test?.join(' ')).toContain('pg_isready');
    expect(services.serve.command).toEqual(['serve']);
    expect(services.serve.environment?.OUTBOX_IN_SERVE).toBe('false');
    expect(services.worker.command).toEqual(['worker']);
    expect(services.migrate.depends_on?.postgres.condition).toBe('service_healthy');
  });

  it('runs only verbs the CLI has, and sets only variables the service reads', () => {
    expect(ours.map(([name]) => name).sort()).toEqual(['backup', 'migrate', 'serve', 'worker']);
    for (const [name, s] of ours) {
      expect(s.env_file, name).toBe('survey-service.env');
      expectVerb(s.command![0]);
      for (const variable of Object.keys(s.environment ?? {}))
        expect(VARIABLES.has(variable), `${name}: ${variable}`).toBe(true);
      expect(s.environment?.DATABASE_URL, name).toMatch(
        /^postgres:\/\/survey:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/survey$/,
      );
    }
  });

  it('health-checks serve on its /healthz and the worker on its metrics listener, with node (no curl)', () => {
    const serve = services.serve.healthcheck!.test!.join(' ');
    expect(serve).toContain(`node -e fetch('http://127.0.0.1:${services.serve.environment!.PORT}/healthz')`);
    const worker = services.worker.healthcheck!.test!.join(' ');
    expect(worker).toContain(
      `fetch('http://127.0.0.1:${services.worker.environment!.METRICS_PORT}/metrics')`,
    );
  });
});

describe('compose: metrics a Prometheus in the network can scrape', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, Service & { profiles?: string[] }>;
  };
  const { services } = compose;
  const prometheus = parse(read('deploy/prometheus.yml')) as {
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
  };

  it('serve and worker listen on every address and answer their own service name, not published', () => {
    for (const name of ['serve', 'worker']) {
      const env = services[name].environment!;
      expect(env.METRICS_HOST, name).toBe('0.0.0.0');
      expect(env.METRICS_ALLOWED_HOSTS?.split(','), name).toContain(name);
      expect(JSON.stringify((services[name] as { ports?: string[] }).ports ?? []), name).not.toContain(
        env.METRICS_PORT,
      );
    }
  });

  it('Prometheus scrapes each by its name and port under the job the alerts read, with the rules', () => {
    const job = prometheus.scrape_configs.find((j) => j.job_name === 'survey-service');
    const targets = job!.static_configs.flatMap((c) => c.targets);
    expect(targets.sort()).toEqual(
      ['serve', 'worker'].map((name) => `${name}:${services[name].environment!.METRICS_PORT}`).sort(),
    );
    expect(read('deploy/alerts.yml')).toContain('up{job="survey-service"}');
    const mounted = services.prometheus.volumes!.map((v) => v.split(':'));
    expect(mounted).toEqual(
      expect.arrayContaining([
        ['./prometheus.yml', '/etc/prometheus/prometheus.yml', 'ro'],
        ['./alerts.yml', prometheus.rule_files[0], 'ro'],
      ]),
    );
    expect(services.prometheus.profiles).toEqual(['monitoring']);
  });
});

describe('compose: backups', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, Service & { profiles?: string[] }>;
  };
  const { services } = compose;
  const dockerfile = read('Dockerfile');
  const arg = (name: string) => new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(dockerfile)?.[1];
  /** PostgreSQL's major in each Debian release's own packages. */
  const DEBIAN_POSTGRES: Record<string, string> = { bookworm: '15', trixie: '17' };

  it("the image's client tools are of compose's PostgreSQL major, from the base image's Debian packages", () => {
    const serverMajor = /^postgres:(\d+)/.exec(services.postgres.image!)?.[1];
    expect(serverMajor).toBeDefined();
    expect(arg('PG_MAJOR')).toBe(serverMajor);
    expect(DEBIAN_POSTGRES[arg('DEBIAN_RELEASE')!]).toBe(serverMajor);
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(final).toMatch(/^FROM node:\$\{NODE_VERSION\}-\$\{DEBIAN_RELEASE\}-slim$/m);
    expect(final.replace(/\s*\\\n\s*/g, ' ')).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own text
      'apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} && rm -rf /var/lib/apt/lists/*',
    );
  });

  it('a backup service (profile backup) runs the image on the database, writing to deploy/backups', () => {
    const backup = services.backup;
    expect(backup.profiles).toEqual(['backup']);
    expect(backup.image).toBe(services.serve.image);
    expect(backup.environment?.DATABASE_URL).toBe(services.serve.environment?.DATABASE_URL);
    expect(backup.volumes).toEqual(expect.arrayContaining(['appdata:/data', './backups:/backups']));
    expect(backup.depends_on?.postgres.condition).toBe('service_healthy');
    expectVerb('backup');
    expectVerb('restore');
    // The documented commands name this service and these paths.
    const ops = read('docs/operations.md');
    expect(ops).toContain(
      'docker compose -f deploy/compose.yaml --profile backup run --rm backup backup --to /backups/db-$(date +%F).backup',
    );
    expect(ops).toContain('restore --from /backups/');
  });

  it.runIf(usingPostgres)(
    "backup, with pg_dump of the server's major as the image has, copies a database that restore brings back",
    async () => {
      const source = await createTestDatabase();
      const target = await createTestDatabase();
      const dir = mkdtempSync(join(tmpdir(), 'ss-compose-backup-'));
      try {
        const client = new pg.Client({ connectionString: source.url });
        await client.connect();
        const { rows } = await client.query('SHOW server_version_num');
        await client.end();
        const serverMajor = Math.floor(Number(rows[0].server_version_num) / 10000);
        const dumpMajor = Number(/\(PostgreSQL\) (\d+)/.exec(await run('pg_dump', ['--version']))?.[1]);
        expect(dumpMajor).toBe(serverMajor);
        const migrated = await runCliAsync(['migrate', '--json'], { DATABASE_URL: source.url });
        expect(migrated.status, migrated.stderr).toBe(0);
        const file = join(dir, 'db.backup');
        const made = await runCliAsync(['backup', '--to', file, '--json'], { DATABASE_URL: source.url });
        expect(made.status, made.stderr).toBe(0);
        expect(JSON.parse(made.stdout)).toMatchObject({ dialect: 'postgres', ran: true });
        const back = await runCliAsync(['restore', '--from', file, '--json'], { DATABASE_URL: target.url });
        expect(back.status, back.stderr).toBe(0);
        const status = await runCliAsync(['migrate', '--status', '--json'], { DATABASE_URL: target.url });
        expect(JSON.parse(status.stdout).pending).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await source.drop();
        await target.drop();
      }
    },
    120_000,
  );
});

describe('deploy/env.example', () => {
  const lines = read('deploy/env.example').split('\n');
  const set = lines.map((l) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(l)?.[1]).filter((v) => v !== undefined);

  it('names only variables the service reads, SMTP_URL and MAIL_FROM among them', () => {
    expect(set.filter((v) => !VARIABLES.has(v))).toEqual([]);
    expect(set).toEqual(expect.arrayContaining(['SMTP_URL', 'MAIL_FROM', 'MAIL_DIR', 'SECRET_KEY']));
  });
});

describe('Dockerfile', () => {
  // Instructions on one line each (continuations joined, spaces collapsed), comments left out.
  const text = read('Dockerfile')
    .replace(/^#.*\n/gm, '')
    .replace(/\s*\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m).slice(1);
  const [build, final] = stages;

  it('builds in one stage and ships a slim final stage that copies only the installed package', () => {
    expect(stages).toHaveLength(2);
    expect(build).toMatch(/^node:\$\{NODE_VERSION\}-\$\{DEBIAN_RELEASE\} AS build/);
    expect(final).toMatch(/^node:\$\{NODE_VERSION\}-\$\{DEBIAN_RELEASE\}-slim\n/);
    expect(text).toMatch(/^ARG NODE_VERSION=22$/m);
    const copies = final.split('\n').filter((l) => l.startsWith('COPY'));
    expect(copies).toEqual(['COPY --from=build /app /app']);
    // Nothing but PostgreSQL's client tools from Debian's packages (for backup and restore).
    const apt = final.split('\n').filter((l) => l.includes('apt-get'));
    expect(apt).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own text
      'RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} && rm -rf /var/lib/apt/lists/*',
    ]);
    expect(final).not.toMatch(/npm (ci|install)|curl|wget/);
    expect(final).toMatch(/^USER node$/m);
  });

  it('fills /app with exactly what `npm pack` ships, plus the production dependencies', () => {
    expect(build).toMatch(/RUN npm run build && npm pack --ignore-scripts --pack-destination \/tmp\n/);
    const app = build.slice(build.indexOf('WORKDIR /app'));
    const run = app.split('\n').filter((l) => l.startsWith('RUN'));
    expect(run).toEqual([
      'RUN tar -xzf /tmp/survey-service-*.tgz --strip-components=1 && cp /src/package-lock.json . && npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3 && rm package-lock.json',
    ]);
    // What the package ships: the build and the files the image runs, no sources or tests.
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'bin/survey-service.js', 'dist/main.js']));
    expect(packed.filter((f) => /^(src|test)\//.test(f))).toEqual([]);
    // The command with the node flags of its own first line (test/unit/node-flags.test.ts).
    expect(final).toContain('ENTRYPOINT ["node", "--max-semi-space-size=64", "/app/bin/survey-service.js"]');
    expectVerb(/^CMD \["(\w+)"\]$/m.exec(final)![1]);
  });

  it('health-checks /healthz with node, on the port it listens on', () => {
    const check = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(final)![1];
    const argv = JSON.parse(check) as string[];
    expect(argv.slice(0, 2)).toEqual(['node', '-e']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the container's own script, verbatim
    expect(argv[2]).toContain('fetch(`http://127.0.0.1:${process.env.PORT}/healthz`)');
    expect(final).toMatch(/PORT=8080/);
  });

  it('keeps data, builds and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist', 'data']));
  });
});

describe('deploy/survey-service-worker.service', () => {
  const unit = read('deploy/survey-service-worker.service');
  const web = read('deploy/survey-service.service');
  const value = (text: string, key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(text)?.[1];

  it('runs the worker verb as the web unit runs serve, with the same user and settings', () => {
    expect(unit).toMatch(/^\[Unit\]$/m);
    expect(unit).toMatch(/^\[Service\]$/m);
    expect(unit).toMatch(/^\[Install\]$/m);
    const exec = value(unit, 'ExecStart')!.split(' ');
    expect(exec.slice(-2)).toEqual(['survey-service', 'worker']);
    expectVerb(exec.at(-1)!);
    for (const key of [
      'User',
      'Group',
      'EnvironmentFile',
      'WorkingDirectory',
      'ReadWritePaths',
      'KillSignal',
    ])
      expect(value(unit, key), key).toBe(value(web, key));
    // Its metrics listener must not take the web service's port.
    expect(exec).toContain('METRICS_PORT=9465');
  });
});
