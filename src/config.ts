// The environment, read once into a typed config. Every variable is declared once in ENV_SCHEMA
// (TypeBox): its type, range and default. Wrong values stop start-up with one line per variable
// naming it, its value and what is allowed, all at once (an operator fixes them in one go). Every
// setting is listed in docs/configuration.md; nothing else reads process.env.

import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { CAPTCHA_ENV, type CaptchaConfig, captchaMissing, captchaOf } from './platform/captcha-config.js';
import { checkEnv, envReaders, hostAddress, type TSchema, Type } from './platform/env-schema.js';
import { errorMessage } from './platform/errors.js';
import { PLANS, type Plan } from './platform/plans.js';
import { SSO_ENV, type SsoConfig, ssoOf } from './platform/sso-config.js';

export const REGIONS = ['us', 'eu', 'ca'] as const;
export type Region = (typeof REGIONS)[number];

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** DATABASE_POOL_MAX: PostgreSQL connections per process; unset = defaultPoolSize(). */
  databasePoolMax: number | undefined;
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
  /** PASSWORD_HASH_CONCURRENCY: scrypt computations running at once per process. */
  passwordHashConcurrency: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: allow webhook URLs on loopback, private and link-local addresses. */
  webhookAllowPrivateTargets: boolean;
  /** IMPORT_PAGE_SOURCES: the APIs the import page may copy from (origins, comma-separated);
   * the server fetches them for any signed-in user, so no other address is reachable that way. */
  importPageSources: string[];
  /** IMPORT_FILE_MAX_MB: the largest survey file (or responses file) an import takes, in bytes. */
  importFileMaxBytes: number;
  mail: {
    /** SMTP_URL (e.g. smtp://user:pass@host:587); unset = write .eml files to `dir`. */
    smtpUrl: string | undefined;
    /** MAIL_DIR: the local outbox directory (default ./data/mail). */
    dir: string;
    /** MAIL_FROM: the sender of every email. */
    from: string;
  };
  /** Response exports: EXPORT_DIR (default ./data/exports), files kept EXPORT_RETENTION_HOURS
   * (default 24), and exports of at most EXPORT_SYNC_MAX_RESPONSES (default 10000) made at once
   * rather than by the worker; REPORT_FONTS_DIR, more fonts the PDF report falls back to. */
  exports: { dir: string; retentionHours: number; syncMaxResponses: number; reportFontsDir?: string };
  /** Files respondents upload: UPLOAD_DIR (default: `uploads` beside the SQLite file, or
   * ./data/uploads), UPLOAD_MAX_BYTES per file (default 10 MB), UPLOAD_TYPES the extensions taken. */
  uploads: {
    dir: string;
    maxBytes: number;
    types: string[];
    /** Bytes one account (the signed-in uploader, or the survey owner of a respondent's upload)
     * and one client address may upload an hour (UPLOAD_BYTES_PER_ACCOUNT_HOUR,
     * UPLOAD_BYTES_PER_ADDRESS_HOUR); 0 = no cap. */
    accountBytesPerHour: number;
    addressBytesPerHour: number;
    /** UPLOAD_MIN_FREE_MB: uploads are refused while the disk of UPLOAD_DIR (and of the SQLite
     * file) would keep less than this free, in bytes. */
    minFreeBytes: number;
  };
  /** Respondent page submissions per minute, per collector and client address
   * (RESPONSES_PER_MINUTE_PER_ADDRESS) and per collector (RESPONSES_PER_MINUTE_PER_COLLECTOR); 0 = no cap. */
  respondentLimits: { perAddressMinute: number; perCollectorMinute: number };
  /** RESUME_DAYS: how long a respondent's "Finish later" link works. */
  resumeDays: number;
  /** RESPONDENT_MIN_PAGE_MS: a respondent page posted sooner after it was shown is kept aside as
   * flagged (domain/screening), unless the collector sets its own; 0 = no time check. */
  respondentMinPageMs: number;
  /** Shared results pages (/results/<token>, views and password tries) one client address may open a
   * minute (RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS); 0 = no cap. */
  resultsViewsPerMinute: number;
  /** Heavy results requests (the analyze page, its downloads) one account may have running at
   * once in this process (HEAVY_REQUESTS_PER_ACCOUNT); 0 = no cap. */
  heavyRequestsPerAccount: number;
  /** Most contacts an account may hold, per plan (CONTACT_LIMIT_<PLAN>; 0 = no cap). */
  contactLimits: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
  /** Email invitations per plan: most recipients on one message (RECIPIENT_LIMIT_<PLAN>) and most
   * emails sent per account per day (SEND_LIMIT_<PLAN>); 0 = no cap. */
  invitationLimits: {
    recipients: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
    dailySends: Record<'basic' | 'standard' | 'advantage' | 'premier' | 'enterprise', number>;
  };
  /** Recipients of invitations, reminders and test sends one account may mail in 24 hours, whatever
   * its plan: `newAccountPerDay` during its first `newAccountDays` days, then `perDay`
   * (SEND_LIMIT_NEW_ACCOUNT_PER_DAY, SEND_LIMIT_PER_DAY, SEND_LIMIT_NEW_ACCOUNT_DAYS; 0 = no cap).
   * An operator's cap for one account replaces these. */
  sendLimits: { newAccountPerDay: number; perDay: number; newAccountDays: number };
  /** ABUSE_CONTACT: the address recipients report abuse and unsubscribe to (invitation footers and
   * List-Unsubscribe); unset = none shown. */
  abuseContact: string | undefined;
  /** SIGNUP_MODE: who may create an account on the sign-up page (open, invite-only or closed). */
  signupMode: SignupMode;
  /** DEFAULT_PLAN: the plan of accounts made at /signup (and by a sign-up invitation). */
  defaultPlan: Plan;
  /** REQUIRE_2FA: every password account must set up two-factor sign-in before using the pages. */
  require2fa: boolean;
  /** METRICS_PORT: a separate listener serving GET /metrics (Prometheus); unset = no metrics. */
  metrics: { port: number | undefined; host: string; allowedHosts: string[] };
  /** WORKER_NAME (default: the host name): the outbox worker's name in its heartbeat row and metric. */
  workerName: string;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for in-flight requests and deliveries. */
  shutdownTimeoutMs: number;
  /** Days kept before the worker prunes (RETAIN_<KIND>_DAYS; 0 = keep forever). */
  retention: Record<RetainedKind, number>;
  /** AUDIT_LOG (default true): write the audit log; off only to measure what it costs (the bench). */
  auditLog: boolean;
  /** RETENTION_INTERVAL_SECONDS: how often each worker runs its retention job. */
  retentionIntervalSeconds: number;
  /** BACKFILL_INTERVAL_SECONDS: how often each worker completes derived rows an older release left out. */
  backfillIntervalSeconds: number;
  /** DKIM signing of every email (MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY or
   * MAIL_DKIM_PRIVATE_KEY_FILE); null = unsigned. */
  mailDkim: { domain: string; selector: string; privateKey?: string; privateKeyFile?: string } | null;
  /** ALERT_DIGEST_INTERVAL_SECONDS: how often the worker looks for daily alert digests that are due. */
  alertDigestIntervalSeconds: number;
  /** Single sign-on (docs/single-sign-on.md). */
  sso: SsoConfig;
  /** The respondent pages' CAPTCHA (CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY, CAPTCHA_SECRET_KEY,
   * CAPTCHA_VERIFY_URL; domain/screening/captcha.ts); null = none (the default). */
  captcha: CaptchaConfig | null;
}

/** What the worker prunes; a feature with rows to expire adds its kind here and to `pruneOnce`. */
// Finished exports expire by EXPORT_RETENTION_HOURS (their own expires_at), pruned with their files.
export const RETAINED_KINDS = [
  'deliveries',
  'emails',
  'sign_in_failures',
  'sessions',
  'events',
  'audit',
] as const;
export type RetainedKind = (typeof RETAINED_KINDS)[number];

export const SIGNUP_MODES = ['open', 'invite-only', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A whole number >= min (0 = no cap where the variable is a limit). */
const whole = (fallback: number | undefined, description: string, min = 0, max?: number) =>
  Type.Integer({
    minimum: min,
    ...(max === undefined ? {} : { maximum: max }),
    ...(fallback === undefined ? {} : { default: fallback }),
    description,
  });
const flag = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });
const text = (fallback: string | undefined, description: string, extra: object = {}) =>
  Type.String({ minLength: 1, default: fallback, description, ...extra });
const httpUrl = (description: string) =>
  Type.String({ format: 'uri', pattern: '^https?://[^/?#\\s]+', description });
/** Values printed masked by `survey-service config`. */
const secret = { secret: true };

/** Extensions an upload may have: each is checked by its name and, where it has one, its magic
 * bytes (domain/uploads/types.ts). */
export const UPLOADABLE = [
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'txt',
  'csv',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
] as const;
const UPLOAD_TYPES_DEFAULT = 'pdf,png,jpg,jpeg,gif,webp,txt,csv,docx,xlsx,pptx';

/** Every environment variable the service reads. Defaults that depend on another variable
 * (PUBLIC_URL on PORT) are filled in by loadConfig. */
export const ENV_SCHEMA = Type.Partial(
  Type.Object({
    PORT: whole(8080, 'listening port', 0, 65535),
    HOST: text('127.0.0.1', 'listening address', { hostAddress: true }),
    DATABASE_URL: text('sqlite:./data/survey-service.db', 'sqlite:<file> or postgres://user@host:port/db', {
      pattern: '^(sqlite:|postgres(ql)?://)',
      ...secret,
    }),
    DATABASE_POOL_MAX: whole(
      undefined,
      'PostgreSQL connections per process (unset = 2 per core, 4 to 10)',
      1,
    ),
    PUBLIC_URL: httpUrl('public base URL of the default datacenter'),
    PUBLIC_URL_EU: httpUrl('public base URL of the EU datacenter'),
    PUBLIC_URL_CA: httpUrl('public base URL of the Canada datacenter'),
    TRUST_PROXY: flag(false, 'trust X-Forwarded-* from a reverse proxy'),
    SECRET_KEY: Type.String({ minLength: 1, description: 'server key', ...secret, strongKey: true }),
    SCRYPT_LOG_N: whole(17, "scrypt's cost for new password hashes (N = 2^value)", 10, 20),
    PASSWORD_HASH_CONCURRENCY: whole(
      2,
      'password hashes computed at once per process (each holds 128 MiB at SCRYPT_LOG_N=17); the others wait',
      1,
      64,
    ),
    BODY_LIMIT_BYTES: whole(10 * 1024 * 1024, 'largest request body', 1),
    SQLITE_BUSY_TIMEOUT_MS: whole(5000, "SQLite's wait for another process's write lock"),
    LOG_LEVEL: Type.Union(
      LOG_LEVELS.map((l) => Type.Literal(l)),
      { default: 'warn', description: 'pino log level' },
    ),
    SIGNUP_MODE: Type.Union(
      SIGNUP_MODES.map((m) => Type.Literal(m)),
      { default: 'open', description: 'who may sign up: anyone, holders of an invitation link, or nobody' },
    ),
    DEFAULT_PLAN: Type.Union(
      PLANS.map((p) => Type.Literal(p)),
      { default: 'enterprise', description: 'plan of accounts made at /signup (enterprise: every feature)' },
    ),
    REQUIRE_2FA: flag(false, 'every password account must set up two-factor sign-in before using the pages'),
    RATE_LIMIT_DRAFT_MINUTE: whole(120, 'per-minute limit of draft and private apps'),
    RATE_LIMIT_DRAFT_DAY: whole(500, 'daily limit of draft and private apps'),
    RATE_LIMIT_PUBLIC_MINUTE: whole(0, 'per-minute limit of public apps'),
    RATE_LIMIT_PUBLIC_DAY: whole(500_000, 'daily limit of public apps'),
    OUTBOX_POLL_MS: whole(1000, 'outbox poll interval', 1),
    OUTBOX_IN_SERVE: flag(true, 'serve runs the outbox worker'),
    OUTBOX_BATCH: whole(20, 'outbox rows claimed per poll', 1),
    OUTBOX_RETRY_BASE_SECONDS: whole(30, 'first retry delay'),
    OUTBOX_RETRY_MAX_SECONDS: whole(3600, 'longest retry delay'),
    OUTBOX_RETRY_FOR_HOURS: whole(24, 'how long failed deliveries are retried'),
    OUTBOX_LEASE_SECONDS: whole(120, 'how long a claim holds', 1),
    WEBHOOK_TIMEOUT_MS: whole(10_000, 'time limit of one webhook request', 1),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(false, 'allow webhook targets on private addresses'),
    IMPORT_PAGE_SOURCES: text(
      'https://api.surveymonkey.com',
      'the APIs the import page may copy from (origins, comma-separated; the CLI takes any)',
    ),
    IMPORT_FILE_MAX_MB: whole(100, 'the largest file an import from another tool takes, in MB', 1),
    SMTP_URL: Type.String({
      format: 'uri',
      pattern: '^smtps?://[^/?#\\s]+',
      description: 'SMTP server',
      ...secret,
    }),
    MAIL_DIR: text('./data/mail', 'the local mail outbox'),
    MAIL_FROM: text('Survey Service <no-reply@localhost>', 'the sender of every email'),
    CONTACT_LIMIT_BASIC: whole(1000, 'contacts per account (0 = no cap)'),
    CONTACT_LIMIT_STANDARD: whole(10_000, 'contacts per account (0 = no cap)'),
    CONTACT_LIMIT_ADVANTAGE: whole(50_000, 'contacts per account (0 = no cap)'),
    CONTACT_LIMIT_PREMIER: whole(100_000, 'contacts per account (0 = no cap)'),
    CONTACT_LIMIT_ENTERPRISE: whole(0, 'contacts per account (0 = no cap)'),
    RECIPIENT_LIMIT_BASIC: whole(0, 'recipients per message (0 = no cap)'),
    RECIPIENT_LIMIT_STANDARD: whole(1000, 'recipients per message (0 = no cap)'),
    RECIPIENT_LIMIT_ADVANTAGE: whole(10_000, 'recipients per message (0 = no cap)'),
    RECIPIENT_LIMIT_PREMIER: whole(50_000, 'recipients per message (0 = no cap)'),
    RECIPIENT_LIMIT_ENTERPRISE: whole(0, 'recipients per message (0 = no cap)'),
    SEND_LIMIT_BASIC: whole(0, 'invitation emails per account a day (0 = no cap)'),
    SEND_LIMIT_STANDARD: whole(5000, 'invitation emails per account a day (0 = no cap)'),
    SEND_LIMIT_ADVANTAGE: whole(20_000, 'invitation emails per account a day (0 = no cap)'),
    SEND_LIMIT_PREMIER: whole(100_000, 'invitation emails per account a day (0 = no cap)'),
    SEND_LIMIT_ENTERPRISE: whole(0, 'invitation emails per account a day (0 = no cap)'),
    SEND_LIMIT_NEW_ACCOUNT_PER_DAY: whole(
      100,
      'recipients an account may mail a day in its first SEND_LIMIT_NEW_ACCOUNT_DAYS days, any plan (0 = no cap)',
    ),
    SEND_LIMIT_PER_DAY: whole(2000, 'recipients an account may mail a day after that, any plan (0 = no cap)'),
    SEND_LIMIT_NEW_ACCOUNT_DAYS: whole(7, 'days an account counts as new for SEND_LIMIT_NEW_ACCOUNT_PER_DAY'),
    ABUSE_CONTACT: Type.String({
      format: 'email',
      description: 'address for abuse reports and unsubscribe requests, shown in invitations (unset = none)',
    }),
    RESPONSES_PER_MINUTE_PER_ADDRESS: whole(
      60,
      'respondent page submissions per collector and address a minute (0 = no cap)',
    ),
    RESUME_DAYS: whole(30, 'days a respondent\'s "Finish later" link works', 1, 3650),
    RESPONSES_PER_MINUTE_PER_COLLECTOR: whole(
      0,
      'respondent page submissions per collector a minute, from all respondents together (0 = no cap, the default: a launch takes what the service can serve)',
    ),
    RESPONDENT_MIN_PAGE_MS: whole(
      1500,
      'milliseconds a respondent page must be shown before its answers count; a faster post is kept aside as flagged (0 = no time check)',
      0,
      60_000,
    ),
    RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS: whole(
      60,
      'shared results pages one client address may open a minute (0 = no cap)',
    ),
    HEAVY_REQUESTS_PER_ACCOUNT: whole(
      2,
      'analyze pages and results downloads one account may have running at once, per process (0 = no cap)',
    ),
    EXPORT_DIR: text('./data/exports', 'where export files are written'),
    EXPORT_RETENTION_HOURS: whole(24, 'hours a finished export file is kept', 1),
    EXPORT_SYNC_MAX_RESPONSES: whole(10_000, 'exports of at most this many responses are made at once'),
    REPORT_FONTS_DIR: text(
      undefined,
      'a folder of .ttf/.otf/.ttc fonts the PDF report uses for characters its own fonts lack (CJK…)',
    ),
    UPLOAD_DIR: text(
      undefined,
      'where uploaded answer files are kept (default: uploads beside the SQLite file, or ./data/uploads)',
    ),
    UPLOAD_MAX_BYTES: whole(10 * 1024 * 1024, 'largest uploaded answer file', 1),
    UPLOAD_BYTES_PER_ACCOUNT_HOUR: whole(
      1024 * 1024 * 1024,
      'bytes of uploads one account may send an hour, its respondents included (0 = no cap)',
    ),
    UPLOAD_BYTES_PER_ADDRESS_HOUR: whole(
      100 * 1024 * 1024,
      'bytes of uploads one client address may send an hour (0 = no cap)',
    ),
    UPLOAD_MIN_FREE_MB: whole(512, 'uploads are refused while less than this would stay free on their disk'),
    UPLOAD_TYPES: text(UPLOAD_TYPES_DEFAULT, 'file extensions respondents may upload, comma-separated', {
      pattern: `^(${UPLOADABLE.join('|')})(,(${UPLOADABLE.join('|')}))*$`,
    }),
    METRICS_PORT: whole(undefined, 'port of the Prometheus /metrics listener (unset = off)', 0, 65535),
    METRICS_HOST: text('127.0.0.1', 'address of the /metrics listener', { hostAddress: true }),
    METRICS_ALLOWED_HOSTS: text(
      '',
      'further Host names the /metrics listener answers (comma-separated, e.g. the compose service name "worker")',
      { minLength: 0, pattern: '^$|^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$' },
    ),
    WORKER_NAME: text('', "the worker's name in its heartbeat (default: the host name)", {
      minLength: 0,
      pattern: '^$|^[A-Za-z0-9_.:@/-]{1,100}$',
    }),
    SHUTDOWN_TIMEOUT_MS: whole(10_000, 'how long SIGTERM waits for in-flight work'),
    ...SSO_ENV,
    RETAIN_DELIVERIES_DAYS: whole(30, 'days finished webhook deliveries are kept (0 = forever)'),
    RETAIN_EMAILS_DAYS: whole(30, 'days sent or failed emails are kept (0 = forever)'),
    RETAIN_SIGN_IN_FAILURES_DAYS: whole(2, 'days sign-in failure counters are kept (0 = forever)'),
    RETAIN_SESSIONS_DAYS: whole(1, 'days expired sessions are kept (0 = forever)'),
    RETAIN_EVENTS_DAYS: whole(30, 'days events are kept once every consumer has read them (0 = forever)'),
    RETAIN_AUDIT_DAYS: whole(365, 'days audit log rows are kept (0 = forever)'),
    AUDIT_LOG: flag(true, 'write the audit log (false only to measure its cost: changes leave no trail)'),
    RETENTION_INTERVAL_SECONDS: whole(60, "seconds between the worker's retention passes", 1),
    BACKFILL_INTERVAL_SECONDS: whole(
      600,
      "seconds between the worker's passes completing derived rows an older release's process left out",
      1,
    ),
    MAIL_DKIM_DOMAIN: text(undefined, 'the domain emails are DKIM-signed for (unset = unsigned)'),
    MAIL_DKIM_SELECTOR: text(undefined, "the DKIM selector (the key's DNS name under _domainkey)"),
    MAIL_DKIM_PRIVATE_KEY: text(undefined, 'the DKIM private key (PEM)', secret),
    MAIL_DKIM_PRIVATE_KEY_FILE: text(undefined, 'a file holding the DKIM private key (PEM)'),
    ALERT_DIGEST_INTERVAL_SECONDS: whole(300, "seconds between the worker's looks for due alert digests", 1),
    ...CAPTCHA_ENV,
  }),
);

export type EnvName = keyof typeof ENV_SCHEMA.properties;
type Env = Record<string, unknown>;
type VarSchema = TSchema & Record<string, unknown>;
const VARS: Record<string, VarSchema> = ENV_SCHEMA.properties;

/** Wrong values; its message has one line per variable, which start-up prints. */
export class ConfigError extends Error {}

/**
 * Why a server key is not strong enough, or null: it must carry at least 32 random bytes, as the two
 * advised generators give them (64 hex digits, or 43 characters of base64/base64url, or any other
 * text at least that long), with at least 10 different characters, without repeating a shorter
 * piece (`0123456789abcdef` four times has 16 different characters and no randomness past them),
 * and with at least 128 bits by its characters' frequencies (a long run of one character is not).
 */
function keyWeakness(key: string): string | null {
  const hexOnly = /^[0-9a-fA-F]+$/.test(key);
  if (key.length < (hexOnly ? 64 : 43) || new Set(key).size < 10) return KEY_ADVICE;
  const period = shortestPeriod(key);
  if (period <= key.length / 2)
    return `random, and this one repeats a piece of ${period} characters; it must be ${KEY_ADVICE}`;
  const bits = Math.floor(frequencyBits(key));
  if (bits < 128)
    return `random, and this one varies too little (about ${bits} bits by its characters' frequencies, 128 needed); it must be ${KEY_ADVICE}`;
  return null;
}

/** The length of the shortest piece whose repetition (the last one possibly cut) is `s`. */
function shortestPeriod(s: string): number {
  // The prefix function (Knuth-Morris-Pratt): the longest proper prefix that is also a suffix.
  const border = new Array<number>(s.length).fill(0);
  for (let i = 1, k = 0; i < s.length; i++) {
    while (k > 0 && s[i] !== s[k]) k = border[k - 1];
    if (s[i] === s[k]) k++;
    border[i] = k;
  }
  return s.length - border[s.length - 1];
}

/** Shannon's entropy of the key's character frequencies, times its length: an upper bound on its
 * randomness that a skewed key (mostly one character) falls short of. */
function frequencyBits(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / s.length) * Math.log2(n / s.length);
  return perChar * s.length;
}

const KEY_ADVICE =
  "at least 32 random bytes: 43 or more base64 characters or 64 hex digits; make one with `openssl rand -base64 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`";

/** What a variable accepts, in words, from its schema. */
function allowed(schema: VarSchema, value: string): string {
  if (schema.strongKey) return keyWeakness(value) ?? KEY_ADVICE;
  if (schema.hostAddress) return 'an IP address or a host name (letters, digits, hyphens and dots)';
  if (Array.isArray(schema.anyOf)) return `one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`;
  if (schema.type === 'boolean') return 'true or false';
  if (schema.type === 'integer') {
    const max = schema.maximum === undefined ? '' : ` and at most ${schema.maximum}`;
    return `a whole number of at least ${schema.minimum}${max}`;
  }
  if (schema.format === 'email') return 'an email address';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^https?'))
    return 'an http:// or https:// URL';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^smtp'))
    return 'an smtp:// or smtps:// URL';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^(sqlite'))
    return 'sqlite:<file> or postgres://user@host:port/db';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^(pdf'))
    return `a comma-separated list of ${UPLOADABLE.join(', ')}`;
  return 'a non-empty value';
}

/** The declared variables as given (unset and empty ones left out), checked, coerced, defaulted. */
export function readEnv(env: NodeJS.ProcessEnv): Env {
  const given: Env = {};
  for (const name of Object.keys(VARS)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') given[name] = raw;
  }
  const invalid = checkEnv(ENV_SCHEMA, given, {
    strongKey: (key) => keyWeakness(key) === null,
    hostAddress,
  });
  const missing = captchaMissing(given);
  if (invalid.length === 0 && missing.length === 0) return given;
  const lines = invalid.map((name) => {
    const value = env[name] ?? '';
    return `${name}=${JSON.stringify(VARS[name].secret ? mask(value) : value)} is not allowed: ${name} must be ${allowed(VARS[name], value)}`;
  });
  lines.push(...missing);
  throw new ConfigError(
    lines.length === 1
      ? lines[0]
      : `${lines.length} variables are not allowed:\n${lines.map((l) => `  ${l}`).join('\n')}`,
  );
}

/** Uploads beside the SQLite database file (`uploads` in its directory), else ./data/uploads. */
function defaultUploadDir(databaseUrl: string): string {
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  if (!file || file === ':memory:') return './data/uploads';
  return join(dirname(file), 'uploads');
}

function url(raw: string): string {
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = readEnv(env);
  const { n, s, num, str, flag, oneOf } = envReaders<EnvName>(
    e,
    (name) => new ConfigError(`${name} has no value of its type`),
  );
  const port = n('PORT');
  return {
    port,
    host: s('HOST'),
    databaseUrl: s('DATABASE_URL'),
    databasePoolMax: num('DATABASE_POOL_MAX'),
    regionUrls: {
      us: url(str('PUBLIC_URL') ?? `http://localhost:${port}`),
      eu: url(str('PUBLIC_URL_EU') ?? `http://eu.localhost:${port}`),
      ca: url(str('PUBLIC_URL_CA') ?? `http://ca.localhost:${port}`),
    },
    trustProxy: flag('TRUST_PROXY'),
    secretKey: str('SECRET_KEY'),
    bodyLimit: n('BODY_LIMIT_BYTES'),
    sqliteBusyTimeoutMs: n('SQLITE_BUSY_TIMEOUT_MS'),
    logLevel: s('LOG_LEVEL'),
    rateLimits: {
      draftMinute: n('RATE_LIMIT_DRAFT_MINUTE'),
      draftDay: n('RATE_LIMIT_DRAFT_DAY'),
      publicMinute: n('RATE_LIMIT_PUBLIC_MINUTE'),
      publicDay: n('RATE_LIMIT_PUBLIC_DAY'),
    },
    outbox: {
      pollMs: n('OUTBOX_POLL_MS'),
      inServe: flag('OUTBOX_IN_SERVE'),
      batch: n('OUTBOX_BATCH'),
      retryBaseSeconds: n('OUTBOX_RETRY_BASE_SECONDS'),
      retryMaxSeconds: n('OUTBOX_RETRY_MAX_SECONDS'),
      retryForHours: n('OUTBOX_RETRY_FOR_HOURS'),
      leaseSeconds: n('OUTBOX_LEASE_SECONDS'),
      httpTimeoutMs: n('WEBHOOK_TIMEOUT_MS'),
    },
    webhookAllowPrivateTargets: flag('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    importPageSources: s('IMPORT_PAGE_SOURCES')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    importFileMaxBytes: n('IMPORT_FILE_MAX_MB') * 1024 * 1024,
    passwordCost: { logN: n('SCRYPT_LOG_N'), r: 8, p: 1 },
    passwordHashConcurrency: n('PASSWORD_HASH_CONCURRENCY'),
    mail: { smtpUrl: str('SMTP_URL'), dir: s('MAIL_DIR'), from: s('MAIL_FROM') },
    exports: {
      dir: s('EXPORT_DIR'),
      retentionHours: n('EXPORT_RETENTION_HOURS'),
      syncMaxResponses: n('EXPORT_SYNC_MAX_RESPONSES'),
      reportFontsDir: str('REPORT_FONTS_DIR'),
    },
    uploads: {
      dir: str('UPLOAD_DIR') ?? defaultUploadDir(s('DATABASE_URL')),
      maxBytes: n('UPLOAD_MAX_BYTES'),
      types: s('UPLOAD_TYPES').split(','),
      accountBytesPerHour: n('UPLOAD_BYTES_PER_ACCOUNT_HOUR'),
      addressBytesPerHour: n('UPLOAD_BYTES_PER_ADDRESS_HOUR'),
      minFreeBytes: n('UPLOAD_MIN_FREE_MB') * 1024 * 1024,
    },
    respondentLimits: {
      perAddressMinute: n('RESPONSES_PER_MINUTE_PER_ADDRESS'),
      perCollectorMinute: n('RESPONSES_PER_MINUTE_PER_COLLECTOR'),
    },
    resumeDays: n('RESUME_DAYS'),
    respondentMinPageMs: n('RESPONDENT_MIN_PAGE_MS'),
    resultsViewsPerMinute: n('RESULTS_VIEWS_PER_MINUTE_PER_ADDRESS'),
    heavyRequestsPerAccount: n('HEAVY_REQUESTS_PER_ACCOUNT'),
    contactLimits: {
      basic: n('CONTACT_LIMIT_BASIC'),
      standard: n('CONTACT_LIMIT_STANDARD'),
      advantage: n('CONTACT_LIMIT_ADVANTAGE'),
      premier: n('CONTACT_LIMIT_PREMIER'),
      enterprise: n('CONTACT_LIMIT_ENTERPRISE'),
    },
    invitationLimits: {
      recipients: {
        basic: n('RECIPIENT_LIMIT_BASIC'),
        standard: n('RECIPIENT_LIMIT_STANDARD'),
        advantage: n('RECIPIENT_LIMIT_ADVANTAGE'),
        premier: n('RECIPIENT_LIMIT_PREMIER'),
        enterprise: n('RECIPIENT_LIMIT_ENTERPRISE'),
      },
      dailySends: {
        basic: n('SEND_LIMIT_BASIC'),
        standard: n('SEND_LIMIT_STANDARD'),
        advantage: n('SEND_LIMIT_ADVANTAGE'),
        premier: n('SEND_LIMIT_PREMIER'),
        enterprise: n('SEND_LIMIT_ENTERPRISE'),
      },
    },
    sendLimits: {
      newAccountPerDay: n('SEND_LIMIT_NEW_ACCOUNT_PER_DAY'),
      perDay: n('SEND_LIMIT_PER_DAY'),
      newAccountDays: n('SEND_LIMIT_NEW_ACCOUNT_DAYS'),
    },
    abuseContact: str('ABUSE_CONTACT'),
    signupMode: oneOf('SIGNUP_MODE', SIGNUP_MODES),
    defaultPlan: oneOf('DEFAULT_PLAN', PLANS),
    require2fa: flag('REQUIRE_2FA'),
    metrics: {
      port: num('METRICS_PORT'),
      host: s('METRICS_HOST'),
      allowedHosts: s('METRICS_ALLOWED_HOSTS')
        .split(',')
        .filter((h) => h !== '')
        .map((h) => h.toLowerCase()),
    },
    workerName: s('WORKER_NAME') || hostname(),
    shutdownTimeoutMs: n('SHUTDOWN_TIMEOUT_MS'),
    retention: {
      deliveries: n('RETAIN_DELIVERIES_DAYS'),
      emails: n('RETAIN_EMAILS_DAYS'),
      sign_in_failures: n('RETAIN_SIGN_IN_FAILURES_DAYS'),
      sessions: n('RETAIN_SESSIONS_DAYS'),
      events: n('RETAIN_EVENTS_DAYS'),
      audit: n('RETAIN_AUDIT_DAYS'),
    },
    auditLog: flag('AUDIT_LOG'),
    retentionIntervalSeconds: n('RETENTION_INTERVAL_SECONDS'),
    backfillIntervalSeconds: n('BACKFILL_INTERVAL_SECONDS'),
    mailDkim: dkimOf(str),
    alertDigestIntervalSeconds: n('ALERT_DIGEST_INTERVAL_SECONDS'),
    sso: ssoOf(str, flag('SSO_REQUIRED'), (message) => new ConfigError(message)),
    captcha: captchaOf(str),
  };
}

/** The DKIM settings: all or nothing, the key given inline or as a file. */
function dkimOf(s: (name: EnvName) => string | undefined): Config['mailDkim'] {
  const domain = s('MAIL_DKIM_DOMAIN');
  const selector = s('MAIL_DKIM_SELECTOR');
  const privateKey = s('MAIL_DKIM_PRIVATE_KEY');
  const privateKeyFile = s('MAIL_DKIM_PRIVATE_KEY_FILE');
  if (!domain && !selector && !privateKey && !privateKeyFile) return null;
  if (!domain || !selector || !(privateKey || privateKeyFile))
    throw new ConfigError(
      'MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY (or MAIL_DKIM_PRIVATE_KEY_FILE) go together: set all three or none',
    );
  checkDkimKey(privateKey, privateKeyFile);
  return { domain, selector, privateKey, privateKeyFile };
}

/** A DKIM key that is no private key would fail every email's signing: refused at start-up instead. */
function checkDkimKey(privateKey: string | undefined, privateKeyFile: string | undefined): void {
  const name = privateKey ? 'MAIL_DKIM_PRIVATE_KEY' : 'MAIL_DKIM_PRIVATE_KEY_FILE';
  let pem: string;
  try {
    pem = privateKey ?? readFileSync(privateKeyFile!, 'utf8');
  } catch (err) {
    throw new ConfigError(`${name}="${privateKeyFile}" cannot be read: ${errorMessage(err)}`);
  }
  try {
    const key = createPrivateKey(pem);
    // nodemailer signs with rsa-sha256 only.
    if (key.asymmetricKeyType !== 'rsa') throw new Error();
  } catch {
    throw new ConfigError(
      `${name} is not allowed: it must hold an RSA private key in PEM (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----), e.g. made with \`openssl genrsa 2048\``,
    );
  }
}

/** The effective value of every variable, for `survey-service config`: secrets masked, a URL's
 * password masked, and where each value came from. */
export function describeConfig(env: NodeJS.ProcessEnv = process.env): Array<{
  name: string;
  value: string | number | boolean | null;
  source: 'env' | 'default';
}> {
  const config = loadConfig(env);
  const e = readEnv(env);
  const derived: Record<string, string> = {
    PUBLIC_URL: config.regionUrls.us,
    PUBLIC_URL_EU: config.regionUrls.eu,
    PUBLIC_URL_CA: config.regionUrls.ca,
    UPLOAD_DIR: config.uploads.dir,
  };
  return Object.entries(VARS).map(([name, schema]) => {
    const v = e[name] ?? derived[name] ?? null;
    const raw = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
    const source = env[name] !== undefined && env[name] !== '' ? 'env' : 'default';
    return { name, value: schema.secret && typeof raw === 'string' ? mask(raw) : raw, source };
  });
}

/** A URL with its password masked; any other secret wholly masked. */
function mask(value: string): string {
  try {
    const u = new URL(value);
    if (u.password) {
      u.password = '****';
      return u.toString();
    }
    if (/^(postgres|postgresql|smtps?|sqlite):/.test(value)) return value;
  } catch {
    // not a URL: a plain secret
  }
  return '****';
}
