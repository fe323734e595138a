// The respondent pages' CAPTCHA part of the configuration (config.ts spreads CAPTCHA_ENV in and
// reads it with captchaOf; domain/screening/captcha.ts uses it): off unless CAPTCHA_PROVIDER names
// a provider, which then needs both its keys.

import { Type } from './env-schema.js';

export const CAPTCHA_PROVIDERS = ['none', 'turnstile', 'hcaptcha'] as const;

export interface CaptchaConfig {
  provider: 'turnstile' | 'hcaptcha';
  siteKey: string;
  secretKey: string;
  verifyUrl: string;
}

/** What each provider's widget needs on the page, in the Content-Security-Policy and to verify. */
export const CAPTCHA_WIDGETS = {
  turnstile: {
    className: 'cf-turnstile',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    field: 'cf-turnstile-response',
    verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    origins: ['https://challenges.cloudflare.com'],
  },
  hcaptcha: {
    className: 'h-captcha',
    script: 'https://js.hcaptcha.com/1/api.js',
    field: 'h-captcha-response',
    verifyUrl: 'https://api.hcaptcha.com/siteverify',
    origins: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
} as const;

/** The origins the pages' policy must allow for the configured widget (none when off). */
export function captchaOrigins(captcha: CaptchaConfig | null): readonly string[] {
  return captcha ? CAPTCHA_WIDGETS[captcha.provider].origins : [];
}

/** The variables (config.ts's ENV_SCHEMA spreads them in). */
export const CAPTCHA_ENV = {
  CAPTCHA_PROVIDER: Type.Union(
    CAPTCHA_PROVIDERS.map((p) => Type.Literal(p)),
    { default: 'none', description: "the respondent pages' CAPTCHA (none: no third party is called)" },
  ),
  CAPTCHA_SITE_KEY: Type.String({ minLength: 1, description: "the CAPTCHA provider's site key (public)" }),
  CAPTCHA_SECRET_KEY: Type.String({
    minLength: 1,
    description: "the CAPTCHA provider's secret key",
    secret: true,
  }),
  CAPTCHA_VERIFY_URL: Type.String({
    format: 'uri',
    pattern: '^https?://[^/?#\\s]+',
    description: "the CAPTCHA provider's siteverify endpoint (default: the provider's)",
  }),
};

type CaptchaVariable = keyof typeof CAPTCHA_ENV;

/** A provider needs both its keys: one line per key left unset (readEnv adds them to its list). */
export function captchaMissing(given: Record<string, unknown>): string[] {
  const provider = given.CAPTCHA_PROVIDER;
  if (provider === undefined || provider === 'none') return [];
  return (['CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET_KEY'] as const)
    .filter((name) => given[name] === undefined)
    .map((name) => `${name} is not set: CAPTCHA_PROVIDER=${String(provider)} needs it`);
}

/** The CAPTCHA settings, or null when off (readEnv has checked a provider comes with its keys). */
export function captchaOf(s: (name: CaptchaVariable) => string | undefined): CaptchaConfig | null {
  const provider = s('CAPTCHA_PROVIDER');
  const siteKey = s('CAPTCHA_SITE_KEY');
  const secretKey = s('CAPTCHA_SECRET_KEY');
  if ((provider !== 'turnstile' && provider !== 'hcaptcha') || !siteKey || !secretKey) return null;
  return {
    provider,
    siteKey,
    secretKey,
    verifyUrl: s('CAPTCHA_VERIFY_URL') ?? CAPTCHA_WIDGETS[provider].verifyUrl,
  };
}
