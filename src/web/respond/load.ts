// What every respondent request of a link reads first (the link's collector, survey, design and
// language, domain/collectors/entry.ts), as the pages use it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import { entryByToken, type RespondentEntry } from '../../domain/collectors/entry.js';
import { type RecipientRow, recipientByToken } from '../../domain/invitations/recipients.js';
import { type DesignIndex, designIndex } from '../../domain/responses/design-index.js';
import { languageAmong } from '../../domain/surveys/translations.js';
import { allowFraming } from '../../http/security-headers.js';
import type { Translate } from '../../platform/i18n/index.js';
import type { PageLanguage } from './language.js';
import { localized, localizedOwn } from './localize.js';
import { type Themed, withTheme } from './theme.js';

export interface RespondentContext {
  token: string;
  collector: Collector;
  survey: Themed;
  index: DesignIndex;
  path: string;
  /** the link's query (custom value and variables) without our own `p` */
  query: string;
  /** the email invitation recipient whose personal link (?rcp=) this is (email collectors) */
  recipient?: RecipientRow;
  language: PageLanguage;
  t: Translate;
  /** the read a kept page is keyed by (page-cache.ts); null in a translation's language */
  rows: RespondentEntry | null;
}

function queryOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  if (at < 0) return '';
  const search = new URLSearchParams(request.url.slice(at + 1));
  for (const own of ['p', 'screen']) search.delete(own);
  return search.size > 0 ? search.toString() : '';
}

/** The link's context, or null for no such link (a 404). */
export async function loadRespondent(
  deps: Deps,
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
): Promise<RespondentContext | null> {
  const token = request.params.token;
  if (!/^[A-Za-z0-9]{6,40}$/.test(token)) return null;
  const entry = await entryByToken(deps, token);
  if (!entry) return null;
  const { collector, survey: stored } = entry;
  if (collector.type !== 'weblink' && collector.type !== 'email') return null;
  const query = queryOf(request);
  // An email collector answers only its recipients' personal links.
  const recipient =
    collector.type === 'email'
      ? await recipientByToken(deps, collector.id, new URLSearchParams(query).get('rcp'))
      : undefined;
  if (collector.type === 'email' && !recipient) return null;
  allowFraming(reply, collector.options.embed_origins ?? []);
  const index = await designIndex(deps, stored);
  // The survey in the language chosen (?lang=) or else the browser asks for, when it has it.
  const chosen = query ? (new URLSearchParams(query).get('lang') ?? undefined) : undefined;
  const l = await languageAmong(deps, stored, entry.languages, chosen, request.headers['accept-language']);
  const local = l.translation ? localized(l, stored, collector, index) : localizedOwn(deps, entry, l, index);
  // Each field named (no spread) and no await for a survey without a theme: a new visitor's
  // page counts its microseconds.
  return {
    language: local.language,
    t: local.t,
    collector: local.collector,
    index: local.index,
    survey: local.survey.theme_id ? await withTheme(deps, local.survey) : local.survey,
    recipient,
    token,
    path: `/r/${token}`,
    query,
    rows: l.translation ? null : entry,
  };
}
