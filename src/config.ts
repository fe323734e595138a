// The environment, read once into a typed config. Every setting is listed in the README's
// configuration table; nothing else reads process.env.

export const REGIONS = ['us', 'eu', 'ca'] as const;
export type Region = (typeof REGIONS)[number];

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Public base URL of each datacenter (no trailing slash). `us` is the default region. */
  regionUrls: Record<Region, string>;
  trustProxy: boolean;
  /** Secret for deriving client secrets and signing cookies; generated and stored in the database if unset. */
  secretKey: string | undefined;
  bodyLimit: number;
  sqliteBusyTimeoutMs: number;
  logLevel: string;
  rateLimits: {
    draftMinute: number;
    draftDay: number;
    publicMinute: number;
    publicDay: number;
  };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

function url(raw: string): string {
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const publicUrl = url(env.PUBLIC_URL ?? `http://localhost:${port}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/survey-service.db',
    regionUrls: {
      us: publicUrl,
      eu: url(env.PUBLIC_URL_EU ?? `http://eu.localhost:${port}`),
      ca: url(env.PUBLIC_URL_CA ?? `http://ca.localhost:${port}`),
    },
    trustProxy: env.TRUST_PROXY === 'true',
    secretKey: env.SECRET_KEY || undefined,
    bodyLimit: int(env, 'BODY_LIMIT_BYTES', 10 * 1024 * 1024),
    sqliteBusyTimeoutMs: int(env, 'SQLITE_BUSY_TIMEOUT_MS', 5000),
    logLevel: env.LOG_LEVEL ?? 'warn',
    rateLimits: {
      draftMinute: int(env, 'RATE_LIMIT_DRAFT_MINUTE', 120),
      draftDay: int(env, 'RATE_LIMIT_DRAFT_DAY', 500),
      publicMinute: int(env, 'RATE_LIMIT_PUBLIC_MINUTE', 0),
      publicDay: int(env, 'RATE_LIMIT_PUBLIC_DAY', 500_000),
    },
  };
}
