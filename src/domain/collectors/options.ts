// Collector types, statuses and options (reference §7.3–7.5): defaults, the rules the schema cannot
// state (which options a type takes, what the basic plan may set), and PUT/PATCH merging.
import { ApiError } from '../../platform/errors.js';

export const COLLECTOR_TYPES = [
  'weblink',
  'email',
  'sms',
  'popup_invitation',
  'popup_survey',
  'embedded_survey',
] as const;
export type CollectorType = (typeof COLLECTOR_TYPES)[number];
export const COLLECTOR_STATUSES = ['new', 'open', 'closed'] as const;
export type CollectorStatus = (typeof COLLECTOR_STATUSES)[number];

export const REDIRECT_TYPES = ['url', 'close', 'loop'] as const;
export const EDIT_RESPONSE_TYPES = ['until_complete', 'never', 'always'] as const;
export const ANONYMOUS_TYPES = ['not_anonymous', 'partially_anonymous', 'fully_anonymous'] as const;

export const THANK_YOU = 'Thank you for completing our survey!';
export const CLOSED_PAGE =
  'This survey is currently closed.  Please contact the author of this survey for further assistance.';

export interface Button {
  bg_color?: string;
  text_color?: string;
  text?: string;
}

/** Options kept in the `options` JSON column. */
export interface CollectorOptions {
  thank_you_message: string;
  thank_you_page: { is_enabled: boolean; message: string };
  disqualification_message: string;
  disqualification_url: string | null;
  disqualification_type: string | null;
  closed_page_message: string;
  redirect_url: string | null;
  redirect_type: (typeof REDIRECT_TYPES)[number];
  display_survey_results: boolean;
  edit_response_type: (typeof EDIT_RESPONSE_TYPES)[number];
  anonymous_type: (typeof ANONYMOUS_TYPES)[number];
  allow_multiple_responses: boolean;
  sender_email: string | null;
  respondent_authentication: boolean;
  // popup types
  width?: number;
  height?: number;
  border_color?: string;
  is_branding_enabled?: boolean;
  headline?: string;
  message?: string;
  sample_rate?: string;
  primary_button?: Button;
  secondary_button?: Button;
  /** Extension (weblink): the origins (https://host[:port]) allowed to frame the survey. */
  embed_origins?: string[];
  /** Extension: the respondent screening's settings (domain/screening). */
  screening?: ScreeningOptions;
}

export const DUPLICATE_RULES = ['none', 'browser', 'contact', 'address'] as const;

/** What keeps bots and duplicates aside on this collector (absent: the defaults). */
export interface ScreeningOptions {
  /** seconds a page must be shown before its post counts; null = the server's default */
  min_page_seconds: number | null;
  /** responses one client address may start in a window before the next are flagged; null = no limit */
  max_per_address: number | null;
  /** one response per browser, per contact (email invitation) or per address in a window */
  duplicates: (typeof DUPLICATE_RULES)[number];
  /** the window of the two rules above, in hours */
  window_hours: number;
}

export const DEFAULT_SCREENING: ScreeningOptions = {
  min_page_seconds: null,
  max_per_address: null,
  duplicates: 'none',
  window_hours: 24,
};

/** Everything a create/replace body may carry (reference §7.4). */
export interface CollectorInput {
  type?: CollectorType;
  name?: string;
  status?: 'open' | 'closed';
  thank_you_message?: string;
  thank_you_page?: { is_enabled?: boolean; message?: string };
  disqualification_message?: string;
  disqualification_url?: string | null;
  disqualification_type?: string | null;
  close_date?: string | null;
  closed_page_message?: string;
  redirect_url?: string | null;
  redirect_type?: (typeof REDIRECT_TYPES)[number];
  display_survey_results?: boolean;
  edit_response_type?: (typeof EDIT_RESPONSE_TYPES)[number];
  anonymous_type?: (typeof ANONYMOUS_TYPES)[number];
  allow_multiple_responses?: boolean;
  password?: string | null;
  sender_email?: string | null;
  response_limit?: number | null;
  respondent_authentication?: boolean;
  width?: number;
  height?: number;
  border_color?: string;
  is_branding_enabled?: boolean;
  headline?: string;
  message?: string;
  sample_rate?: string | number;
  primary_button?: Button;
  secondary_button?: Button;
  embed_origins?: string[];
  screening?: Partial<ScreeningOptions>;
}

export const POPUP_FIELDS = [
  'width',
  'height',
  'border_color',
  'is_branding_enabled',
  'headline',
  'message',
  'sample_rate',
  'primary_button',
  'secondary_button',
] as const;

const POPUP_ONLY_INVITATION = ['message', 'primary_button', 'secondary_button'] as const;

export function isPopup(type: string): boolean {
  return type === 'popup_invitation' || type === 'popup_survey';
}

export function defaultOptions(type: CollectorType): CollectorOptions {
  const out: CollectorOptions = {
    thank_you_message: THANK_YOU,
    thank_you_page: { is_enabled: false, message: THANK_YOU },
    disqualification_message: THANK_YOU,
    disqualification_url: null,
    disqualification_type: null,
    closed_page_message: CLOSED_PAGE,
    redirect_url: null,
    redirect_type: 'url',
    display_survey_results: false,
    edit_response_type: 'until_complete',
    anonymous_type: 'not_anonymous',
    allow_multiple_responses: false,
    sender_email: null,
    respondent_authentication: false,
  };
  if (type === 'weblink') out.embed_origins = [];
  if (isPopup(type)) {
    out.width = 500;
    out.height = 500;
    out.border_color = '#333333';
    out.is_branding_enabled = true;
    out.headline = '';
    out.sample_rate = '100';
    if (type === 'popup_invitation') {
      out.message = '';
      out.primary_button = { bg_color: '#00BF6F', text_color: '#FFFFFF', text: 'Take Survey' };
      out.secondary_button = { bg_color: '#FFFFFF', text_color: '#333333', text: 'No Thanks' };
    }
  }
  return out;
}

const DEFAULT_NAMES: Record<CollectorType, string> = {
  weblink: 'Web Link',
  email: 'Email Invitation',
  sms: 'SMS Invitation',
  popup_invitation: 'Website Popup',
  popup_survey: 'Website Popup',
  embedded_survey: 'Embedded Survey',
};

export function defaultName(type: CollectorType, existingOfType: number): string {
  return `${DEFAULT_NAMES[type]} ${existingOfType + 1}`;
}

const bad = (detail: string) => new ApiError(1002, detail);

/** Options only a paid plan may set (reference §1.6); the request is refused, never partly applied. */
export function paidOnlyOptions(input: CollectorInput): string[] {
  const out: string[] = [];
  if (input.thank_you_message !== undefined) out.push('thank_you_message');
  if (input.thank_you_page?.message !== undefined) out.push('thank_you_page.message');
  if (input.disqualification_message !== undefined) out.push('disqualification_message');
  if (input.disqualification_url != null) out.push('disqualification_url');
  if (input.redirect_url != null) out.push('redirect_url');
  if (input.is_branding_enabled === false) out.push('is_branding_enabled');
  return out;
}

/** Applies a body to options (PUT starts from the defaults, PATCH from the current options). */
export function applyOptions(
  type: CollectorType,
  base: CollectorOptions,
  input: CollectorInput,
): CollectorOptions {
  const out: CollectorOptions = { ...base, thank_you_page: { ...base.thank_you_page } };
  const popup = isPopup(type);
  for (const f of POPUP_FIELDS)
    if (input[f] !== undefined && !popup)
      throw bad(`'${f}' is only allowed for popup_invitation and popup_survey collectors.`);
  for (const f of POPUP_ONLY_INVITATION)
    if (input[f] !== undefined && type !== 'popup_invitation')
      throw bad(`'${f}' is only allowed for popup_invitation collectors.`);
  if (input.sender_email != null && type !== 'email')
    throw bad(`'sender_email' is only allowed for email collectors.`);
  if (input.allow_multiple_responses === true && type === 'email')
    throw bad(`'allow_multiple_responses' is not available for email collectors.`);

  const simple = [
    'thank_you_message',
    'disqualification_message',
    'disqualification_url',
    'disqualification_type',
    'closed_page_message',
    'redirect_url',
    'redirect_type',
    'display_survey_results',
    'edit_response_type',
    'anonymous_type',
    'allow_multiple_responses',
    'sender_email',
    'respondent_authentication',
    'width',
    'height',
    'border_color',
    'is_branding_enabled',
    'headline',
    'message',
    'primary_button',
    'secondary_button',
  ] as const;
  const target = out as unknown as Record<string, unknown>;
  for (const f of simple) if (input[f] !== undefined) target[f] = input[f];
  if (input.sample_rate !== undefined) {
    const n = Number(input.sample_rate);
    if (!Number.isInteger(n) || n < 1 || n > 100)
      throw bad(`'sample_rate' must be a whole number from 1 to 100.`);
    out.sample_rate = String(n);
  }
  if (input.embed_origins !== undefined) {
    if (type !== 'weblink') throw bad(`'embed_origins' is only allowed for weblink collectors.`);
    out.embed_origins = embedOrigins(input.embed_origins);
  }
  if (input.screening !== undefined) out.screening = screeningOptions(base.screening, input.screening);
  if (input.thank_you_page !== undefined) {
    if (input.thank_you_page.is_enabled !== undefined)
      out.thank_you_page.is_enabled = input.thank_you_page.is_enabled;
    if (input.thank_you_page.message !== undefined) out.thank_you_page.message = input.thank_you_page.message;
  }
  if (input.thank_you_message !== undefined && input.thank_you_page?.message === undefined)
    out.thank_you_page.message = input.thank_you_message;
  if (out.redirect_type === 'loop' && !(type === 'weblink' && out.allow_multiple_responses))
    throw bad(`'redirect_type' loop needs a weblink collector with allow_multiple_responses true.`);
  for (const f of ['redirect_url', 'disqualification_url'] as const) {
    const v = out[f];
    if (v != null && v !== '' && !/^https?:\/\/[^\s]+$/i.test(v)) throw bad(`'${f}' must be an http(s) URL.`);
  }
  return out;
}

// https://host[:port], or http on a loopback host (what browsers treat as secure: local testing).
const ORIGIN =
  /^(?:https:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::[0-9]{1,5})?$/;

/** The origins allowed to frame a weblink collector: each https://host[:port], lower-cased, once. */
export function embedOrigins(list: readonly string[]): string[] {
  if (list.length > 20) throw bad(`'embed_origins' lists at most 20 origins.`);
  const out = new Set<string>();
  for (const raw of list) {
    const origin = raw.trim().toLowerCase().replace(/\/$/, '');
    const port = /:([0-9]+)$/.exec(origin)?.[1];
    // Port 0 is no port a browser connects to (and the URL parser drops it from the origin).
    if (!ORIGIN.test(origin) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      throw bad(
        `'embed_origins': "${raw.slice(0, 100)}" is not an origin like https://www.example.com or https://example.com:8443 (no path, no wildcard).`,
      );
    out.add(origin);
  }
  return [...out];
}

/** The screening settings after `input` changes `current`'s (each field optional). */
export function screeningOptions(
  current: ScreeningOptions | undefined,
  input: Partial<ScreeningOptions>,
): ScreeningOptions {
  const out = { ...DEFAULT_SCREENING, ...current };
  if (input.min_page_seconds !== undefined) {
    const v = input.min_page_seconds;
    if (v !== null && !(Number.isFinite(v) && v >= 0 && v <= 60))
      throw bad(`'screening.min_page_seconds' must be from 0 to 60 seconds, or null for the default.`);
    out.min_page_seconds = v;
  }
  if (input.max_per_address !== undefined) {
    const v = input.max_per_address;
    if (v !== null && !(Number.isInteger(v) && v >= 1 && v <= 1_000_000))
      throw bad(`'screening.max_per_address' must be a whole number from 1, or null for no limit.`);
    out.max_per_address = v;
  }
  if (input.duplicates !== undefined) {
    if (!(DUPLICATE_RULES as readonly string[]).includes(input.duplicates))
      throw bad(`'screening.duplicates' must be one of ${DUPLICATE_RULES.join(', ')}.`);
    out.duplicates = input.duplicates;
  }
  if (input.window_hours !== undefined) {
    const v = input.window_hours;
    if (!(Number.isInteger(v) && v >= 1 && v <= 8760))
      throw bad(`'screening.window_hours' must be a whole number of hours from 1 to 8760.`);
    out.window_hours = v;
  }
  return out;
}
