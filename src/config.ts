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
  /** The outbox worker: webhook deliveries and emails. */
  outbox: {
    /** Poll interval of the worker loop (OUTBOX_POLL_MS). */
    pollMs: number;
    /** Whether `serve` runs the worker in-process (OUTBOX_IN_SERVE, default true). */
    inServe: boolean;
    /** Rows claimed per poll. */
    batch: number;
    /** First retry delay; it doubles per failed attempt up to retryMaxSeconds. */
    retryBaseSeconds: number;
    retryMaxSeconds: number;
    /** Retries continue for at least this long after the first attempt. */
    retryForHours: number;
    /** How long a claim holds before another worker may take the row over. */
    leaseSeconds: number;
    /** Time limit of one webhook request. */
    httpTimeoutMs: number;
  };
  /** scrypt's cost for new password hashes (N = 2^logN; SCRYPT_LOG_N, default 17 as OWASP advises).
   * Stored hashes of a lower cost are re-hashed at the next sign-in. */
  passwordCost: { logN: number; r: number; p: number };
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: allow webhook URLs on loopback, private and link-local addresses. */
  webhookAllowPrivateTargets: boolean;
  mail: {
    /** SMTP_URL (e.g. smtp://user:pass@host:587); unset = write .eml files to `dir`. */
    smtpUrl: string | undefined;
    /** MAIL_DIR: the local outbox directory (default ./data/mail). */
    dir: string;
    /** MAIL_FROM: the sender of every email. */
    from: string;
  };
  /** Most contacts an account may hold, per plan (CONTACT_LIMIT_<PLAN>; 0 = no cap). */
  contactLimits: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
  /** Email invitations per plan: most recipients on one message (RECIPIENT_LIMIT_<PLAN>) and most
   * emails sent per account per day (SEND_LIMIT_<PLAN>); 0 = no cap. */
  invitationLimits: {
    recipients: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
    dailySends: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
  };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

function scryptLogN(env: NodeJS.ProcessEnv): number {
  const n = int(env, 'SCRYPT_LOG_N', 17);
  if (n < 10 || n > 20) throw new Error(`SCRYPT_LOG_N must be between 10 and 20, got ${n}`);
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
    outbox: {
      pollMs: int(env, 'OUTBOX_POLL_MS', 1000),
      inServe: env.OUTBOX_IN_SERVE !== 'false',
      batch: int(env, 'OUTBOX_BATCH', 20),
      retryBaseSeconds: int(env, 'OUTBOX_RETRY_BASE_SECONDS', 30),
      retryMaxSeconds: int(env, 'OUTBOX_RETRY_MAX_SECONDS', 3600),
      retryForHours: int(env, 'OUTBOX_RETRY_FOR_HOURS', 24),
      leaseSeconds: int(env, 'OUTBOX_LEASE_SECONDS', 120),
      httpTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    },
    webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    passwordCost: { logN: scryptLogN(env), r: 8, p: 1 },
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      dir: env.MAIL_DIR ?? './data/mail',
      from: env.MAIL_FROM ?? 'Survey Service <no-reply@localhost>',
    },
    contactLimits: {
      basic: int(env, 'CONTACT_LIMIT_BASIC', 1000),
      standard: int(env, 'CONTACT_LIMIT_STANDARD', 10_000),
      advantage: int(env, 'CONTACT_LIMIT_ADVANTAGE', 50_000),
      premier: int(env, 'CONTACT_LIMIT_PREMIER', 100_000),
      enterprise: int(env, 'CONTACT_LIMIT_ENTERPRISE', 0),
    },
    invitationLimits: {
      recipients: {
        basic: int(env, 'RECIPIENT_LIMIT_BASIC', 0),
        standard: int(env, 'RECIPIENT_LIMIT_STANDARD', 1000),
        advantage: int(env, 'RECIPIENT_LIMIT_ADVANTAGE', 10_000),
        premier: int(env, 'RECIPIENT_LIMIT_PREMIER', 50_000),
        enterprise: int(env, 'RECIPIENT_LIMIT_ENTERPRISE', 0),
      },
      dailySends: {
        basic: int(env, 'SEND_LIMIT_BASIC', 0),
        standard: int(env, 'SEND_LIMIT_STANDARD', 5000),
        advantage: int(env, 'SEND_LIMIT_ADVANTAGE', 20_000),
        premier: int(env, 'SEND_LIMIT_PREMIER', 100_000),
        enterprise: int(env, 'SEND_LIMIT_ENTERPRISE', 0),
      },
    },
  };
}
