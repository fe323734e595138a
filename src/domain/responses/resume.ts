// "Finish later" on the respondent page: the page's acceptable answers are saved as a partial
// response by the flow's own Exit (exitPage: no required answers asked for, what needs putting right
// is dropped), and the respondent gets a link that continues that response in any browser for
// RESUME_DAYS. Opening it hands the response to the opening browser's session, as an edit_url does
// (openResponse), so the respondent page walks on from where it was left.
//
// The link's token is 256 random bits; only its SHA-256 is stored (as account links are). It stays
// usable until it expires (a respondent may open it on several devices, or again after a crash); a
// completed response's link says it is done. The respondent may have it emailed: each email bumps
// the link's count in the statement that checks its cap, with the email queued in that transaction,
// so concurrent requests never send more than the cap; a client address is also held to a few a
// minute (window counters), so the form cannot be used to mail strangers in bulk.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { queueEmail } from '../../db/outbox-queue.js';
import { addressKey } from '../../platform/addresses.js';
import { ApiError } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/escape.js';
import { catalogFor, directionOf, translator } from '../../platform/i18n/index.js';
import { accessUrl } from '../../platform/regions.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import type { SurveyRow } from '../surveys/access.js';
import { type EditLink, openResponse, type PageAnswers, type Respondent } from './flow.js';
import type { ResponseRow } from './responses.js';
import { exitPosted } from './screens.js';
import { bump } from './submission-limit.js';

/** The path of a link (the token follows). */
export const RESUME_PATH = '/r/resume/';
/** How many times one link may be emailed. */
export const RESUME_EMAILS_PER_LINK = 3;
/** How many links one client address may have emailed a minute. */
export const RESUME_EMAILS_PER_ADDRESS_MINUTE = 5;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SavedForLater {
  token: string;
  /** ISO instant the link stops working */
  expiresAt: string;
  response: ResponseRow;
}

/**
 * Saves the page as Exit does and issues a link to continue the response; null when nothing could
 * be saved (the collector lets no saved response change, or the response is no longer partial).
 */
export async function finishLater(
  deps: Deps,
  r: Respondent,
  response: ResponseRow | undefined,
  given: PageAnswers,
  started: string | undefined,
  /** The screen posted, when the survey shows one question at a time. */
  screen?: unknown,
): Promise<SavedForLater | null> {
  const saved = await exitPosted(deps, r, response, given, started, screen);
  if (!saved) return null;
  const token = randomToken(32);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.config.resumeDays * DAY_MS).toISOString();
  await deps.db.kysely
    .insertInto('resume_links')
    .values({
      token_hash: sha256(token),
      response_id: saved.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      emails: 0,
    })
    .execute();
  return { token, expiresAt, response: saved };
}

/** What a link leads to. `survey` is the response's, for the page that says so. */
export type ResumeState =
  | { state: 'unknown' }
  | { state: 'expired'; survey: SurveyRow; expiresAt: string }
  /** the response is completed (or otherwise ended): nothing left to answer */
  | { state: 'done'; survey: SurveyRow }
  /** the collector no longer lets a saved response change */
  | { state: 'refused'; survey: SurveyRow }
  | {
      state: 'open';
      survey: SurveyRow;
      expiresAt: string;
      link: Exclude<EditLink, { refused: unknown }>;
    };

/** Where a link's token leads now (without using it up). */
export async function openResumeLink(deps: Deps, token: string): Promise<ResumeState> {
  if (!TOKEN.test(token)) return { state: 'unknown' };
  const k = deps.db.kysely;
  const row = await k
    .selectFrom('resume_links')
    .innerJoin('responses', 'responses.id', 'resume_links.response_id')
    .selectAll('responses')
    .select('resume_links.expires_at as link_expires_at')
    .where('resume_links.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  const { link_expires_at: expiresAt, ...response } = row;
  const survey = await k
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', response.survey_id)
    .executeTakeFirst();
  if (!survey) return { state: 'unknown' };
  if (response.response_status !== 'partial') return { state: 'done', survey };
  if (expiresAt <= deps.clock.now().toISOString()) return { state: 'expired', survey, expiresAt };
  const link = await openResponse(deps, response);
  if (!link) return { state: 'unknown' };
  if ('refused' in link) return { state: 'refused', survey };
  return { state: 'open', survey, expiresAt, link };
}

export type EmailOutcome =
  | Exclude<ResumeState, { state: 'open' }>
  | { state: 'sent'; survey: SurveyRow; to: string; expiresAt: string }
  /** this link was emailed as often as it may be */
  | { state: 'capped'; survey: SurveyRow; expiresAt: string }
  /** too many from this client address: wait this long */
  | { state: 'wait'; survey: SurveyRow; expiresAt: string; retryAfterSeconds: number };

/**
 * Emails the link to `address` (through the outbox). A malformed address is refused (400/1002)
 * before anything is counted.
 */
export async function emailResumeLink(
  deps: Deps,
  token: string,
  address: string,
  ip: string,
  /** the language of the page the respondent asked from: the email's */
  lang = 'en',
): Promise<EmailOutcome> {
  const to = address.trim();
  if (!EMAIL.test(to) || to.length > 254)
    throw new ApiError(1002, 'Enter an email address, like name@example.com.');
  const opened = await openResumeLink(deps, token);
  if (opened.state !== 'open') return opened;
  const { survey, expiresAt } = opened;
  const now = deps.clock.now();
  const window = Math.floor(now.getTime() / MINUTE_MS);
  if ((await bump(deps, `resume-mail:ip:${addressKey(ip)}`, window)) > RESUME_EMAILS_PER_ADDRESS_MINUTE)
    return {
      state: 'wait',
      survey,
      expiresAt,
      retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now.getTime()) / 1000)),
    };
  const owner = await deps.db.kysely
    .selectFrom('users')
    .select('region')
    .where('id', '=', survey.owner_id)
    .executeTakeFirst();
  const url = `${accessUrl(deps.config, owner?.region ?? 'us')}${RESUME_PATH}${token}`;
  const id = await deps.ids.one();
  const sent = await deps.db.kysely.transaction().execute(async (trx) => {
    const counted = await trx
      .updateTable('resume_links')
      .set({ emails: sql`emails + 1` })
      .where('token_hash', '=', sha256(token))
      .where('emails', '<', RESUME_EMAILS_PER_LINK)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) return false;
    await queueEmail(deps, trx, {
      id,
      // The respondent's own address, not one of the owner's contacts (a bounce marks none).
      ownerId: null,
      to,
      ...resumeEmail(survey.title, url, expiresAt, lang),
      purpose: 'resume_link',
      refId: opened.link.response.id,
    });
    return true;
  });
  return sent ? { state: 'sent', survey, to, expiresAt } : { state: 'capped', survey, expiresAt };
}

/** The email's words: which survey, the link, until when, and that the link is a key. */
export function resumeEmail(title: string, url: string, expiresAt: string, lang = 'en') {
  const { lang: code } = catalogFor(lang);
  const t = translator(code);
  const date = expiresAt.slice(0, 10);
  const e = escapeHtml;
  return {
    subject: t('resume_mail_subject', { title }),
    text: `${t('resume_mail_saved', { title })}
${t('resume_mail_open')}

${url}

${t('resume_mail_until', { date })}
`,
    html: `<!doctype html><html lang="${code}" dir="${directionOf(code)}"><body style="font-family:sans-serif;line-height:1.5">
<p>${e(t('resume_mail_saved', { title }))}</p>
<p><a href="${e(url)}">${e(t('resume_mail_continue'))}</a></p>
<p style="color:#555">${e(t('resume_mail_until', { date }))}</p>
</body></html>`,
  };
}

/** Links expired more than RESUME_DAYS ago (until then, one still says "expired"); returns how many. */
export async function pruneResumeLinks(deps: Deps, limit: number): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.config.resumeDays * DAY_MS).toISOString();
  const r = await sql`DELETE FROM resume_links WHERE token_hash IN (
      SELECT token_hash FROM resume_links WHERE expires_at < ${cutoff} LIMIT ${limit})`.execute(
    deps.db.kysely,
  );
  return Number(r.numAffectedRows ?? 0);
}
